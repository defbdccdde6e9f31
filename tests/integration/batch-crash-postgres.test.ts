import { openDatabase } from "@/lib/db/open-database";
import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeBatchCrash } from "./batch-crash-suite";

describeBatchCrash("the Postgres server", async () => {
  if (!(await postgresServerAvailable())) return null;
  const test = await createServerTestDatabase();
  return {
    open: () => openDatabase({ databaseUrl: test.url!, poolSize: 4 }),
    env: { DATABASE_URL: test.url! },
    drop: () => test.drop(),
  };
});
