import { createPgliteTestDatabase } from "../helpers/databases";
import { describeParentKeys } from "./parent-keys-suite";

describeParentKeys("PGlite", createPgliteTestDatabase, { concurrent: false });
