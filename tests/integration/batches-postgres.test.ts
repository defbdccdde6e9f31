import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeBatches } from "./batches-suite";

describeBatches("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
