import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeEngine } from "./engine-suite";

describeEngine("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
