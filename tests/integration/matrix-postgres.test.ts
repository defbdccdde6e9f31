import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeMatrix } from "./matrix-suite";

describeMatrix("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
