import { cellSchema, manualGradeSchema } from "@/lib/api/responses";
import { gradeCellSchema, runCellParamsSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { setManualGrade } from "@/lib/db/runs/run-lifecycle";
import { getRunCell } from "@/lib/engine/run-service";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = runCellParamsSchema;

/** One cell with its whole output (a run read with ?outputChars= carries only the start of each). */
export const GET = route({ params, output: cellSchema }, ({ caller, params, app }) =>
  getRunCell(app, { userId: caller.userId, runId: params.id, cellId: params.cellId }),
);

/** Sets a person's grade of a cell: {"manualGrade": 1 | 0 | null}; it overrides the grader's. */
export const PATCH = route({ params, body: gradeCellSchema, output: manualGradeSchema }, async ({ caller, params, body, app }) => {
  const saved = await asUser(app.db, caller.userId, (tx) =>
    setManualGrade(tx, { runId: params.id, cellId: params.cellId, grade: body.manualGrade }),
  );
  if (!saved) throw new HttpError("not_found", `Cell ${params.cellId} of run ${params.id} not found.`);
  return { manualGrade: body.manualGrade };
});
