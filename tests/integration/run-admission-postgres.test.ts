import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeRunAdmission } from "./run-admission-suite";

describeRunAdmission("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
