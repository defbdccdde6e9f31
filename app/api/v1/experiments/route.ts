import {
  createExperimentSchema,
  experimentListQuerySchema,
  experimentListSchema,
  experimentPlanSchema,
  experimentSummarySchema,
} from "@/lib/api/experiments";
import { z } from "zod";
import { createExperiment, listExperiments } from "@/lib/services/experiments";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Runs an experiments CSV (specs/experiments-cli.md): the prompt file, context files and the
 * experiments CSV as `{name, text}`; answers 201 with the experiment, one row per CSV line, run
 * by the workers. `dryRun: true` answers 200 with the plan instead. A CSV that cannot be read is a
 * 400 naming the file, line and column.
 */
export const POST = route(
  {
    body: createExperimentSchema,
    output: z.union([z.strictObject({ experiment: experimentSummarySchema }), z.strictObject({ plan: experimentPlanSchema })]),
    status: 201,
  },
  async ({ caller, body, app }) => createExperiment(app, { userId: caller.userId, input: body }),
);

/** The caller's experiment runs, newest first; `?inputHash=` only those made from the same files and options. */
export const GET = route({ query: experimentListQuerySchema, output: experimentListSchema }, ({ caller, query, app }) =>
  listExperiments(app, { userId: caller.userId, limit: query.limit, inputHash: query.inputHash ?? null }),
);
