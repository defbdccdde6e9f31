import type { MatrixEval } from "@/lib/api/matrix";
import { costText, durationText, tokensText } from "@/lib/formats/matrix/number-text";
import { progressLine } from "@/lib/formats/matrix/progress-line";
import type { MatrixReporter } from "./follow-matrix";

/** Characters of the progress bar between its brackets. */
const BAR_WIDTH = 20;

/** The bar of finished of total: `[========            ]`. */
export function progressBar(finished: number, total: number): string {
  const filled = total === 0 ? BAR_WIDTH : Math.min(BAR_WIDTH, Math.floor((finished / total) * BAR_WIDTH));
  return `[${"=".repeat(filled)}${" ".repeat(BAR_WIDTH - filled)}]`;
}

/** "[OK] v1 + mock/echo + a (run id): 12 input / 30 output tokens, $0.0001, 0.2s" or "[ERROR] ...: why". */
export function finishedLine(item: MatrixEval): string {
  const what = `${item.prompt} + ${item.model} + ${item.input}${item.runId ? ` (${item.runId})` : ""}`;
  if (item.error !== null) return `[ERROR] ${what}: ${item.error.replace(/\s*\n\s*/g, " ")}`;
  const tokens =
    item.tokensInput === null && item.tokensOutput === null
      ? "tokens unknown"
      : `${item.tokensInput === null ? "?" : tokensText(item.tokensInput)} input / ${item.tokensOutput === null ? "?" : tokensText(item.tokensOutput)} output tokens`;
  const duration = item.durationSeconds === null ? "" : `, ${durationText(item.durationSeconds)}`;
  return `[${item.status.toUpperCase()}] ${what}: ${tokens}, ${costText(item.costUsd)}${duration}`;
}

/**
 * Reports to stderr. On a terminal the spec's progress bar: one line rewritten in place, the bar
 * of finished evals and "Running X/Y: {prompt} + {model} + {input}" of the latest to start.
 * Elsewhere (a file, a pipe, CI) one line per eval that starts, so a log reads in order. With
 * verbose, a line per finished eval too.
 */
export function consoleReporter({ terminal, verbose }: { terminal: boolean; verbose: boolean }): MatrixReporter & {
  line(text: string): void;
} {
  let shown = false;
  let finished = 0;
  let latest = "";
  const clear = () => {
    if (shown) process.stderr.write("\r\u001b[2K");
    shown = false;
  };
  const line = (text: string) => {
    clear();
    process.stderr.write(`${text}\n`);
  };
  const redraw = (total: number) => {
    if (!terminal || latest === "") return;
    process.stderr.write(`\r\u001b[2K${progressBar(finished, total)} ${latest}`);
    shown = true;
  };
  return {
    line,
    info: (message) => line(message),
    warning: (message) => line(`[WARNING] ${message}`),
    started: (position, total, item) => {
      const text = progressLine({ position, total, promptVersion: item.prompt, model: item.model, inputId: item.input });
      if (!terminal) {
        line(text);
        return;
      }
      latest = text;
      redraw(total);
    },
    finished: (item, count, total) => {
      finished = count;
      if (verbose) line(finishedLine(item));
      redraw(total);
    },
    done: clear,
  };
}
