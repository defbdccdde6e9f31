import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeCacheNamesCell } from "./cache-names-cell-suite";

describeCacheNamesCell("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
