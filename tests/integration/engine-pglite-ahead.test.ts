import { createPgliteTestDatabase } from "../helpers/databases";
import { describeEngine } from "./engine-suite";

// The embedded default's worker claims ahead (lib/server/context.ts, cli/local-engine.ts).
describeEngine("PGlite, claiming ahead", createPgliteTestDatabase, { claimAhead: true });
