import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { claimCells } from "@/lib/db/cells/claim-cells";
import { renewLeases } from "@/lib/db/cells/renew-leases";
import { createRun } from "@/lib/engine/create-run";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createServerTestDatabase, postgresServerAvailable, userA, type TestDatabase } from "../helpers/databases";

// On the Postgres server a worker's statements run on several connections at once: the lease
// renewal (every lease / 3) beside the save of finished cells and the record of a batch job's
// files. Two statements that lock the same cells in different orders deadlock, and Postgres
// aborts one of them ("deadlock detected"); a CLI resume once printed that as a warning.

const available = await postgresServerAvailable();
let test: TestDatabase | null = null;

beforeAll(async () => {
  if (available) test = await createServerTestDatabase();
});
afterAll(async () => {
  await test?.drop();
});

describe.skipIf(!available)("lease renewal on the Postgres server", () => {
  it("skips cells another statement holds instead of deadlocking with it", async () => {
    const providers = createProviderRegistry([createMockProvider()]);
    const run = await createRun(
      { db: test!.db, providers },
      {
        userId: userA,
        input: { prompt: "Item {{id}}", rows: [{ id: "1" }, { id: "2" }], models: [{ provider: "mock", model: "echo" }], concurrency: 4 },
      },
    );
    const { cells } = await claimCells(test!.db, { runId: run.id, workerId: "w1", leaseMs: 30_000, limit: 2 });
    expect(cells).toHaveLength(2);
    const [first, second] = [...cells].sort((a, b) => a.rowIndex - b.rowIndex);

    // Another connection (the save of a finished cell) holds the second cell, then wants the
    // first: the renewal between them must not hold the first while it waits for the second.
    const saver = new pg.Client({ connectionString: test!.url! });
    await saver.connect();
    try {
      await saver.query("begin");
      await saver.query("update run_cells set latency_ms = 1 where id = $1", [second.id]);
      const renewal = renewLeases(test!.db, { workerId: "w1", leaseMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await saver.query("set local lock_timeout = '5s'");
      await saver.query("update run_cells set latency_ms = 1 where id = $1", [first.id]);
      await saver.query("commit");
      expect(await renewal).toBe(1);
    } finally {
      await saver.query("rollback").catch(() => {});
      await saver.end();
    }
  }, 60_000);
});
