// Which two runs the history compares: the newest two at first, then the person's picks.
import type { PromptRunHistoryEntry } from "@/lib/api/types";

/** The ids of the newest two runs (the list is newest first); fewer when there are fewer runs. */
export function defaultSelection(runs: PromptRunHistoryEntry[]): string[] {
  return runs.slice(0, 2).map((run) => run.id);
}

/** Ticks or unticks a run; ticking a third drops the one picked longest ago, so two stay ticked. */
export function toggleSelection(selected: string[], id: string): string[] {
  if (selected.includes(id)) return selected.filter((other) => other !== id);
  return [...selected, id].slice(-2);
}

/** The two picked runs as [earlier, later] by start time, or null unless exactly two are picked. */
export function selectedPair(runs: PromptRunHistoryEntry[], selected: string[]): [PromptRunHistoryEntry, PromptRunHistoryEntry] | null {
  const picked = runs.filter((run) => selected.includes(run.id));
  if (picked.length !== 2) return null;
  const [first, second] = picked;
  return Date.parse(first.createdAt) <= Date.parse(second.createdAt) ? [first, second] : [second, first];
}
