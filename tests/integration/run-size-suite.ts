import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import type { Database } from "@/lib/db/database";
import { createRun, estimateRun } from "@/lib/engine/create-run";
import { TooLargeError } from "@/lib/engine/errors";
import { changeRunStatus, getRun } from "@/lib/services/runs";
import { startWorker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, userB, waitFor, withTransactionQueries, type TestDatabase } from "../helpers/databases";

// The limits as deployed by default (lib/engine/run-limits.ts), spelled out so this file reads
// on its own; one test lowers the per-user queue to reach it with small runs.
const defaults = {
  maxPromptChars: 1_000_000,
  maxRenderedCharsPerCell: 4_000_000,
  maxRenderedCharsPerRun: 1_000_000_000,
  maxCellsPerRun: 200_000,
  maxQueuedCellsPerUser: 1_000_000,
};
const providers = createProviderRegistry([createMockProvider()]);
const mockModels = (count: number) => Array.from({ length: count }, (_, index) => ({ provider: "mock", model: `m${index}` }));

/** The attacks on run sizes of the security review, against one kind of database. */
export function describeRunSizeLimits(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`run sizes on ${label}`, () => {
    let test: TestDatabase | null = null;
    beforeAll(async () => {
      test = await create();
    });
    afterAll(async () => {
      await test?.drop();
    });

    // What a request may have left behind, counted past RLS.
    const footprint = async (db: Database) =>
      (
        await db.query<{ runs: number; versions: number; datasets: number; cells: number }>(
          `select (select count(*) from runs)::int as runs, (select count(*) from prompt_versions)::int as versions,
                  (select count(*) from datasets)::int as datasets, (select count(*) from run_cells)::int as cells`,
        )
      ).rows[0];

    /** The TooLargeError a call fails with, and how long it took; anything else fails the test. */
    async function refusal(call: () => Promise<unknown>): Promise<{ error: TooLargeError; ms: number; heapGrowth: number }> {
      const heapBefore = process.memoryUsage().heapUsed;
      const start = performance.now();
      let caught: unknown = null;
      try {
        await call();
      } catch (error) {
        caught = error;
      }
      const ms = performance.now() - start;
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      if (!(caught instanceof TooLargeError))
        throw new Error(`expected a TooLargeError, got ${caught === null ? "success" : String(caught)}`);
      return { error: caught, ms, heapGrowth };
    }

    it("refuses a 1 MB prompt x 6,000 rows (6 GB rendered) with 413 naming the limit, in seconds and without allocating it", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const input: CreateRunInput = {
        prompt: `${"Read this carefully. ".repeat(47_000)}{{n}}`,
        rows: Array.from({ length: 6_000 }, (_, n) => ({ n: String(n) })),
        models: mockModels(1),
      };
      const before = await footprint(db);
      for (const call of [
        () => estimateRun({ db, providers }, { userId: userA, input }),
        () => createRun({ db, providers }, { userId: userA, input }),
      ]) {
        const { error, ms, heapGrowth } = await refusal(call);
        expect(error.message).toMatch(/rendered/i);
        expect(error.message).toContain("1,000,000,000");
        expect(error.message).toContain("PARALLAXR_MAX_RENDERED_CHARS_PER_RUN");
        expect(error.field).toBe("rows");
        // Rendering every row took the server to an out-of-memory crash in 12 s.
        expect(ms).toBeLessThan(5_000);
        expect(heapGrowth).toBeLessThan(300 * 1024 * 1024);
      }
      expect(await footprint(db)).toEqual(before);
    }, 60_000);

    it("refuses one cell's rendered input over 4,000,000 characters, and a prompt over 1,000,000, naming the field", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const document = "d".repeat(2_000_001);
      const big = await refusal(() =>
        createRun(
          { db, providers },
          {
            userId: userA,
            input: {
              prompt: "Compare {{a}} with {{b}}",
              rows: [
                { a: "x", b: "y" },
                { a: document, b: document },
              ],
              models: mockModels(1),
            },
          },
        ),
      );
      expect(big.error.field).toBe("rows.1");
      expect(big.error.message).toContain("4,000,000");
      expect(big.error.message).toContain("PARALLAXR_MAX_RENDERED_CHARS_PER_CELL");
      // Documents are the point of some runs: a few megabytes of rendered input per cell is fine.
      const run = await createRun(
        { db, providers },
        { userId: userA, input: { prompt: "Summarise {{doc}}", rows: [{ doc: "d".repeat(3_900_000) }], models: mockModels(1) } },
      );
      expect(run.plan.cells).toBe(1);
      await changeRunStatus({ db }, { userId: userA, runId: run.id, action: "cancel" });

      const prompt = await refusal(() =>
        createRun({ db, providers, limits: { ...defaults, maxPromptChars: 1_000 } } as never, {
          userId: userA,
          input: { prompt: "p".repeat(1_001), models: mockModels(1) },
        }),
      );
      expect(prompt.error.field).toBe("prompt");
      expect(prompt.error.message).toContain("1,000");
    }, 60_000);

    it("refuses 100,000 rows x 16 models x 100 trials (160,000,000 cells) with 413 before inserting anything", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const input: CreateRunInput = {
        prompt: "Classify {{n}}",
        rows: Array.from({ length: 100_000 }, (_, n) => ({ n: String(n) })),
        models: mockModels(16),
        trials: 100,
      };
      const before = await footprint(db);
      for (const call of [
        () => estimateRun({ db, providers }, { userId: userA, input }),
        () => createRun({ db, providers }, { userId: userA, input }),
      ]) {
        const { error, ms } = await refusal(call);
        expect(error.message).toContain("160,000,000 cells");
        expect(error.message).toContain("200,000");
        expect(error.message).toContain("PARALLAXR_MAX_CELLS_PER_RUN");
        // A 14.6 KB request of this shape created 1.6M cells in 73 s.
        expect(ms).toBeLessThan(5_000);
      }
      expect(await footprint(db)).toEqual(before);
    }, 60_000);

    it("caps the cells a user has queued over all active runs, and counts paused runs", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const deps = { db, providers, limits: { ...defaults, maxQueuedCellsPerUser: 1_000 } } as never as {
        db: Database;
        providers: typeof providers;
      };
      const input = (rows: number): CreateRunInput => ({
        prompt: "q {{n}}",
        rows: Array.from({ length: rows }, (_, n) => ({ n: String(n) })),
        models: mockModels(2),
      });
      const userC = "00000000-0000-4000-8000-00000000000c";
      const first = await createRun(deps, { userId: userC, input: input(300) });
      await changeRunStatus({ db }, { userId: userC, runId: first.id, action: "pause" });
      const before = await footprint(db);
      const { error } = await refusal(() => createRun(deps, { userId: userC, input: input(250) }));
      expect(error.message).toContain("600 cells queued");
      expect(error.message).toContain("500 more");
      expect(error.message).toContain("1,000");
      expect(error.message).toContain("PARALLAXR_MAX_QUEUED_CELLS_PER_USER");
      expect(await footprint(db)).toEqual(before);
      // a dry run says what the plan would be; it queues nothing, so the queue does not refuse it
      expect((await estimateRun(deps, { userId: userC, input: input(250) })).cells).toBe(500);
      // another user's queue is their own
      const other = await createRun(deps, { userId: userB, input: input(250) });
      expect(other.status).toBe("queued");
      // what fits is accepted, and a cancelled run frees its share
      await createRun(deps, { userId: userC, input: input(200) });
      await changeRunStatus({ db }, { userId: userC, runId: first.id, action: "cancel" });
      expect((await createRun(deps, { userId: userC, input: input(250) })).status).toBe("queued");
    }, 60_000);

    it("counts every cell of a large run whose last cells are still being added against the queue cap", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const deps = { db, providers, limits: { ...defaults, maxQueuedCellsPerUser: 14_000 } } as never as {
        db: Database;
        providers: typeof providers;
      };
      const input = (rows: number, prompt: string): CreateRunInput => ({
        prompt: `${prompt} {{n}}`,
        rows: Array.from({ length: rows }, (_, n) => ({ n: String(n) })),
        models: mockModels(4),
      });
      const userH = "00000000-0000-4000-8000-000000000011";
      const large = await createRun(deps, { userId: userH, input: input(3_000, "large") });
      expect(large.planning).toBe(true);
      await large.planned;
      // As it is while its planner is at work: its first cells in, the rest to come.
      await db.query("update runs set planning = true where id = $1", [large.id]);
      await db.query("delete from run_cells where run_id = $1 and row_index >= 500", [large.id]);
      const { error } = await refusal(() => createRun(deps, { userId: userH, input: input(750, "more") }));
      expect(error.message).toContain("12,000 cells queued");
      expect(error.message).toContain("3,000 more");
    }, 60_000);

    it("creates a 200,000-cell run in short transactions: a concurrent select 1 answers within 5 s throughout, and so during its cancel", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const userD = "00000000-0000-4000-8000-00000000000d";
      const probe = startProbe(db);
      let run: Awaited<ReturnType<typeof createRun>>;
      let planned: { longestMs: number; probes: number; sawPlanned: boolean; claimedWhilePlanned: number };
      try {
        run = await createRun(
          { db, providers },
          {
            userId: userD,
            input: {
              prompt: "Item {{id}}: {{text}}",
              rows: Array.from({ length: 50_000 }, (_, i) => ({ id: String(i), text: `row ${i}` })),
              models: mockModels(4),
            },
          },
        );
        await run.planned;
      } finally {
        planned = await probe.stop();
      }
      // Answered with its first cells in, the rest coming (counted as queued already).
      expect(run.status).toBe("queued");
      expect(run.planning).toBe(true);
      expect(run.plan.cells).toBe(200_000);
      expect(run.counts.queued).toBe(200_000);
      const queuedCells = async () =>
        (await db.query<{ n: number }>("select count(*)::int as n from run_cells where run_id = $1 and status = 'queued'", [run.id]))
          .rows[0].n;
      await run.planned;
      expect(await queuedCells()).toBe(200_000);
      expect((await getRun({ db }, { userId: userD, runId: run.id, outputChars: 1 })).planning).toBe(false);
      // One statement for every cell held PGlite's one connection for 12.5 s.
      expect(planned.longestMs, `longest select 1 wait over ${planned.probes} probes`).toBeLessThan(5_000);
      expect(planned.claimedWhilePlanned).toBe(0);

      const cancelProbe = startProbe(db);
      let cancelled: { longestMs: number; probes: number };
      const start = performance.now();
      try {
        const summary = await changeRunStatus({ db }, { userId: userD, runId: run.id, action: "cancel" });
        expect(summary.status).toBe("cancelled");
      } finally {
        cancelled = await cancelProbe.stop();
      }
      const cancelMs = performance.now() - start;
      const after = await getRun({ db }, { userId: userD, runId: run.id, outputChars: 1 });
      expect(after.counts.cancelled).toBe(200_000);
      expect(after.cells).toHaveLength(200_000);
      expect(after.cells.filter((cell) => cell.status !== "cancelled")).toEqual([]);
      expect(cancelled.longestMs, `longest select 1 wait during a ${Math.round(cancelMs)} ms cancel`).toBeLessThan(5_000);
    }, 240_000);

    // Cells go in a batch per transaction, two batches at once on a Postgres server; a batch
    // takes the run's lock only at its end (insert-run-cells.ts). Whatever the interleaving, a
    // cancel or a failed batch must leave no cell waiting in a run that will never run it.
    const statusesOf = async (db: Database, userId: string) =>
      (
        await db.query<{ status: string; cells: number }>(
          `select c.status, count(*)::int as cells from run_cells c join runs r on r.id = c.run_id
            where r.user_id = $1 group by c.status order by c.status`,
          [userId],
        )
      ).rows;
    const largeInput = (rows: number): CreateRunInput => ({
      prompt: "Item {{id}}",
      rows: Array.from({ length: rows }, (_, i) => ({ id: String(i) })),
      models: mockModels(4),
    });

    it("cancels a large run while its cells are being inserted: every cell in is cancelled, none is left queued", async (context) => {
      if (!test) return context.skip();
      const inner = test.db;
      const userF = "00000000-0000-4000-8000-00000000000f";
      // The run is answered with its first cells; the rest go in behind the answer. On a server,
      // the first of those batches is held after it checked that the run takes cells and before its
      // insert, until the cancel is over: the interleaving where a batch would commit queued cells
      // into a cancelled run. (A batch whose insert is in holds the run's key share lock, which the
      // cancel waits for. PGlite has one connection: a held transaction would hold the cancel.)
      const concurrent = inner.kind === "postgres";
      let inserts = 0;
      let reached!: () => void;
      const heldReached = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const db = withTransactionQueries(inner, async (tx, sql, params) => {
        if (concurrent && sql.includes("insert into run_cells") && ++inserts === 2) {
          reached();
          await released;
        }
        return tx.query(sql, params);
      });
      const created = await createRun({ db, providers }, { userId: userF, input: largeInput(20_000) });
      expect(created.status).toBe("queued");
      expect(created.planning).toBe(true);
      if (concurrent) await heldReached;
      // The cancel's answer counts no cell still to come as queued: none will come.
      const cancelled = await changeRunStatus({ db: inner }, { userId: userF, runId: created.id, action: "cancel" });
      expect(cancelled).toMatchObject({ status: "cancelled", counts: { queued: 0 } });
      // (on the server the next batch is held: the planner cannot have ended yet)
      if (concurrent) expect(cancelled.planning).toBe(true);
      release();
      await created.planned;
      const statuses = await statusesOf(inner, userF);
      expect(statuses.map((row) => row.status)).toEqual(["cancelled"]);
      expect(statuses[0].cells).toBeLessThan(80_000);
      const after = await getRun({ db: inner }, { userId: userF, runId: created.id, outputChars: 1 });
      expect(after).toMatchObject({ status: "cancelled", planning: false });
      expect(after.counts.queued).toBe(0);
    }, 120_000);

    it("fails a large run whose batch of cells fails behind its answer, after the other batch in flight is over: nothing left queued", async (context) => {
      if (!test) return context.skip();
      const userG = "00000000-0000-4000-8000-000000000010";
      let inserts = 0;
      const inner = test.db;
      const failing = withTransactionQueries(inner, (tx, sql, params) => {
        if (sql.includes("insert into run_cells") && ++inserts === 3) throw new Error("the disk is full");
        return tx.query(sql, params);
      });
      const created = await createRun({ db: failing, providers }, { userId: userG, input: largeInput(20_000) });
      expect(created).toMatchObject({ status: "queued", planning: true });
      await expect(created.planned).rejects.toThrow("the disk is full");
      const runs = (
        await inner.query<{ status: string; error: string; planning: boolean }>(
          "select status, error, planning from runs where user_id = $1",
          [userG],
        )
      ).rows;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: "failed", planning: false });
      expect(runs[0].error).toMatch(
        /^Planning failed after [\d,]+ of 80,000 cells were queued \(the disk is full\)\. The cells that finished are kept; the rest were cancelled\.$/,
      );
      const statuses = await statusesOf(inner, userG);
      expect(statuses.map((row) => row.status)).toEqual(["cancelled"]);
      // The first cells, the batch after them (and on a server the one beside the failed one) went in before the stop.
      expect(statuses[0].cells).toBeGreaterThanOrEqual(12_000);
    }, 120_000);

    it("never claims from a planned run, and finishes a planned run whose planner stopped as failed", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const userE = "00000000-0000-4000-8000-00000000000e";
      const input = (prompt: string): CreateRunInput => ({
        prompt,
        rows: Array.from({ length: 20 }, (_, n) => ({ n: String(n) })),
        models: mockModels(2),
      });
      // A run caught half-way through planning, as a crash would leave it: planned, some cells in.
      const stuck = await createRun({ db, providers }, { userId: userE, input: input("stuck {{n}}") });
      await db.query("update runs set status = 'planned' where id = $1", [stuck.id]);
      await db.query("delete from run_cells where run_id = $1 and row_index >= 10", [stuck.id]);
      const fresh = await createRun({ db, providers }, { userId: userE, input: input("fresh {{n}}") });
      await db.query("update runs set status = 'planned' where id = $1", [fresh.id]);

      const worker = await startWorker({ db, providers, pollMs: 20 });
      try {
        const other = await createRun({ db, providers }, { userId: userE, input: input("other {{n}}") });
        await waitFor(async () => (await getRun({ db }, { userId: userE, runId: other.id })).status === "completed", {
          what: "the queued run to complete",
        });
        // stuck kept rows 0-9 of its two models, fresh has all 20 rows
        for (const [id, count] of [
          [stuck.id, 20],
          [fresh.id, 40],
        ] as const) {
          const cells = (
            await db.query<{ status: string; attempts: number }>("select status, attempts from run_cells where run_id = $1", [id])
          ).rows;
          expect(cells).toEqual(Array(count).fill({ status: "queued", attempts: 0 }));
        }
      } finally {
        await worker.stop();
      }

      // Its planner has not been heard from for an hour: it will not come back.
      await db.query("update runs set updated_at = now() - interval '1 hour' where id = $1", [stuck.id]);
      const next = await startWorker({ db, providers, pollMs: 20 });
      try {
        // (The run is failed first, then its cells cancelled: the worker does it once its first
        // calls are out or at its first sweep, not before startWorker returns.)
        const failed = await waitFor(
          async () => {
            const run = await getRun({ db }, { userId: userE, runId: stuck.id });
            return run.status === "failed" && run.cells.every((cell) => cell.status !== "queued") ? run : null;
          },
          { what: "the interrupted run to be failed and its cells cancelled" },
        );
        expect(failed.error).toMatch(/planning .*interrupted/i);
        expect(failed.cells.map((cell) => cell.status)).toEqual(Array(20).fill("cancelled"));
        expect(failed.finishedAt).not.toBeNull();
        // a planner still at work (heard from just now) is left alone
        expect((await getRun({ db }, { userId: userE, runId: fresh.id })).status).toBe("planned");
      } finally {
        await next.stop();
      }
    }, 60_000);
  });
}

/**
 * Sends `select 1` every 10 ms until stopped and keeps the longest wait, from when a probe was
 * due to its answer: on PGlite a statement blocks the thread, so a probe's timer fires late too.
 * Also watches for a cell being claimed while its run is planned.
 */
function startProbe(db: Database): {
  stop(): Promise<{ longestMs: number; probes: number; sawPlanned: boolean; claimedWhilePlanned: number }>;
} {
  let stopped = false;
  let longestMs = 0;
  let probes = 0;
  let sawPlanned = false;
  let claimedWhilePlanned = 0;
  const loop = (async () => {
    let due = performance.now();
    for (;;) {
      await db.query("select 1");
      const answered = performance.now();
      longestMs = Math.max(longestMs, answered - due);
      probes++;
      if (probes % 20 === 0) {
        const { rows } = await db.query<{ planned: number; running: number }>(
          `select count(*)::int as planned,
                  coalesce(sum((select count(*) from run_cells c where c.run_id = r.id and c.status = 'running')), 0)::int as running
             from runs r where r.status = 'planned'`,
        );
        sawPlanned ||= rows[0].planned > 0;
        claimedWhilePlanned += rows[0].running;
      }
      if (stopped) break;
      due = performance.now() + 10;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { longestMs, probes, sawPlanned, claimedWhilePlanned };
    },
  };
}
