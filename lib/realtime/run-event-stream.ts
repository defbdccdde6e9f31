import type { RunSummary } from "@/lib/api/types";
import { finishedRunStatuses } from "@/lib/api/types";
import { readAsUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { readRunChanges } from "@/lib/db/cells/list-cell-changes";
import { readColumnModels, type ColumnModels } from "@/lib/db/cells/column-warnings";
import { getRunSummary } from "@/lib/db/runs/get-run-summary";
import type { NotificationHub } from "./notification-hub";

const pageSize = 500;
/** What a client is told when reading the run fails; the error itself goes to the server log. */
export const streamFailedMessage =
  "Reading this run's changes failed on the server; the view reconnects and resumes where it stopped. The server log has the details.";
// A notice can be lost (a dropped LISTEN connection); re-reading this often bounds the delay.
const safetyPollMs = 2_000;
const heartbeatMs = 15_000;
// A busy run changes hundreds of cells a second, each with a notice. Reading at most this often
// sends them in batches and leaves the database to the worker; a browser applies updates once per
// frame anyway. 100 ms put a finished cell on the page 250 ms (p95) after its save at 64 wide on
// PGlite; 40 ms, 172 ms, with the run no slower (bench/README.md, "Claiming ahead"). A change of
// the run's status (paused, resumed, over) is read at once: a follower waiting for run-end (the
// CLI, a script) heard of a run's end up to this much later.
const minReadIntervalMs = 40;
// The run's summary aggregates over all its cells: read it at most this often while cells stream.
const summaryIntervalMs = 1_000;

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
  /** Cut each cell's output to this many characters (cells say outputTruncated); null: all of it. */
  outputChars?: number | null;
  signal: AbortSignal;
  /** Called once when the stream has ended, whichever way (run over, error, client gone). */
  onClose?: () => void;
  /** The least time between two reads while cells change (the tests lengthen it). */
  minReadIntervalMs?: number;
}): ReadableStream<Uint8Array> {
  const { db, notifications, userId, runId } = input;
  // The client going away (the request's signal) or the body being cancelled both end the loop.
  const cancelled = new AbortController();
  const signal = AbortSignal.any([input.signal, cancelled.signal]);
  const encoder = new TextEncoder();
  let cursor = input.afterSeq;
  let wake: (() => void) | null = null;
  let dirty = true;
  // The run's status changed since the last read: the next one does not wait for its interval.
  let urgent = false;
  let hurry: (() => void) | null = null;
  const readInterval = input.minReadIntervalMs ?? minReadIntervalMs;
  // The run's columns never change: their models (which spell out the cells' column warnings)
  // are read once, when a cell first has such a warning (again after a failed read).
  let columnModels: Promise<ColumnModels> | null = null;
  const models = () =>
    (columnModels ??= readAsUser(db, userId, (tx) => readColumnModels(tx, runId)).catch((error: unknown) => {
      columnModels = null;
      throw error;
    }));

  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      const unsubscribe = notifications.subscribe(runId, (notice) => {
        dirty = true;
        if (notice.kind === "run") {
          urgent = true;
          hurry?.();
        }
        wake?.();
      });
      const heartbeat = setInterval(() => send(": ping\n\n"), heartbeatMs);
      const onAbort = () => wake?.();
      signal.addEventListener("abort", onAbort);
      let lastSummary = "";
      let lastState: string | null = null;
      let summaryReadAt = 0;
      // Cells were sent since the summary was last read: it is read once its interval is up.
      let summaryOwed = false;
      let readAt = 0;
      try {
        send("retry: 1000\n\n");
        while (!signal.aborted) {
          const sinceRead = Date.now() - readAt;
          if (sinceRead < readInterval && !urgent) {
            await abortableDelay(readInterval - sinceRead, signal, (cut) => (hurry = cut));
            hurry = null;
          }
          readAt = Date.now();
          dirty = false;
          urgent = false;
          // The new cells and the run's status in one statement (readAsUser: on PGlite the
          // worker's saves and claims do not wait on this thread's turns).
          const { cells, state } = await readAsUser(db, userId, (tx) =>
            readRunChanges(tx, { runId, afterSeq: cursor, limit: pageSize, outputChars: input.outputChars ?? null, models }),
          );
          const status = state?.status ?? null;
          // The summary aggregates over all the run's cells: while cells stream it is read at most
          // once per interval, but at once when the run's status changed (paused, resumed, over:
          // run-end comes with the run's last cells, which a status read with them saw) or the last
          // of its cells are in (planning ended). A read that
          // found nothing new (a notice of a change already sent) reads no summary either: nothing
          // it counts has changed. A full page is followed at once by the next.
          const due = Date.now() - summaryReadAt >= summaryIntervalMs;
          // Cells of a run that is over are its last calls ending: one of them may end it.
          const ending = status !== null && cells.length > 0 && finishedRunStatuses.includes(status);
          const wanted: boolean =
            cells.length < pageSize &&
            (state === null || stateKey(state) !== lastState || ending || (due && (summaryOwed || cells.length > 0)));
          const summary: RunSummary | null | undefined = wanted
            ? await readAsUser(db, userId, (tx) => getRunSummary(tx, { id: runId }))
            : undefined;
          if (summary === null) {
            send(`event: error\ndata: ${JSON.stringify({ message: `Run ${runId} not found.` })}\n\n`);
            break;
          }
          // What one read found goes out as one chunk: one write for the server and one network
          // read for a browser, where a chunk per cell cost a task each on the page's main thread.
          let out = "";
          for (const cell of cells) {
            out += `event: cell-update\nid: ${cell.seq}\ndata: ${JSON.stringify(cell)}\n\n`;
            cursor = cell.seq;
          }
          if (summary === undefined) {
            if (cells.length > 0) summaryOwed = true;
          } else {
            summaryReadAt = Date.now();
            summaryOwed = false;
            lastState = stateKey(summary);
            const summaryText = JSON.stringify(summary);
            if (summaryText !== lastSummary) {
              lastSummary = summaryText;
              out += `event: run-update\ndata: ${summaryText}\n\n`;
            }
            if (isOver(summary)) {
              send(`${out}event: run-end\ndata: ${summaryText}\n\n`);
              break;
            }
          }
          if (out) send(out);
          if (cells.length === pageSize || dirty) continue;
          // Until the next notice, or until the summary owed is due.
          const waitMs = summaryOwed ? Math.max(0, summaryIntervalMs - (Date.now() - summaryReadAt)) : safetyPollMs;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, waitMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = null;
        }
      } catch (error) {
        // The detail (a database error, a connection string) is for the server's log; the client
        // learns only that reading failed, and reconnects from its cursor.
        if (!signal.aborted) {
          console.error(`[parallaxr events] reading run ${runId} failed`, error);
          send(`event: error\ndata: ${JSON.stringify({ message: streamFailedMessage })}\n\n`);
        }
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
        signal.removeEventListener("abort", onAbort);
        try {
          controller.close();
        } catch {
          // the client went away first
        }
        input.onClose?.();
      }
    },
    cancel() {
      cancelled.abort();
    },
  });
}

/** Waits ms, or less if the signal aborts or the function handed to onCut is called. */
function abortableDelay(ms: number, signal: AbortSignal, onCut: (cut: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
    onCut(done);
  });
}

function stateKey({ status, planning }: { status: string; planning: boolean }): string {
  return planning ? `${status}, planning` : status;
}

function isOver(summary: RunSummary): boolean {
  return finishedRunStatuses.includes(summary.status) && summary.counts.running === 0;
}
