import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeRls } from "./rls-suite";

describeRls("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
