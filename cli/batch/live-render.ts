/**
 * The live status view as plain lines (pure): the summary panel (status, elapsed, throughput,
 * estimated and actual cost, budget remaining), the jobs counted by status with a progress bar of
 * '#' and '.', the table of running and latest jobs, and the keys. Words carry every meaning (no
 * colour); each line fits `width` (80 is the design width).
 */
import { usd } from "@/lib/core/batch/dry-run";
import { clip, clock } from "./builder/fit-text";
import { hasEnded, type LiveViewState } from "./live-view";

const STATUS_WORDS: Record<string, string> = {
  pending: "queued",
  running: "running",
  success: "success",
  failed: "failed",
  skipped: "skipped",
};

function table(rows: string[][], width: number): string[] {
  // Job, prompt, provider, model, status, seconds: the model column takes what is left.
  const fixed = [8, 6, 8, 0, 7, 7];
  const widths = fixed.map((w, i) => (i === 3 ? 0 : Math.max(w, ...rows.map((r) => Math.min(r[i].length, 12)))));
  const gaps = 2 * (widths.length - 1);
  const longestModel = Math.max(...rows.map((r) => r[3].length));
  widths[3] = Math.max(8, Math.min(longestModel, width - gaps - widths.reduce((a, b) => a + b, 0)));
  return rows.map((cells) =>
    cells
      .map((cell, i) => (i === 5 ? cell.padStart(widths[i]) : clip(cell, widths[i]).padEnd(widths[i])))
      .join("  ")
      .trimEnd(),
  );
}

/** The view's lines for this state at this width; `rowsShown` bounds the table. */
export function renderLive(state: LiveViewState, width = 80, rowsShown = 8): string[] {
  const s = state.snapshot;
  if (!s) return [clip("Batch run: starting...", width)];
  const c = s.counts;
  const done = c.success + c.failed + c.skipped;
  const lines: string[] = [];
  const title = `Batch run ${s.runId}: ${s.status}`;
  const elapsed = `elapsed ${clock(s.elapsedSeconds)}`;
  lines.push(
    title.length + elapsed.length + 2 <= width
      ? title + " ".repeat(width - title.length - elapsed.length) + elapsed
      : clip(`${title}, ${elapsed}`, width),
  );
  lines.push(
    clip(
      `Jobs ${c.total}: ${c.pending} queued, ${c.running} running, ${c.success} success, ${c.failed} failed, ${c.skipped} skipped`,
      width,
    ),
  );
  const barWidth = Math.max(10, Math.min(40, width - 30));
  const filled = c.total === 0 ? 0 : Math.round((done / c.total) * barWidth);
  const percent = c.total === 0 ? 0 : Math.floor((done / c.total) * 100);
  lines.push(clip(`Progress [${"#".repeat(filled)}${".".repeat(barWidth - filled)}] ${done}/${c.total} done (${percent}%)`, width));
  lines.push(
    clip(
      `Throughput ${s.jobsPerMinute === null ? "-" : `${s.jobsPerMinute.toFixed(1)} jobs/min`}, ` +
        `estimated cost ${usd(s.estimatedCostUsd)}, actual cost ${s.actualCostUsd === null ? "not reported" : usd(s.actualCostUsd)}`,
      width,
    ),
  );
  lines.push(
    clip(
      s.budgetUsd === null || s.budgetRemainingUsd === null
        ? "Budget remaining: no budget set"
        : `Budget remaining ${usd(s.budgetRemainingUsd)} of ${usd(s.budgetUsd)}`,
      width,
    ),
  );
  lines.push("");
  const rows = s.rows
    .slice(0, rowsShown)
    .map((r) => [
      r.jobId,
      r.promptId,
      r.provider,
      r.model,
      STATUS_WORDS[r.status] ?? r.status,
      r.seconds === null ? "-" : r.seconds.toFixed(1),
    ]);
  if (rows.length === 0) lines.push("No job has started yet.");
  else lines.push(...table([["Job", "Prompt", "Provider", "Model", "Status", "Seconds"], ...rows], width));
  lines.push("");
  if (state.note) lines.push(clip(state.note, width));
  if (hasEnded(state)) {
    lines.push(clip(`Run ${s.status}: ${c.success} success, ${c.failed} failed, ${c.skipped} skipped.`, width));
  } else if (state.askStop) {
    lines.push(clip("Stop the run? No new job starts; running jobs finish and every output is kept.", width));
    lines.push(clip("y: stop (the run ends as cancelled), n: keep running", width));
  } else if (!state.stopping) {
    lines.push(clip(s.status === "paused" ? "Keys: r resume, s stop" : "Keys: p pause, s stop", width));
  }
  // A terminal narrower than the table cuts its rows rather than wrapping them (the redraw counts lines).
  return lines.map((line) => clip(line, width));
}
