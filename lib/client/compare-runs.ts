// What changed per model between two runs of a prompt: grade, latency and cost, before -> after.
import type { PromptRunHistoryEntry } from "@/lib/api/types";
import { formatLatency } from "./format-metrics";
import { formatUsd } from "./format-money";

/** One model column of a run in the history, with its averages. */
export type RunModelStats = PromptRunHistoryEntry["models"][number];

/** One model across two runs; a side is null when that run had no column for it. */
export interface ModelChange {
  provider: string;
  model: string;
  /** 1 for the first column of this provider/model in a run, 2 for the second, and so on. */
  occurrence: number;
  before: RunModelStats | null;
  after: RunModelStats | null;
  /** after - before; null when either side has no grades. */
  gradeChange: number | null;
  latencyChangeMs: number | null;
  costChangeUsd: number | null;
}

/**
 * Matches the models of two runs by provider and model; a model in several columns is matched by
 * column order (its first column with the other run's first, and so on). Listed in the later
 * run's column order, then the models only the earlier run had.
 */
export function compareRuns(before: PromptRunHistoryEntry, after: PromptRunHistoryEntry): ModelChange[] {
  const beforeByKey = new Map<string, RunModelStats[]>();
  for (const column of byColumn(before.models)) {
    const key = modelKey(column);
    beforeByKey.set(key, [...(beforeByKey.get(key) ?? []), column]);
  }

  const seen = new Map<string, number>();
  const changes: ModelChange[] = [];
  for (const column of byColumn(after.models)) {
    const key = modelKey(column);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    changes.push(change(column.provider, column.model, occurrence, beforeByKey.get(key)?.[occurrence - 1] ?? null, column));
  }
  for (const [key, columns] of beforeByKey) {
    columns.slice(seen.get(key) ?? 0).forEach((column, index) => {
      changes.push(change(column.provider, column.model, (seen.get(key) ?? 0) + index + 1, column, null));
    });
  }
  return changes;
}

function byColumn(models: RunModelStats[]): RunModelStats[] {
  return [...models].sort((left, right) => left.column - right.column);
}

function modelKey({ provider, model }: { provider: string; model: string }): string {
  return `${provider}\u0000${model}`;
}

function change(
  provider: string,
  model: string,
  occurrence: number,
  before: RunModelStats | null,
  after: RunModelStats | null,
): ModelChange {
  const difference = (read: (stats: RunModelStats) => number | null) => {
    const from = before ? read(before) : null;
    const to = after ? read(after) : null;
    return from === null || to === null ? null : to - from;
  };
  return {
    provider,
    model,
    occurrence,
    before,
    after,
    gradeChange: difference(gradeOf),
    latencyChangeMs: difference((stats) => stats.averageLatencyMs),
    costChangeUsd: difference((stats) => stats.totalCostUsd),
  };
}

/** A column's average grade, or null when none of its cells was graded. */
export function gradeOf(stats: RunModelStats): number | null {
  return stats.gradedCells > 0 ? stats.averageGrade : null;
}

/** Whether a change is good news; lower is better for latency and cost, higher for grades. */
export type ChangeTone = "better" | "worse" | "flat" | "unknown";

/** A change as shown: its text ("+0.12", "−0.05", "—") and whether it is good news. */
export interface FormattedChange {
  text: string;
  tone: ChangeTone;
}

// U+2212, the typographic minus: as wide as "+", so the signed columns line up.
const MINUS = "\u2212";
const NONE = "\u2014";

/** "0.82", or "—" when there is no grade. */
export function formatGrade(grade: number | null): string {
  return grade === null ? NONE : grade.toFixed(2);
}

/** "+0.12" (better), "−0.05" (worse), "0.00" when it rounds to nothing, "—" when unknown. */
export function formatGradeChange(change: number | null): FormattedChange {
  if (change === null || !Number.isFinite(change)) return { text: NONE, tone: "unknown" };
  if (Math.abs(change) < 0.005) return { text: "0.00", tone: "flat" };
  return { text: `${change > 0 ? "+" : MINUS}${Math.abs(change).toFixed(2)}`, tone: change > 0 ? "better" : "worse" };
}

/** "−120 ms" (faster, better), "+1.2 s" (slower, worse), "0 ms", "—". */
export function formatLatencyChange(changeMs: number | null): FormattedChange {
  if (changeMs === null || !Number.isFinite(changeMs)) return { text: NONE, tone: "unknown" };
  if (Math.abs(changeMs) < 0.5) return { text: "0 ms", tone: "flat" };
  return { text: `${changeMs > 0 ? "+" : MINUS}${formatLatency(Math.abs(changeMs))}`, tone: changeMs > 0 ? "worse" : "better" };
}

/** "−$0.0031" (cheaper, better), "+$0.012" (dearer, worse), "$0.00", "—". */
export function formatCostChange(changeUsd: number | null): FormattedChange {
  if (changeUsd === null || !Number.isFinite(changeUsd)) return { text: NONE, tone: "unknown" };
  // Sums of per-cell costs carry float noise (0.1 + 0.2 - 0.3); a millionth of a cent is nothing.
  if (Math.abs(changeUsd) < 1e-8) return { text: "$0.00", tone: "flat" };
  return { text: `${changeUsd > 0 ? "+" : MINUS}${formatUsd(Math.abs(changeUsd))}`, tone: changeUsd > 0 ? "worse" : "better" };
}
