import { createPgliteTestDatabase } from "../helpers/databases";
import { describeRunSizeLimits } from "./run-size-suite";

describeRunSizeLimits("PGlite", createPgliteTestDatabase);
