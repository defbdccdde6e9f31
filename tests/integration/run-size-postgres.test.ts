import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeRunSizeLimits } from "./run-size-suite";

describeRunSizeLimits("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
