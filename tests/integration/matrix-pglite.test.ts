import { createPgliteTestDatabase } from "../helpers/databases";
import { describeMatrix } from "./matrix-suite";

describeMatrix("PGlite", createPgliteTestDatabase);
