import { matrixComparisonParamsSchema } from "@/lib/api/matrix";
import { matrixComparison } from "@/lib/services/matrix";
import { fileResponse, route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/matrix/{id}/comparisons/{name}.md: one comparison of the batch in the spec's
 * format (name is its folder, `{batch ts}_prompt_{input}_{model}` or `{batch ts}_model_{input}_{prompt}`),
 * or index.md. The name is matched against the batch's comparisons, never read as a path.
 */
export const GET = route({ params: matrixComparisonParamsSchema }, async ({ caller, params, app }) => {
  const file = await matrixComparison(app, { userId: caller.userId, matrixId: params.id, name: params.name.replace(/\.md$/, "") });
  return fileResponse(file.text, { filename: file.filename, contentType: file.contentType });
});
