// How the history and the compare view say who graded a run: grades from different judges do not compare.
import type { PromptRunHistoryEntry } from "@/lib/api/types";

/**
 * "graded by judge / strict (Quality grader)"; "graded by each column's own model" for a run from
 * before one model graded them all; "graded by hand" without a grader.
 */
export function describeGrading(run: Pick<PromptRunHistoryEntry, "graderName" | "graderModel">): string {
  if (run.graderName === null) return "graded by hand";
  const by = run.graderModel ? `${run.graderModel.provider} / ${run.graderModel.model}` : "each column's own model";
  return `graded by ${by} (${run.graderName})`;
}
