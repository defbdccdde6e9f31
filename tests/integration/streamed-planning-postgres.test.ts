import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeStreamedPlanning } from "./streamed-planning-suite";

describeStreamedPlanning("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
