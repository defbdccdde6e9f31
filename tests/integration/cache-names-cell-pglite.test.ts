import { createPgliteTestDatabase } from "../helpers/databases";
import { describeCacheNamesCell } from "./cache-names-cell-suite";

describeCacheNamesCell("PGlite", createPgliteTestDatabase);
