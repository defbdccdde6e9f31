import { createPgliteTestDatabase } from "../helpers/databases";
import { describeRunAdmission } from "./run-admission-suite";

describeRunAdmission("PGlite", createPgliteTestDatabase);
