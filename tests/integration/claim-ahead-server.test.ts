import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimCells } from "@/lib/db/cells/claim-cells";
import { createRun } from "@/lib/engine/create-run";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { getRun } from "@/lib/services/runs";
import { userA, waitFor, type TestDatabase, testBackends } from "../helpers/databases";

// Claiming ahead with more than one worker (0023_claim_ahead_on_a_server.sql): the database grants
// cells ahead of a run's cap only while no other worker has a cell of the run running, so workers
// that each call up to the cap never call more than it together.

describe.each(testBackends)("claiming ahead beside other workers, on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  const mock = createMockProvider();
  const providers = createProviderRegistry([mock]);

  beforeAll(async () => {
    test = await create();
  });
  afterAll(async () => {
    await test?.drop();
  });

  /** A run of `rows` cells of the mock's echo model at concurrency 4. */
  async function runOf(rows: number, latencyMs = 0) {
    return createRun(
      { db: test!.db, providers },
      {
        userId: userA,
        input: {
          prompt: "ahead {{n}}",
          rows: Array.from({ length: rows }, (_, n) => ({ n: String(n) })),
          models: [{ provider: "mock", model: "echo", params: { latencyMs, jitterMs: 0 } }],
          concurrency: 4,
        },
      },
    );
  }

  const claim = (runId: string, workerId: string, { limit, ahead, start }: { limit: number; ahead: number; start: number }) =>
    claimCells(test!.db, { runId, workerId, leaseMs: 60_000, limit, ahead, start });

  it("grants a worker alone on a run up to the cap again ahead", async (context) => {
    if (!test) return context.skip();
    const run = await runOf(20);
    const { cells } = await claim(run.id, "worker-a", { limit: 10, ahead: 4, start: 4 });
    expect(cells.length).toBe(8);
    expect(cells.filter((cell) => cell.started).length).toBe(4);
  });

  it("grants none ahead while another worker has a cell of the run running", async (context) => {
    if (!test) return context.skip();
    const run = await runOf(20);
    expect((await claim(run.id, "worker-b", { limit: 1, ahead: 0, start: 1 })).cells.length).toBe(1);
    // within the cap: 3 more, not the 7 that holding ahead would allow
    const { cells } = await claim(run.id, "worker-a", { limit: 10, ahead: 4, start: 4 });
    expect(cells.length).toBe(3);
    // and the other worker, once another holds cells of the run, gets none ahead either
    expect((await claim(run.id, "worker-b", { limit: 10, ahead: 4, start: 4 })).cells.length).toBe(0);
  });

  it("counts no attempt for a held cell claimed again after its worker's lease ran out", async (context) => {
    if (!test) return context.skip();
    const run = await runOf(8);
    // held, never started: the worker died before calling them
    const held = await claim(run.id, "worker-gone", { limit: 8, ahead: 4, start: 0 });
    expect(held.cells.length).toBe(8);
    expect(held.cells.every((cell) => !cell.started && cell.attempts === 1)).toBe(true);
    await test.db.query("update run_cells set lease_expires_at = now() - interval '1 second' where run_id = $1", [run.id]);
    const again = await claim(run.id, "worker-next", { limit: 4, ahead: 0, start: 4 });
    expect(again.cells.length).toBe(4);
    expect(again.cells.map((cell) => cell.attempts)).toEqual([1, 1, 1, 1]);
  });

  it("two workers that claim ahead call no more than the run's cap together, and each cell once", async (context) => {
    if (!test) return context.skip();
    const db = test.db;
    const before = mock.stats();
    const workers: Worker[] = [];
    try {
      // The first holds one call of the run (and one ready); the second joins with room for many.
      workers.push(await startWorker({ db, providers, workerId: "worker-small", maxInFlight: 1, pollMs: 20, claimAhead: true }));
      const run = await runOf(40, 60);
      await waitFor(
        async () =>
          (await db.query("select 1 from run_cells where run_id = $1 and status = 'running' and lease_owner = 'worker-small'", [run.id]))
            .rowCount > 0,
        { what: "the first worker's claim" },
      );
      workers.push(await startWorker({ db, providers, workerId: "worker-large", maxInFlight: 16, pollMs: 20, claimAhead: true }));
      const done = await waitFor(
        async () => {
          const current = await getRun({ db }, { userId: userA, runId: run.id });
          return current.status === "completed" ? current : null;
        },
        { what: "the run to complete", timeoutMs: 30_000 },
      );
      const stats = mock.stats();
      expect(done.counts.ok).toBe(40);
      expect(stats.calls - before.calls).toBe(40);
      expect(done.cells.every((cell) => cell.attempts === 1)).toBe(true);
      // holding ahead beside the first worker's call, the second called 4 at once: 5 in all
      expect(stats.peakInFlight).toBeLessThanOrEqual(4);
    } finally {
      for (const worker of workers) await worker.stop();
    }
  });
});
