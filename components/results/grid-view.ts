import type { GradeMode } from "@/lib/client/column-summary";
import type { GridDensity, MetricView } from "@/lib/client/workbench-types";

/** What every cell of the grid needs to know about the view; one object so rows memoize on it. */
export type GridView = {
  metric: MetricView;
  gradeMode: GradeMode;
  /** Re-run buttons show only while the run is active. */
  runActive: boolean;
  /** A past run: no re-run, no grading by hand. */
  readOnly: boolean;
  /** The run on screen, for the cell API calls; null before any run. */
  runId: string | null;
  /** Cards, or one line per cell. */
  density: GridDensity;
};
