import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeMatrixGrades } from "./matrix-grades-suite";

describeMatrixGrades("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
