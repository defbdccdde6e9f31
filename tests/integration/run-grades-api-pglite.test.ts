import { createPgliteTestDatabase } from "../helpers/databases";
import { describeRunGradesApi } from "./run-grades-api-suite";

describeRunGradesApi("PGlite", createPgliteTestDatabase);
