import { createPgliteTestDatabase } from "../helpers/databases";
import { describeRls } from "./rls-suite";

describeRls("PGlite", createPgliteTestDatabase);
