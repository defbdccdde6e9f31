import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeGraderCosts } from "./grader-costs-suite";

describeGraderCosts("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
