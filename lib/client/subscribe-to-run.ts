// The one way the UI follows a run live. Today it reads the Server-Sent Events stream of
// /api/v1/runs/{id}/events; with Supabase configured it will read Realtime instead, behind
// the same signature.
import { PREVIEW_CHARS } from "@/lib/client/api";
import type { Cell, RunSummary } from "@/lib/client/run-types";

/** How the live connection is doing, for a small indicator in the UI. */
export type ConnectionState = "connecting" | "open" | "reconnecting";

/** What a subscriber is told about a run. */
export type RunSubscriptionHandlers = {
  onCell(cell: Cell): void;
  onRun(run: RunSummary): void;
  /** Called once when the run has completed, been cancelled or failed; no events follow. */
  onEnd(run: RunSummary): void;
  onConnectionChange?(state: ConnectionState): void;
};

// EventSource retries by itself after a dropped connection (sending Last-Event-ID), but gives up
// for good on an error status such as a 502 from a proxy while the server restarts. Then we open
// a new one ourselves, backing off up to this long between attempts.
const MAX_REOPEN_DELAY_MS = 10_000;

function parse<T>(event: MessageEvent): T | null {
  try {
    return JSON.parse(event.data as string) as T;
  } catch {
    return null;
  }
}

/**
 * Follows a run's cell and run updates until it ends; returns a function that stops following.
 * afterSeq: the changes already known (the snapshot's highest cell seq), so they are not sent again.
 */
export function subscribeToRun(runId: string, handlers: RunSubscriptionHandlers, afterSeq = 0): () => void {
  let source: EventSource | null = null;
  // The last change received: a reopened connection resumes after it.
  let cursor = afterSeq;
  let stopped = false;
  let reopenTimer: ReturnType<typeof setTimeout> | null = null;
  let reopenDelay = 500;

  const close = () => {
    stopped = true;
    if (reopenTimer) clearTimeout(reopenTimer);
    source?.close();
    source = null;
  };

  const open = () => {
    if (stopped) return;
    handlers.onConnectionChange?.("connecting");
    const current = new EventSource(`/api/v1/runs/${encodeURIComponent(runId)}/events?after=${cursor}&outputChars=${PREVIEW_CHARS}`);
    source = current;

    current.onopen = () => {
      reopenDelay = 500;
      handlers.onConnectionChange?.("open");
    };
    current.addEventListener("cell-update", (event) => {
      const cell = parse<Cell>(event as MessageEvent);
      if (!cell) return;
      cursor = Math.max(cursor, cell.seq);
      handlers.onCell(cell);
    });
    current.addEventListener("run-update", (event) => {
      const run = parse<RunSummary>(event as MessageEvent);
      if (run) handlers.onRun(run);
    });
    current.addEventListener("run-end", (event) => {
      const run = parse<RunSummary>(event as MessageEvent);
      // Close before the server does, or EventSource would reconnect to a finished stream.
      close();
      if (run) handlers.onEnd(run);
    });
    current.onerror = () => {
      if (stopped) return;
      handlers.onConnectionChange?.("reconnecting");
      if (current.readyState !== EventSource.CLOSED) return; // the browser is retrying by itself
      reopenTimer = setTimeout(open, reopenDelay);
      reopenDelay = Math.min(reopenDelay * 2, MAX_REOPEN_DELAY_MS);
    };
  };

  open();
  return close;
}
