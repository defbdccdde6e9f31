import { createPgliteTestDatabase } from "../helpers/databases";
import { describeStreamedPlanning } from "./streamed-planning-suite";

describeStreamedPlanning("PGlite", createPgliteTestDatabase);
