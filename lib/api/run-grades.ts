import { z } from "zod";

/** Cells GET /api/v1/runs/{id}/grades lists at most; a larger run says so instead of listing them. */
export const MAX_RUN_GRADES = 20_000;

/** GET /api/v1/runs/{id}/grades: each graded cell's model, dataset row, trial and grade, to pair two runs by row. */
export const runGradesSchema = z.strictObject({
  runId: z.string(),
  /** The dataset the run's rows came from; null for a run without one. */
  datasetId: z.string().nullable(),
  /** The run has more than MAX_RUN_GRADES cells: none are listed. */
  tooMany: z.boolean(),
  cells: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      rowIndex: z.number(),
      trial: z.number(),
      /** A person's grade first, 0 for a malformed answer, else the grader's (lib/core/grade-average.ts). */
      grade: z.number(),
    }),
  ),
});

/** What GET /api/v1/runs/{id}/grades answers. */
export type RunGrades = z.infer<typeof runGradesSchema>;
