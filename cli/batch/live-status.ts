/**
 * `createLiveStatus`: the live status table and summary panel of a batch run in a terminal
 * (spec: image-batch-runs.md, "During Run"), redrawn in place on each snapshot, with keys for
 * pause (p), resume (r) and stop (s, which asks first). The caller feeds snapshots (from getBatch,
 * see live-snapshot.ts) and does what the handlers are asked; the view only draws and listens.
 * The last drawing stays on the screen after close, so the scrollback keeps the run's end.
 */
import { emitKeypressEvents } from "node:readline";
import { keyFromKeypress, type KeypressInfo } from "./builder/keys";
import type { LiveSnapshot } from "./live-snapshot";
import { renderLive } from "./live-render";
import { actionFailed, initialLiveView, liveKey, receiveSnapshot, type LiveAction, type LiveViewState } from "./live-view";

export interface LiveStatusIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
}

/** What the keys ask of the run; a rejected promise is shown in the view as a failure. */
export interface LiveStatusHandlers {
  onPause(): void | Promise<void>;
  onResume(): void | Promise<void>;
  /** Stop was asked and confirmed: set the run `cancelled`, keep its outputs. */
  onStop(): void | Promise<void>;
}

export interface LiveStatus {
  update(snapshot: LiveSnapshot): void;
  /** Draws the last state once more, gives the terminal back (keys, cursor). */
  close(): void;
}

const ESC = "\u001b[";

export function createLiveStatus(io: LiveStatusIo, handlers: LiveStatusHandlers): LiveStatus {
  const { input, output } = io;
  let state: LiveViewState = initialLiveView();
  let drawn = 0;
  let closed = false;
  const keys = input.isTTY === true;
  const wasRaw = keys ? input.isRaw : false;

  const draw = () => {
    const width = Math.max(40, output.columns || 80);
    const rows = output.rows || 24;
    // Summary (5 lines), gaps, table header and keys take 12 lines; the table gets the rest, up to 8.
    const lines = renderLive(state, width, Math.max(1, Math.min(8, rows - 12)));
    let text = drawn > 0 ? `${ESC}${drawn}A\r` : "";
    text += `${ESC}J${lines.map((line) => `${line}\n`).join("")}`;
    drawn = lines.length;
    output.write(text);
  };

  const ask = (action: LiveAction) => {
    const handler = action === "pause" ? handlers.onPause : action === "resume" ? handlers.onResume : handlers.onStop;
    Promise.resolve()
      .then(() => handler())
      .catch((error: unknown) => {
        state = actionFailed(state, action, error);
        if (!closed) draw();
      });
  };

  const onKey = (str: string | undefined, info: KeypressInfo | undefined) => {
    const key = keyFromKeypress(str, info);
    if (!key || closed) return;
    const result = liveKey(state, key);
    state = result.state;
    draw();
    if (result.action) ask(result.action);
  };

  if (keys) {
    emitKeypressEvents(input);
    input.setRawMode(true);
    input.on("keypress", onKey);
    input.resume();
  }
  output.write(`${ESC}?25l`);
  draw();

  return {
    update(snapshot) {
      if (closed) return;
      state = receiveSnapshot(state, snapshot);
      draw();
    },
    close() {
      if (closed) return;
      draw();
      closed = true;
      if (keys) {
        input.off("keypress", onKey);
        input.setRawMode(wasRaw);
        input.pause();
      }
      output.write(`${ESC}?25h`);
    },
  };
}
