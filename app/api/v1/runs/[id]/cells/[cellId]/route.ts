import { cellSchema, manualGradeSchema } from "@/lib/api/responses";
import { gradeCellSchema, runCellParamsSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { getRunCell, gradeCell } from "@/lib/services/runs";

export const dynamic = "force-dynamic";

const params = runCellParamsSchema;

/** One cell with its whole output (a run read with ?outputChars= carries only the start of each). */
export const GET = route({ params, output: cellSchema }, ({ caller, params, app }) =>
  getRunCell(app, { userId: caller.userId, runId: params.id, cellId: params.cellId }),
);

/** Sets a person's grade of a cell: {"manualGrade": 1 | 0 | null}; it overrides the grader's. */
export const PATCH = route({ params, body: gradeCellSchema, output: manualGradeSchema }, ({ caller, params, body, app }) =>
  gradeCell(app, { userId: caller.userId, runId: params.id, cellId: params.cellId, grade: body.manualGrade }),
);
