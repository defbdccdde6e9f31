import { createPgliteTestDatabase } from "../helpers/databases";
import { describeMatrixGrades } from "./matrix-grades-suite";

describeMatrixGrades("PGlite", createPgliteTestDatabase);
