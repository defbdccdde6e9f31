import { createPgliteTestDatabase } from "../helpers/databases";
import { describeGraderCosts } from "./grader-costs-suite";

describeGraderCosts("PGlite", createPgliteTestDatabase);
