import { createPgliteTestDatabase } from "../helpers/databases";
import { describeEvalsApi } from "./evals-api-suite";

describeEvalsApi("PGlite", createPgliteTestDatabase);
