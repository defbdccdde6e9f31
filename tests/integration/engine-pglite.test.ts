import { createPgliteTestDatabase } from "../helpers/databases";
import { describeEngine } from "./engine-suite";

describeEngine("PGlite", createPgliteTestDatabase);
