import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { createRun } from "@/lib/engine/create-run";
import { claimCells, saveAndMarkStarted } from "@/lib/db/cells/claim-cells";
import { expireAllLeases } from "@/lib/db/cells/renew-leases";
import { startWorker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { changeRunStatus, getRun } from "@/lib/services/runs";
import { createPgliteTestDatabase, userA, waitFor, type TestDatabase } from "../helpers/databases";
import { runToEnd } from "../helpers/engine";

/**
 * A sole worker's claiming ahead (0018_claim_ahead.sql, lib/engine/worker.ts): it holds up to the
 * run's concurrency more cells than it runs, yet never has more calls in flight than the cap, and
 * what it holds goes back when the run is paused or cancelled.
 */
describe("claiming ahead", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  /** db, but every claim statement waits for wait() first. */
  function beforeClaims(db: Database, wait: () => Promise<unknown>): Database {
    return {
      kind: db.kind,
      query: async (sql, params) => {
        if (sql.includes("claim")) await wait();
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
      transaction: (fn) => db.transaction(fn),
      batch: (statements) => db.batch(statements),
      listen: (channel, onPayload) => db.listen(channel, onPayload),
      close: () => db.close(),
    };
  }

  /** Cells marked running in the database for the run, sampled every few ms until stop() is called. */
  function sampleRunning(db: Database, runId: string) {
    let peak = 0;
    let stopped = false;
    const done = (async () => {
      while (!stopped) {
        const { rows } = await db.query<{ n: number }>(
          "select count(*)::int as n from run_cells where run_id = $1 and status = 'running'",
          [runId],
        );
        peak = Math.max(peak, rows[0].n);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    })();
    return {
      async stop() {
        stopped = true;
        await done;
        return peak;
      },
    };
  }

  async function runOf(claimAhead: boolean) {
    const mock = createMockProvider();
    const providers = createProviderRegistry([mock]);
    const worker = await startWorker({ db: test.db, providers, pollMs: 20, claimAhead });
    try {
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userA,
          input: {
            prompt: "cell {{n}}",
            rows: Array.from({ length: 60 }, (_, n) => ({ n: String(n) })),
            models: [{ provider: "mock", model: "echo", params: { latencyMs: 30, jitterMs: 10 } }],
            concurrency: 4,
          },
        },
      );
      const sampler = sampleRunning(test.db, run.id);
      const finished = await waitFor(
        async () => {
          const current = await getRun({ db: test.db }, { userId: userA, runId: run.id });
          return current.status === "completed" ? current : null;
        },
        { timeoutMs: 30_000, what: "the run to complete" },
      );
      return { finished, peakRunning: await sampler.stop(), stats: mock.stats() };
    } finally {
      await worker.stop();
    }
  }

  it("holds cells ahead in the database but never calls more than the cap at once", async () => {
    const { finished, peakRunning, stats } = await runOf(true);
    expect(finished.counts.ok).toBe(60);
    expect(stats.calls).toBe(60);
    expect(stats.peakInFlight).toBeLessThanOrEqual(4);
    // it did hold cells beyond the cap (else this test would prove nothing), and never more than the cap again
    expect(peakRunning).toBeGreaterThan(4);
    expect(peakRunning).toBeLessThanOrEqual(8);
    // every cell ran once: a held cell's claim is its one attempt
    expect(finished.cells.every((cell) => cell.attempts === 1)).toBe(true);
  });

  it("finishes short calls at concurrency 64 with slow claims: a held cell never waits for a call that is not coming", async () => {
    // Calls that end while a claim is on its way leave slots free that no later end will fill; at a
    // run's end those held cells waited for ever before the fix (the third run never completed).
    const mock = createMockProvider();
    const providers = createProviderRegistry([mock]);
    // Claims that take a while (as on a busy database thread): instant calls end while one is on its way.
    const slowClaims = beforeClaims(test.db, () => new Promise((resolve) => setTimeout(resolve, 15)));
    // A poll slower than any run here: a stall is not rescued by it.
    const worker = await startWorker({ db: slowClaims, providers, pollMs: 60_000, claimAhead: true });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const finished = await runToEnd(
          { db: test.db, providers },
          {
            userId: userA,
            input: {
              prompt: "short {{n}} " + attempt,
              rows: Array.from({ length: 500 }, (_, n) => ({ n: String(n) })),
              models: ["echo", "fast"].map((model) => ({ provider: "mock", model, params: { latencyMs: 3, jitterMs: 0 } })),
              concurrency: 64,
            },
            timeoutMs: 20_000,
          },
        );
        expect(finished.counts.ok).toBe(1000);
        // every held cell that was called was marked started, though marks alone wait for the next write
        const { rows: unmarked } = await test.db.query<{ n: number }>(
          "select count(*)::int as n from run_cells where run_id = $1 and held",
          [finished.id],
        );
        expect(unmarked[0].n).toBe(0);
      }
      expect(mock.stats().calls).toBe(3000);
    } finally {
      await worker.stop();
    }
  });

  it("marks a held cell's call started when it is saved in the same write, started and ended since the last statement", async () => {
    // What a tick writes when it claims nothing goes as one batch: the starts first, then the
    // results. A held cell whose call started and ended since the last statement is in both, and
    // a save first would leave it held, as if it had never been called.
    const providers = createProviderRegistry([createMockProvider()]);
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userA,
        input: { prompt: "marked {{n}}", rows: [{ n: "1" }, { n: "2" }], models: [{ provider: "mock", model: "echo" }], concurrency: 1 },
      },
    );
    const workerId = "worker-marks";
    const { cells } = await claimCells(test.db, { runId: run.id, workerId, leaseMs: 30_000, limit: 2, ahead: 1, start: 1 });
    const heldCell = cells.find((cell) => !cell.started)!;
    expect(heldCell).toBeDefined();
    await saveAndMarkStarted(test.db, {
      workerId,
      results: [{ id: heldCell.id, runId: run.id, status: "ok", outputRaw: "done", latencyMs: 1 }],
      started: [heldCell.id],
    });
    const { rows } = await test.db.query<{ status: string; marked: boolean }>(
      "select status, not held and started_at <= finished_at as marked from run_cells where id = $1",
      [heldCell.id],
    );
    expect(rows[0]).toEqual({ status: "ok", marked: true });
  });

  it("calls none of the cells of a claim that comes back after the run was paused", async () => {
    // The claim is sent while the run is running and answered after the pause's notice was heard:
    // dropping what was held then missed these, and they started as calls ended.
    const mock = createMockProvider();
    const providers = createProviderRegistry([mock]);
    let gate: Promise<void> | null = null;
    let claimWaiting: (() => void) | null = null;
    const gated: Database = {
      ...test.db,
      query: async (sql, params) => {
        const result = await test.db.query(sql, params);
        if (gate && /parallaxr_(save_and_claim|claim_cells)/.test(sql)) {
          const open = gate;
          gate = null;
          claimWaiting?.();
          await open;
        }
        return result as never;
      },
    };
    const worker = await startWorker({ db: gated, providers, pollMs: 60_000, claimAhead: true });
    try {
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userA,
          input: {
            prompt: "late claim {{n}}",
            rows: Array.from({ length: 30 }, (_, n) => ({ n: String(n) })),
            models: [{ provider: "mock", model: "echo", params: { latencyMs: 40, jitterMs: 0 } }],
            concurrency: 2,
          },
        },
      );
      const read = () => getRun({ db: test.db }, { userId: userA, runId: run.id });
      await waitFor(async () => (await read()).counts.ok >= 2, { what: "two cells done" });
      // the next claim is held back once the database has answered it
      let openGate = () => {};
      const claimed = new Promise<void>((resolve) => (claimWaiting = resolve));
      gate = new Promise<void>((resolve) => (openGate = resolve));
      await claimed;
      await changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "pause" });
      // the notice is heard (nothing can start: every call in flight ends meanwhile), then the claim comes back
      await new Promise((resolve) => setTimeout(resolve, 150));
      const callsBefore = mock.stats().calls;
      openGate();
      const paused = await waitFor(
        async () => {
          const current = await read();
          return current.counts.running === 0 && worker.inFlight() === 0 ? current : null;
        },
        { what: "the late claim's cells to go back" },
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(mock.stats().calls).toBe(callsBefore);
      const queued = paused.cells.filter((cell) => cell.status === "queued");
      expect(queued.length).toBe(30 - paused.counts.ok);
      expect(queued.every((cell) => cell.attempts === 0)).toBe(true);
    } finally {
      await worker.stop();
    }
  });

  it('starts the cells of a new run\'s first claim when its "planned" notice is heard while the claim is on its way', async () => {
    // A run is inserted planned and queued in the same transaction: both notices are heard after
    // the commit, the first possibly while the worker's claim of the new cells is on its way.
    // Read as a stop, it gave the claim's cells back and claimed them again.
    const mock = createMockProvider();
    const providers = createProviderRegistry([mock]);
    const sent: string[] = [];
    let firstClaim = true;
    const noticeDuringClaim: Database = {
      ...test.db,
      query: async (sql, params) => {
        sent.push(sql);
        const result = await test.db.query(sql, params);
        if (firstClaim && /parallaxr_(save_and_claim|claim_cells)/.test(sql)) {
          firstClaim = false;
          const runId = String(params?.[0]);
          await test.db.query("select pg_notify('parallaxr_runs', json_build_object('runId', $1::text, 'status', 'planned')::text)", [
            runId,
          ]);
          // the notice is heard before the claim's answer is handled
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return result as never;
      },
    };
    const worker = await startWorker({ db: noticeDuringClaim, providers, pollMs: 60_000, claimAhead: true });
    try {
      const done = await runToEnd(
        { db: test.db, providers },
        {
          userId: userA,
          input: {
            prompt: "first claim {{n}}",
            rows: Array.from({ length: 12 }, (_, n) => ({ n: String(n) })),
            models: [{ provider: "mock", model: "echo", params: { latencyMs: 20, jitterMs: 0 } }],
            concurrency: 4,
          },
        },
      );
      expect(firstClaim).toBe(false);
      expect(done.counts.ok).toBe(12);
      expect(done.cells.every((cell) => cell.attempts === 1)).toBe(true);
      expect(mock.stats().calls).toBe(12);
      // none of the claimed cells went back to the queue
      expect(
        sent.filter((sql) => /set status = case when r\.status in \('cancelled', 'failed'\) then 'cancelled' else 'queued' end/.test(sql)),
      ).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("claims no further than the cap without it", async () => {
    const { finished, peakRunning, stats } = await runOf(false);
    expect(finished.counts.ok).toBe(60);
    expect(stats.peakInFlight).toBeLessThanOrEqual(4);
    expect(peakRunning).toBeLessThanOrEqual(4);
  });

  it("gives held cells back on pause (nothing more starts) and cancels them on cancel", async () => {
    const mock = createMockProvider();
    const providers = createProviderRegistry([mock]);
    const worker = await startWorker({ db: test.db, providers, pollMs: 20, claimAhead: true });
    try {
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userA,
          input: {
            prompt: "paused {{n}}",
            rows: Array.from({ length: 40 }, (_, n) => ({ n: String(n) })),
            models: [{ provider: "mock", model: "echo", params: { latencyMs: 60, jitterMs: 0 } }],
            concurrency: 3,
          },
        },
      );
      const read = () => getRun({ db: test.db }, { userId: userA, runId: run.id });
      await waitFor(async () => (await read()).counts.ok >= 3, { what: "three cells done" });
      await changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "pause" });
      // the calls in flight at the pause finish (at most 3); the held ones are given back, never started
      const callsAtPause = mock.stats().calls;
      const paused = await waitFor(
        async () => {
          const current = await read();
          return current.counts.running === 0 && worker.inFlight() === 0 ? current : null;
        },
        { what: "in-flight cells to finish and held ones to go back" },
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mock.stats().calls).toBe(callsAtPause);
      expect(paused.counts.ok).toBe(callsAtPause);
      // given back as never claimed: queued, the attempt not counted
      const queued = paused.cells.filter((cell) => cell.status === "queued");
      expect(queued.length).toBe(40 - callsAtPause);
      expect(queued.every((cell) => cell.attempts === 0)).toBe(true);

      await changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "resume" });
      await waitFor(async () => (await read()).counts.ok >= callsAtPause + 3, { what: "work after resume" });
      await changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "cancel" });
      const cancelled = await waitFor(
        async () => {
          const current = await read();
          return current.counts.running === 0 && current.counts.queued === 0 && worker.inFlight() === 0 ? current : null;
        },
        { what: "the cancel to settle, held cells included" },
      );
      expect(cancelled.status).toBe("cancelled");
      expect(cancelled.counts.cancelled).toBeGreaterThan(0);
      expect(cancelled.counts.ok + cancelled.counts.cancelled).toBe(40);
      expect(mock.stats().calls).toBe(cancelled.counts.ok);
    } finally {
      await worker.stop();
    }
  });

  it("after a crash, gives back the held cells never called (attempt not counted) and takes back the called ones (counted)", async () => {
    // Calls that never answer: the worker's state stays put while the database is read.
    let calls = 0;
    const hanging: TextProvider = {
      id: "hang",
      kind: "text",
      listModels: async () => [],
      generate: (request) =>
        new Promise((_, reject) => {
          calls++;
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
        }),
    };
    const providers = createProviderRegistry([hanging]);
    const worker = await startWorker({ db: test.db, providers, pollMs: 20, claimAhead: true, onError: () => {} });
    try {
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userA,
          input: {
            prompt: "crash {{n}}",
            rows: Array.from({ length: 10 }, (_, n) => ({ n: String(n) })),
            models: [{ provider: "hang", model: "forever" }],
            concurrency: 2,
            maxAttempts: 1,
          },
        },
      );
      const cellsOf = async () =>
        (
          await test.db.query<{ status: string; attempts: number; started: boolean }>(
            "select status, attempts, not held as started from run_cells where run_id = $1",
            [run.id],
          )
        ).rows;
      // two calls in flight, two more cells held ready, every started call marked
      const held = await waitFor(
        async () => {
          const cells = await cellsOf();
          const running = cells.filter((cell) => cell.status === "running");
          return running.length === 4 && running.filter((cell) => cell.started).length === 2 ? running : null;
        },
        { what: "two calls in flight and two cells held" },
      );
      expect(held.every((cell) => cell.attempts === 1)).toBe(true);
      expect(calls).toBe(2);

      // What the next process on the folder does first (the worker is as a SIGKILL left it).
      await expireAllLeases(test.db);
      const after = await cellsOf();
      expect(after.filter((cell) => cell.status === "queued").length).toBe(8);
      expect(after.filter((cell) => cell.status === "queued").every((cell) => cell.attempts === 0)).toBe(true);
      const taken = after.filter((cell) => cell.status === "running");
      expect(taken).toHaveLength(2);
      // the called ones keep their attempt: with maxAttempts 1, a cell that took its worker down is not called again
      expect(taken.every((cell) => cell.attempts === 1 && cell.started)).toBe(true);
    } finally {
      await worker.stop({ graceMs: 0 });
    }
  });
  it("puts right what a dead process left once its own first calls are out, sparing its own cells and runs", async () => {
    // A database of its own: what the other tests here leave (runs, cells still running) would be
    // taken back by this worker too, and its first calls might be theirs.
    const fresh = await createPgliteTestDatabase();
    try {
      await recoveryAfterFirstCalls(fresh.db);
    } finally {
      await fresh.drop();
    }
  });

  async function recoveryAfterFirstCalls(db: Database) {
    const mock = createMockProvider();
    // Calls of the gate provider wait until the test opens it; each prompt's calls are counted.
    const calls = new Map<string, number>();
    const waiting: Array<() => void> = [];
    let open = false;
    const gate: TextProvider = {
      id: "gate",
      kind: "text",
      listModels: async () => [],
      async generate(request) {
        calls.set(request.prompt, (calls.get(request.prompt) ?? 0) + 1);
        if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
        return { text: "ok", tokensIn: 1, tokensOut: 1, tokensEstimated: false, finishReason: "stop", warnings: [] };
      },
    };
    const providers = createProviderRegistry([mock, gate]);
    const rows = (count: number) => Array.from({ length: count }, (_, n) => ({ n: String(n) }));
    const create = (prompt: string, provider: string, model: string, count = 6) =>
      createRun({ db, providers }, { userId: userA, input: { prompt, rows: rows(count), models: [{ provider, model }], concurrency: 2 } });
    const statusOf = async (runId: string) => (await getRun({ db }, { userId: userA, runId })).status;

    // What a process killed here left: a run with two cells called and two held ready, and a run
    // it was planning.
    const left = await create("left {{n}}", "mock", "fast");
    await db.query(
      `update run_cells set status = 'running', lease_owner = 'worker-dead', lease_expires_at = now() + interval '1 hour',
              attempts = 1, started_at = now(), held = row_index >= 2
        where run_id = $1 and row_index < 4`,
      [left.id],
    );
    await db.query("update runs set status = 'running' where id = $1", [left.id]);
    const halfPlanned = await create("half {{n}}", "mock", "fast");
    await db.query("update runs set status = 'planned' where id = $1", [halfPlanned.id]);

    // The worker claims nothing until the test has made its runs (a run is made queued, then
    // marked planned here: a claim in between would start its calls).
    let openClaims!: () => void;
    const claimsOpen = new Promise<void>((resolve) => (openClaims = resolve));
    const heldClaims = beforeClaims(db, () => claimsOpen);
    // No poll within the test: only the worker's own first calls can set off the recovery.
    const worker = await startWorker({
      db: heldClaims,
      providers,
      pollMs: 60_000,
      reclaimOnStart: true,
      claimAhead: true,
      onError: () => {},
    });
    try {
      // A run this process is planning, and one it runs.
      const planning = await create("planning {{n}}", "mock", "fast");
      await db.query("update runs set status = 'planned' where id = $1", [planning.id]);
      const own = await create("own {{n}}", "gate", "hold");
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Nothing was touched before a call of this worker's went out.
      expect(await statusOf(halfPlanned.id)).toBe("planned");
      openClaims();
      await waitFor(async () => ((await statusOf(halfPlanned.id)) === "failed" ? true : null), {
        what: "the dead process's half-planned run to be failed after the first calls",
      });
      // Its own: its two calls in flight (and any cells it holds ready) are still its own; its own planned run untouched.
      const ownCells = (
        await db.query<{ status: string; owner: string | null; started: boolean; attempts: number }>(
          "select status, lease_owner as owner, not held as started, attempts from run_cells where run_id = $1 and status <> 'queued'",
          [own.id],
        )
      ).rows;
      expect(ownCells.length).toBeGreaterThanOrEqual(2);
      expect(ownCells.every((cell) => cell.status === "running" && cell.owner === worker.id && cell.attempts === 1)).toBe(true);
      expect(ownCells.filter((cell) => cell.started)).toHaveLength(2);
      expect(await statusOf(planning.id)).toBe("planned");
      // The dead process's run is taken back and finished here.
      await waitFor(async () => ((await statusOf(left.id)) === "completed" ? true : null), { what: "the left run to complete" });

      open = true;
      for (const release of waiting.splice(0)) release();
      const finished = await waitFor(
        async () => {
          const run = await getRun({ db }, { userId: userA, runId: own.id });
          return run.status === "completed" ? run : null;
        },
        { what: "its own run to complete" },
      );
      // answered (a warning: the gate model has no known context window), none failed
      expect(finished.cells.map((cell) => cell.status)).toEqual(Array(6).fill("warning"));
      // every cell of its own run was called once: none was taken back from under it
      expect([...calls.values()]).toEqual(Array(6).fill(1));
    } finally {
      open = true;
      for (const release of waiting.splice(0)) release();
      await worker.stop({ graceMs: 0 });
    }
  }
});
