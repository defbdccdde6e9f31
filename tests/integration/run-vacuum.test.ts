import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import { VACUUM_AFTER_CELLS } from "@/lib/db/vacuum-after-runs";
import { createRun } from "@/lib/engine/create-run";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { runToEnd } from "../helpers/engine";
import { testBackends, userA, waitFor, type TestDatabase } from "../helpers/databases";

// A cell is written three times; the end of a run gives its dead versions' space to the next
// run's cells (lib/db/vacuum-after-runs.ts) instead of leaving the table to grow past them.
const providers = createProviderRegistry([createMockProvider()]);
// Rows of about 1.5 KB (as the disk target has them): answers that deflate badly (packed-answer.ts stores them as text).
const noise = (seed: number) => Array.from({ length: 300 }, (_, i) => ((seed * 7919 + i * 104729) % 1_000_003).toString(36)).join(" ");
const input = (rows: number, tag: string): CreateRunInput => ({
  prompt: `${tag} {{text}}`,
  rows: Array.from({ length: rows }, (_, i) => ({ text: noise(i + tag.length * 1000) })),
  models: ["echo", "echo", "echo", "echo"].map((model) => ({ provider: "mock", model, params: { latencyMs: 0 } })),
  cache: false,
  concurrency: 64,
});
const rowsForVacuum = Math.ceil(VACUUM_AFTER_CELLS / 4);

describe.each(testBackends)("the end of a run on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  let worker: Worker | null = null;
  beforeAll(async () => {
    test = await create();
    if (test) worker = await startWorker({ db: test.db, providers, pollMs: 20, claimAhead: true });
  });
  afterAll(async () => {
    await worker?.stop();
    await test?.drop();
  });

  // Manual vacuums only (a server's autovacuum counts apart, in autovacuum_count).
  const vacuums = async () =>
    (await test!.db.query<{ n: number }>("select coalesce(vacuum_count, 0)::int as n from pg_stat_user_tables where relname = 'run_cells'"))
      .rows[0].n;

  it("vacuums run_cells once a worker saved enough cells, and not after a small run", async (context) => {
    if (!test) return context.skip();
    const before = await vacuums();
    await runToEnd({ db: test.db, providers }, { userId: userA, input: input(rowsForVacuum, "first") });
    await waitFor(async () => (await vacuums()) > before, { what: "a vacuum after the run" });

    const after = await vacuums();
    await runToEnd({ db: test.db, providers }, { userId: userA, input: input(10, "small") });
    // the sweep that would complete it again, and any vacuum, have had their turn
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await vacuums()).toBe(after);
  });
});

// On a server, autovacuum may come by at any time: where new rows go is looked at on PGlite only.
describe("the end of a run on PGlite, for the rows that come next", () => {
  let test: TestDatabase | null = null;
  beforeAll(async () => {
    test = await testBackends[0][1]();
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("gives the space of its cells' dead versions to the next run's cells", async () => {
    const db = test!.db;
    const tableBytes = async () => Number((await db.query<{ n: string }>("select pg_relation_size('run_cells')::text as n")).rows[0].n);
    const worker = await startWorker({ db, providers, pollMs: 20, claimAhead: true });
    try {
      await runToEnd({ db, providers }, { userId: userA, input: input(rowsForVacuum, "first") });
    } finally {
      // waits for the vacuum the run's end started
      await worker.stop();
    }
    // The next run's cells, queued (no worker takes them): without the vacuum every one of them
    // goes to a new page past the table's end.
    const before = await tableBytes();
    const next = await createRun({ db, providers }, { userId: userA, input: input(rowsForVacuum, "second") });
    const grew = (await tableBytes()) - before;
    const { rows } = await db.query<{ n: number }>("select sum(pg_column_size(c.*) + 4)::int as n from run_cells c where run_id = $1", [
      next.id,
    ]);
    expect(grew).toBeLessThan(rows[0].n * 0.75);
  });
});
