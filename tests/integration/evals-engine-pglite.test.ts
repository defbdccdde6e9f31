import { createPgliteTestDatabase } from "../helpers/databases";
import { describeEvalsEngine } from "./evals-engine-suite";

describeEvalsEngine("PGlite", createPgliteTestDatabase);
