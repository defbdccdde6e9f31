import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeEvalsEngine } from "./evals-engine-suite";

describeEvalsEngine("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
