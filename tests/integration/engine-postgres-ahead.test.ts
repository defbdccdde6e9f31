import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";
import { describeEngine } from "./engine-suite";

// The web server's worker claims ahead on a Postgres server too (lib/engine/worker-options.ts,
// 0023_claim_ahead_on_a_server.sql).
describeEngine("the Postgres server, claiming ahead", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null), {
  claimAhead: true,
});
