import { runGradesSchema } from "@/lib/api/run-grades";
import { idParams } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { getRunGrades } from "@/lib/services/run-grades";

export const dynamic = "force-dynamic";

/** Each graded cell of the run by model, dataset row and trial: what the history pairs two runs by. */
export const GET = route({ params: idParams("run"), output: runGradesSchema }, ({ caller, params, app }) =>
  getRunGrades(app, { userId: caller.userId, runId: params.id }),
);
