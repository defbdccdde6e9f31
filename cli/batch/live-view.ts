/**
 * The live status view of a batch run as data: the latest snapshot, the stop question, and what
 * each key asks of the run (pure; live-status.ts wires it to a terminal and the run). Keys: p
 * pause, r resume, s (or q, Esc, Ctrl-C) stop, which asks first: y or Enter stops, n or Esc keeps
 * running. Stopping sets the run `cancelled` and keeps every output.
 */
import type { Key } from "./builder/keys";
import type { LiveSnapshot } from "./live-snapshot";

export type LiveAction = "pause" | "resume" | "stop";

export interface LiveViewState {
  snapshot: LiveSnapshot | null;
  /** The stop question is showing. */
  askStop: boolean;
  /** The last thing asked of the run and not yet seen in a snapshot ("Pausing...", "Stopping..."), or a failure. */
  note: string | null;
  /** Stop was confirmed; keys other than none do nothing more. */
  stopping: boolean;
}

export const initialLiveView = (): LiveViewState => ({ snapshot: null, askStop: false, note: null, stopping: false });

const ENDED = new Set(["completed", "cancelled", "failed"]);
export const hasEnded = (state: LiveViewState) => state.snapshot !== null && ENDED.has(state.snapshot.status);

/** A new snapshot: a note is dropped once the run shows what it announced. */
export function receiveSnapshot(state: LiveViewState, snapshot: LiveSnapshot): LiveViewState {
  let note = state.note;
  if (note === "Pausing..." && snapshot.status === "paused") note = null;
  if (note === "Resuming..." && snapshot.status === "running") note = null;
  if (ENDED.has(snapshot.status)) note = null;
  return { ...state, snapshot, note, askStop: ENDED.has(snapshot.status) ? false : state.askStop };
}

/** What one key does: the view's next state and what to ask of the run, if anything. */
export function liveKey(state: LiveViewState, key: Key): { state: LiveViewState; action: LiveAction | null } {
  const none = { state, action: null };
  if (hasEnded(state) || state.stopping) return none;
  const char = key.name === "char" ? key.char.toLowerCase() : null;
  if (state.askStop) {
    if (key.name === "enter" || key.name === "ctrl-c" || char === "y") {
      return {
        state: { ...state, askStop: false, stopping: true, note: "Stopping: no new job starts, running jobs finish..." },
        action: "stop",
      };
    }
    if (key.name === "escape" || char === "n") return { state: { ...state, askStop: false }, action: null };
    return none;
  }
  if (char === "s" || char === "q" || key.name === "escape" || key.name === "ctrl-c")
    return { state: { ...state, askStop: true }, action: null };
  const status = state.snapshot?.status;
  if (char === "p" && status !== "paused") return { state: { ...state, note: "Pausing..." }, action: "pause" };
  if (char === "r" && status === "paused") return { state: { ...state, note: "Resuming..." }, action: "resume" };
  return none;
}

/** A request the run refused: said in the view, the run goes on as it was. */
export function actionFailed(state: LiveViewState, action: LiveAction, error: unknown): LiveViewState {
  const message = error instanceof Error ? error.message : String(error);
  return { ...state, stopping: action === "stop" ? false : state.stopping, note: `Could not ${action} the run: ${message}` };
}
