import { matrixDetailSchema } from "@/lib/api/matrix";
import { idParams } from "@/lib/api/schemas";
import { getMatrix } from "@/lib/services/matrix";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One matrix run: its plan and progress, every eval of its prompts x models x inputs grid, and its comparisons' names. */
export const GET = route({ params: idParams("matrix"), output: matrixDetailSchema }, ({ caller, params, app }) =>
  getMatrix(app, { userId: caller.userId, matrixId: params.id }),
);
