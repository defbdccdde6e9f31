/** What decides whether Run may start: the parts of the workbench's state that can block it. */
export type RunGateState = {
  /** An earlier run opened from history is on screen. */
  readOnly: boolean;
  /** The prompts, dataset and columns are still loading. */
  loading: boolean;
  columnCount: number;
  /** The run on screen is queued, running or paused. */
  runActive: boolean;
  /** The run on screen is paused (still active: it holds the prompt's one run until resumed or cancelled). */
  runPaused?: boolean;
};

/**
 * Why Run may not start now, in the words of the Run button's tooltip, or null when it may.
 * Until the dataset and columns have loaded, a run would be checked against none of them, so
 * loading blocks it like the rest.
 */
export function runGate({ readOnly, loading, columnCount, runActive, runPaused = false }: RunGateState): string | null {
  if (readOnly) return "This is an earlier run, shown read-only";
  if (loading) return "The workbench is still loading";
  if (columnCount === 0) return "Add a model first";
  if (runActive && runPaused) return "The run is paused: resume or cancel it to start another";
  if (runActive) return "A run is active: one run at a time";
  return null;
}
