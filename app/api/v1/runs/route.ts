import { createRunResponseSchema } from "@/lib/api/responses";
import { createRunQuerySchema, createRunSchema } from "@/lib/api/schemas";
import { createRun, estimateRun } from "@/lib/services/runs";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Creates a run and queues its cells: 201 with the run and its plan. With ?dryRun=true nothing
 * is created: 200 with the plan (cells, estimated tokens and cost per model, unpriced models).
 */
export const POST = route(
  { body: createRunSchema, query: createRunQuerySchema, output: createRunResponseSchema, status: (query) => (query.dryRun ? 200 : 201) },
  async ({ caller, body, query, app }) => {
    if (query.dryRun) return { dryRun: true as const, plan: await estimateRun(app, { userId: caller.userId, input: body }) };
    // The rest of a large run's cells are added behind the answer (run.planning says so).
    const { planned: _planned, ...run } = await createRun(app, { userId: caller.userId, input: body });
    return { ...run, cells: [] };
  },
);
