import type { RunSummary } from "@/lib/api/types";
import { finishedRunStatuses } from "@/lib/api/types";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getRunSummary, listCellChanges } from "@/lib/db/runs/get-run";
import type { NotificationHub } from "./notification-hub";

const pageSize = 500;
// A notice can be lost (a dropped LISTEN connection); re-reading this often bounds the delay.
const safetyPollMs = 2_000;
const heartbeatMs = 15_000;

/**
 * Server-Sent Events for one run: `cell-update` (id = the cell's seq) for every cell changed
 * after afterSeq, `run-update` when the run's status or counts change, and `run-end` once the run
 * is over and every change has been sent; then the stream ends. Notices only wake the reader;
 * what is sent is always read from the database by cursor, so nothing is skipped or reordered.
 */
export function createRunEventStream(input: {
  db: Database;
  notifications: NotificationHub;
  userId: string;
  runId: string;
  afterSeq: number;
  signal: AbortSignal;
}): ReadableStream<Uint8Array> {
  const { db, notifications, userId, runId, signal } = input;
  const encoder = new TextEncoder();
  let cursor = input.afterSeq;
  let wake: (() => void) | null = null;
  let dirty = true;

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      const unsubscribe = notifications.subscribe(runId, () => {
        dirty = true;
        wake?.();
      });
      const heartbeat = setInterval(() => send(": ping\n\n"), heartbeatMs);
      const onAbort = () => wake?.();
      signal.addEventListener("abort", onAbort);
      let lastSummary = "";
      try {
        send("retry: 1000\n\n");
        while (!signal.aborted) {
          dirty = false;
          const { cells, summary } = await asUser(db, userId, async (tx) => ({
            cells: await listCellChanges(tx, { runId, afterSeq: cursor, limit: pageSize }),
            summary: await getRunSummary(tx, { id: runId }),
          }));
          if (!summary) {
            send(`event: error\ndata: ${JSON.stringify({ message: `Run ${runId} not found.` })}\n\n`);
            break;
          }
          for (const cell of cells) {
            send(`event: cell-update\nid: ${cell.seq}\ndata: ${JSON.stringify(cell)}\n\n`);
            cursor = cell.seq;
          }
          if (cells.length === pageSize) continue;
          const summaryText = JSON.stringify(summary);
          if (summaryText !== lastSummary) {
            lastSummary = summaryText;
            send(`event: run-update\ndata: ${summaryText}\n\n`);
          }
          if (isOver(summary)) {
            send(`event: run-end\ndata: ${summaryText}\n\n`);
            break;
          }
          if (!dirty) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, safetyPollMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
        }
      } catch (error) {
        if (!signal.aborted) send(`event: error\ndata: ${JSON.stringify({ message: (error as Error).message })}\n\n`);
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
        signal.removeEventListener("abort", onAbort);
        try {
          controller.close();
        } catch {
          // the client went away first
        }
      }
    },
  });
}

function isOver(summary: RunSummary): boolean {
  return finishedRunStatuses.includes(summary.status) && summary.counts.running === 0;
}
