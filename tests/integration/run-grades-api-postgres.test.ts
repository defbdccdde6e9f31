import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeRunGradesApi } from "./run-grades-api-suite";

describeRunGradesApi("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
