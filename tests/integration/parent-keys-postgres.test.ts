import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeParentKeys } from "./parent-keys-suite";

describeParentKeys("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null), {
  concurrent: true,
});
