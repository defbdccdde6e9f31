import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeEvalsApi } from "./evals-api-suite";

describeEvalsApi("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
