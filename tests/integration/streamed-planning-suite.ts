import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExperimentSchema } from "@/lib/api/experiments";
import type { Database } from "@/lib/db/database";
import { finishInterruptedRuns, interruptedStreamingError } from "@/lib/db/runs/finish-interrupted-runs";
import { completeFinishedRuns } from "@/lib/db/runs/run-lifecycle";
import { finishStreamedPlanning, startExperiment } from "@/lib/engine/create-experiment";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { changeRunStatus, getRun } from "@/lib/services/runs";
import { getExperiment } from "@/lib/services/experiments";
import { userA, waitFor, withTransactionQueries, type TestDatabase } from "../helpers/databases";

// An experiment made by `parallaxr run` in its own process: the first rows' cells are queued at
// once and the worker starts on them while the rest are added behind them (startExperiment,
// supabase/migrations/0019_streamed_planning.sql). What must hold: no row is lost or called twice,
// the run is not completed before its last cell is in, and a cancel, a failure or a dead planner
// part way leave the run honest about it.

const rows = 30;
const firstRows = 4;
const csv = ["provider,model,n", ...Array.from({ length: rows }, (_, n) => `counted,m,${n + 1}`)].join("\n") + "\n";
const input = createExperimentSchema.parse({
  prompt: { name: "prompt.txt", text: "Row {{n}}" },
  experiments: { name: "experiments.csv", text: csv },
  concurrency: 2,
});

/** A provider that answers at once and counts its calls per prompt (the prompt names the row). */
function countingProvider(): TextProvider & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  return {
    id: "counted",
    kind: "text",
    calls,
    listModels: async () => [],
    async generate(request) {
      const row = /Row (\d+)/.exec(request.prompt)?.[1] ?? "?";
      calls.set(row, (calls.get(row) ?? 0) + 1);
      return { text: `answer ${row}`, tokensIn: 1, tokensOut: 1, tokensEstimated: false, finishReason: "stop", warnings: [] };
    },
  };
}

/** A gate: `opened` settles when open() is called. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** db, but the n-th insert of cells (counting from 1) fails. */
function failingCellInsert(db: Database, n: number): Database {
  let inserts = 0;
  return withTransactionQueries(db, (tx, sql, params) => {
    if (sql.includes("insert into run_cells") && ++inserts === n) throw new Error("the disk is full");
    return tx.query(sql, params);
  });
}

export function describeStreamedPlanning(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`an experiment's rows added while its first ones run, on ${label}`, () => {
    let test: TestDatabase | null = null;
    let worker: Worker | null = null;
    let provider = countingProvider();
    beforeAll(async () => {
      test = await create();
    });
    afterAll(async () => {
      await test?.drop();
    });

    async function withWorker(run: (db: Database) => Promise<void>): Promise<void> {
      provider = countingProvider();
      worker = await startWorker({ db: test!.db, providers: createProviderRegistry([provider]), pollMs: 20, onError: () => {} });
      try {
        await run(test!.db);
      } finally {
        await worker.stop({ graceMs: 0 });
      }
    }

    const cellsOf = async (db: Database, runId: string) =>
      (
        await db.query<{ row: number; status: string }>(
          "select row_index as row, status from run_cells where run_id = $1 order by row_index",
          [runId],
        )
      ).rows;
    const runRow = async (db: Database, runId: string) =>
      (
        await db.query<{ status: string; planning: boolean; error: string | null }>(
          "select status, planning, error from runs where id = $1",
          [runId],
        )
      ).rows[0];

    it("runs the first rows at once, is not completed before the last row is in, and calls every row once", async (context) => {
      if (!test) return context.skip();
      await withWorker(async (db) => {
        const rest = gate();
        const { experiment, planned } = await startExperiment({ db }, { userId: userA, input, firstRows, restAfter: rest.opened });
        // The first rows run and finish while the rest wait to be added.
        await waitFor(async () => ((await cellsOf(db, experiment.id)).every((cell) => cell.status === "ok") ? true : null), {
          what: "the first rows to finish",
        });
        expect((await cellsOf(db, experiment.id)).map((cell) => cell.row)).toEqual([0, 1, 2, 3]);
        // Every cell in so far has finished; the completion check the worker makes (after its results
        // and in its sweeps) leaves the run alone: still not complete.
        expect(await completeFinishedRuns(db, { runIds: [experiment.id] })).toEqual([]);
        expect(await runRow(db, experiment.id)).toMatchObject({ status: "running", planning: true });

        rest.open();
        await planned;
        const done = await waitFor(
          async () => {
            const current = await getExperiment({ db }, { userId: userA, experimentId: experiment.id });
            return current.status === "completed" ? current : null;
          },
          { what: "the experiment to complete" },
        );
        expect(done.rows.map((row) => [row.number, row.status, row.output])).toEqual(
          Array.from({ length: rows }, (_, n) => [n + 1, "ok", `answer ${n + 1}`]),
        );
        expect(done.rows.map((row) => row.values)).toEqual(Array.from({ length: rows }, (_, n) => ["counted", "m", String(n + 1)]));
        expect(provider.calls.size).toBe(rows);
        expect([...provider.calls.values()].every((times) => times === 1)).toBe(true);
        expect((await runRow(db, experiment.id)).planning).toBe(false);
      });
    });

    it("stops adding rows when the run is cancelled meanwhile, and leaves it cancelled", async (context) => {
      if (!test) return context.skip();
      await withWorker(async (db) => {
        const rest = gate();
        const { experiment, planned } = await startExperiment({ db }, { userId: userA, input, firstRows, restAfter: rest.opened });
        await changeRunStatus({ db }, { userId: userA, runId: experiment.id, action: "cancel" });
        rest.open();
        await planned;
        // A call already out when the cancel came finishes and is kept (it is paid for).
        const cells = await waitFor(
          async () => {
            const now = await cellsOf(db, experiment.id);
            return now.every((cell) => cell.status === "ok" || cell.status === "cancelled") ? now : null;
          },
          { what: "the cells in flight to finish" },
        );
        expect(cells.map((cell) => cell.row)).toEqual([0, 1, 2, 3]);
        expect((await getRun({ db }, { userId: userA, runId: experiment.id })).status).toBe("cancelled");
      });
    });

    it("stops adding rows when the command is interrupted, and fails the run saying how far it got", async (context) => {
      if (!test) return context.skip();
      await withWorker(async (db) => {
        const rest = gate();
        const stop = new AbortController();
        const { experiment, planned } = await startExperiment(
          { db },
          { userId: userA, input, firstRows, restAfter: rest.opened, stop: stop.signal },
        );
        await waitFor(async () => ((await cellsOf(db, experiment.id)).every((cell) => cell.status === "ok") ? true : null), {
          what: "the first rows to finish",
        });
        stop.abort();
        rest.open();
        await planned;
        const run = await runRow(db, experiment.id);
        expect(run).toMatchObject({ status: "failed", planning: false });
        expect(run.error).toMatch(/^Interrupted after 4 of 30 experiments were queued\. The rows that finished are kept/);
        expect(await cellsOf(db, experiment.id)).toEqual([0, 1, 2, 3].map((row) => ({ row, status: "ok" })));
      });
    });

    it("fails the run saying how far it got when adding the rest fails; what finished is kept, the rest cancelled", async (context) => {
      if (!test) return context.skip();
      await withWorker(async (db) => {
        const rest = gate();
        // The first transaction's insert of cells succeeds, the next one fails.
        const { experiment, planned } = await startExperiment(
          { db: failingCellInsert(db, 2) },
          { userId: userA, input, firstRows, restAfter: rest.opened },
        );
        await waitFor(async () => ((await cellsOf(db, experiment.id)).every((cell) => cell.status === "ok") ? true : null), {
          what: "the first rows to finish",
        });
        rest.open();
        await expect(planned).rejects.toThrow("the disk is full");
        const run = await runRow(db, experiment.id);
        expect(run.status).toBe("failed");
        expect(run.planning).toBe(false);
        expect(run.error).toMatch(
          /^Planning failed after 4 of 30 experiments were queued \(the disk is full\)\. The rows that finished are kept/,
        );
        // Nothing of the failed batch is left: its transaction rolled back.
        expect(await cellsOf(db, experiment.id)).toEqual([0, 1, 2, 3].map((row) => ({ row, status: "ok" })));
      });
    });

    it("finishes the planning a killed process left, for --resume: the rest added, each row called once, the run complete", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      // A process made the run, had its first rows answered, and was killed before adding the rest.
      const { experiment } = await startExperiment({ db }, { userId: userA, input, firstRows, restAfter: new Promise<void>(() => {}) });
      await db.query(
        "update run_cells set status = 'ok', output_raw = 'answered before', finished_at = now() where run_id = $1 and row_index < 2",
        [experiment.id],
      );
      // --resume, before its worker starts.
      await finishStreamedPlanning({ db }, { userId: userA, input, runId: experiment.id });
      expect(await runRow(db, experiment.id)).toMatchObject({ planning: false });
      expect((await cellsOf(db, experiment.id)).map((cell) => cell.row)).toEqual(Array.from({ length: rows }, (_, n) => n));
      // A sole worker started now puts right what dead processes left, and runs the rest.
      provider = countingProvider();
      const worker = await startWorker({
        db,
        providers: createProviderRegistry([provider]),
        pollMs: 20,
        reclaimOnStart: true,
        onError: () => {},
      });
      try {
        const done = await waitFor(
          async () => {
            const current = await getExperiment({ db }, { userId: userA, experimentId: experiment.id });
            return current.status === "completed" ? current : null;
          },
          { what: "the resumed experiment to complete" },
        );
        expect(done.rows.map((row) => row.output)).toEqual([
          "answered before",
          "answered before",
          ...Array.from({ length: rows - 2 }, (_, n) => `answer ${n + 3}`),
        ]);
        // The two rows answered before the kill were not called again; every other row once.
        expect([...provider.calls.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(
          Array.from({ length: rows - 2 }, (_, n) => String(n + 3)),
        );
        expect([...provider.calls.values()].every((times) => times === 1)).toBe(true);
      } finally {
        await worker.stop({ graceMs: 0 });
      }
      // Nothing to do for a run that is not being planned.
      await finishStreamedPlanning({ db }, { userId: userA, input, runId: experiment.id });
      expect(await cellsOf(db, experiment.id)).toHaveLength(rows);
    });

    it("fails a run whose planner died part way, once it is found, keeping what finished", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      // No worker: the first rows stay queued, and the planner never goes on (its process is gone).
      const never = new Promise<void>(() => {});
      const { experiment } = await startExperiment({ db }, { userId: userA, input, firstRows, restAfter: never });
      await db.query("update run_cells set status = 'ok', finished_at = now() where run_id = $1 and row_index = 0", [experiment.id]);
      // A worker that started after the run was made spares it (this process may be planning it)...
      expect(await finishInterruptedRuns(db, { staleMs: 0, leftovers: true, createdBefore: new Date(Date.now() - 60_000) })).not.toContain(
        experiment.id,
      );
      expect(await runRow(db, experiment.id)).toMatchObject({ status: "queued", planning: true });
      // ...one that started after the planner died does not.
      expect(await finishInterruptedRuns(db, { staleMs: 0, leftovers: true, createdBefore: new Date(Date.now() + 1_000) })).toContain(
        experiment.id,
      );
      expect(await runRow(db, experiment.id)).toEqual({ status: "failed", planning: false, error: interruptedStreamingError });
      expect((await cellsOf(db, experiment.id)).map((cell) => cell.status)).toEqual(["ok", "cancelled", "cancelled", "cancelled"]);
    });
  });
}
