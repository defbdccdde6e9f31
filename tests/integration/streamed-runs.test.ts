import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import type { RunSummary } from "@/lib/api/types";
import { createRun } from "@/lib/engine/create-run";
import { startWorker } from "@/lib/engine/worker";
import { finishInterruptedRuns, interruptedStreamingRunError } from "@/lib/db/runs/finish-interrupted-runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createNotificationHub, type NotificationHub } from "@/lib/realtime/notification-hub";
import { createRunEventStream } from "@/lib/realtime/run-event-stream";
import { getRun } from "@/lib/services/runs";
import { testBackends, userA, waitFor, type TestDatabase } from "../helpers/databases";

// A run of more than 10,000 cells is answered once its first cells are queued; the rest are added
// behind the answer (lib/engine/create-run.ts, streamRest). What a user of the API and a follower
// of the run's events see meanwhile, and what a crash leaves.
const providers = createProviderRegistry([createMockProvider()]);
const largeInput = (rows: number, prompt: string): CreateRunInput => ({
  prompt: `${prompt} {{id}}`,
  rows: Array.from({ length: rows }, (_, i) => ({ id: String(i) })),
  models: ["fast", "fast", "fast", "fast"].map((model) => ({ provider: "mock", model })),
  cache: false,
  concurrency: 64,
});

describe.each(testBackends)("a large run answered before its last cells are in, on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  let notifications: NotificationHub | null = null;
  beforeAll(async () => {
    test = await create();
    if (test) notifications = await createNotificationHub(test.db);
  });
  afterAll(async () => {
    await notifications?.close();
    await test?.drop();
  });

  const cellsIn = async (runId: string) =>
    (await test!.db.query<{ n: number }>("select count(*)::int as n from run_cells where run_id = $1", [runId])).rows[0].n;

  it("counts every cell as queued from the answer on, and tells its followers when the last are in without sending each", async (context) => {
    if (!test || !notifications) return context.skip();
    const { db } = test;
    const run = await createRun({ db, providers }, { userId: userA, input: largeInput(3_000, "followed") });
    expect(run).toMatchObject({ status: "queued", planning: true, counts: { queued: 12_000 } });

    // A follower from the answer's cursor, as the workbench's page is.
    const stop = new AbortController();
    const stream = createRunEventStream({
      db,
      notifications,
      userId: userA,
      runId: run.id,
      afterSeq: run.cursor,
      outputChars: 10,
      signal: stop.signal,
      onClose: () => {},
    });
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    const cellUpdates: number[] = [];
    const runUpdates: RunSummary[] = [];
    const reading = (async () => {
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(event)?.[1];
          if (/^event: cell-update$/m.test(event)) cellUpdates.push((JSON.parse(data!) as { row: number }).row);
          if (/^event: run-update$/m.test(event)) runUpdates.push(JSON.parse(data!) as RunSummary);
        }
      }
    })();
    try {
      await run.planned;
      expect(await cellsIn(run.id)).toBe(12_000);
      const last = await waitFor(() => runUpdates.find((summary) => !summary.planning), { what: "a run-update saying planning ended" });
      expect(last).toMatchObject({ status: "queued", counts: { queued: 12_000 } });
      // No cell changed: the cells added behind the answer were not sent one by one.
      expect(cellUpdates).toEqual([]);
      // ...but each is sent once it changes.
      await db.query("update run_cells set status = 'cancelled', finished_at = now() where run_id = $1 and row_index = 2999", [run.id]);
      await waitFor(() => cellUpdates.length === 4, { what: "the changed cells of the last row" });
      expect(cellUpdates).toEqual([2999, 2999, 2999, 2999]);
    } finally {
      stop.abort();
      await reader.cancel().catch(() => {});
      await reading.catch(() => {});
      await db.query("update runs set status = 'cancelled' where id = $1", [run.id]);
      await db.query("update run_cells set status = 'cancelled' where run_id = $1 and status = 'queued'", [run.id]);
    }
  }, 120_000);

  it("is run to its end by a worker that starts on its first cells: completed only once every cell is in and done", async (context) => {
    if (!test) return context.skip();
    const { db } = test;
    const worker = await startWorker({ db, providers, pollMs: 20 });
    try {
      const run = await createRun({ db, providers }, { userId: userA, input: largeInput(2_600, "worked") });
      expect(run.planning).toBe(true);
      await run.planned;
      const done = await waitFor(
        async () => {
          const summary = await getRun({ db }, { userId: userA, runId: run.id });
          return summary.status === "completed" ? summary : null;
        },
        { timeoutMs: 120_000, intervalMs: 200, what: "the run to complete" },
      );
      expect(done.planning).toBe(false);
      expect(done.cells).toHaveLength(10_400);
      expect(done.counts.ok).toBe(10_400);
      // one cell per row and column, each answered with its own row
      expect(new Set(done.cells.map((cell) => `${cell.row}/${cell.column}`)).size).toBe(10_400);
      expect(done.cells.filter((cell) => !new RegExp(`worked ${cell.row}\\b`).test(String(cell.output)))).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 180_000);

  it("is failed saying so when its planner stops: what finished is kept, what was left is cancelled", async (context) => {
    if (!test) return context.skip();
    const { db } = test;
    const run = await createRun({ db, providers }, { userId: userA, input: largeInput(3_000, "interrupted") });
    await run.planned;
    // As a server killed while it added cells leaves it: still planning, not heard from since.
    await db.query("update run_cells set status = 'ok', finished_at = now() where run_id = $1 and row_index < 10", [run.id]);
    await db.query("update runs set planning = true, updated_at = now() - interval '1 hour' where id = $1", [run.id]);
    expect(await finishInterruptedRuns(db, { staleMs: 60_000, leftovers: false })).toContain(run.id);
    const after = await getRun({ db }, { userId: userA, runId: run.id, outputChars: 1 });
    expect(after).toMatchObject({ status: "failed", planning: false, error: interruptedStreamingRunError });
    expect(after.counts).toMatchObject({ ok: 40, queued: 0, cancelled: 12_000 - 40 });
  }, 120_000);
});
