import { createMatrixOutputSchema, createMatrixSchema, listMatrixQuerySchema, matrixListSchema } from "@/lib/api/matrix";
import { createMatrix, listMatrices } from "@/lib/services/matrix";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Runs a matrix (specs/matrix-comparisons.md): every prompt version (files as texts, or a saved
 * prompt as name@vN), model and input, or the subset asked for; answers 201 with the run, one
 * eval per prompt version x model x input, run by the workers 3 at a time by default. With
 * dryRun=true it answers 200 with the plan and estimate and stores nothing. A placeholder no
 * input fills, an unknown name in a subset and a model no provider serves are 400s.
 */
export const POST = route({ body: createMatrixSchema, output: createMatrixOutputSchema, status: 201 }, async ({ caller, body, app }) => {
  const answer = await createMatrix(app, { userId: caller.userId, input: body });
  // A plan creates nothing: 200, not 201.
  return "dryRun" in answer ? Response.json(createMatrixOutputSchema.parse(answer), { status: 200 }) : answer;
});

/** The caller's matrices, newest first (?limit=, 20 by default), or with ?batchId= the one of that batch. */
export const GET = route({ query: listMatrixQuerySchema, output: matrixListSchema }, ({ caller, query, app }) =>
  listMatrices(app, { userId: caller.userId, batchId: query.batchId ?? null, limit: query.limit }),
);
