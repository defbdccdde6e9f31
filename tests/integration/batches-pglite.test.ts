import { createPgliteTestDatabase } from "../helpers/databases";
import { describeBatches } from "./batches-suite";

describeBatches("PGlite", createPgliteTestDatabase);
