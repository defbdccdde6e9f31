// The figures of one matrix eval as the grid and its dialog show them: an unpriced cost is
// "unknown", never $0, and a figure not known yet is a dash.
import type { MatrixEval } from "@/lib/api/matrix";
import { formatUsd } from "@/lib/client/format-money";

/** "12,500 in / 850 out", or "–" before the eval counted any. */
export function tokensText(item: Pick<MatrixEval, "tokensInput" | "tokensOutput">): string {
  if (item.tokensInput === null && item.tokensOutput === null) return "–";
  const count = (value: number | null) => (value === null ? "?" : value.toLocaleString("en-US"));
  return `${count(item.tokensInput)} in / ${count(item.tokensOutput)} out`;
}

/** The cost: "$0.0098"; "unknown" when tokens were counted but the model has no price; "–" when nothing was counted (not finished, or failed before an answer). */
export function costText(item: Pick<MatrixEval, "costUsd" | "tokensInput" | "tokensOutput">): string {
  if (item.costUsd !== null) return formatUsd(item.costUsd);
  return item.tokensInput === null && item.tokensOutput === null ? "–" : "unknown";
}

/** "4.2 s", or "–". */
export function durationText(seconds: number | null): string {
  return seconds === null ? "–" : `${seconds.toFixed(1)} s`;
}

/** A grade from 0 to 1 as "0.70", or null when the eval has none. */
export function gradeText(grade: number | null): string | null {
  return grade === null ? null : grade.toFixed(2);
}
