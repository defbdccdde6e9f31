import { z } from "zod";
import { createEvalSchema, evalListQuerySchema, evalListSchema, evalSummarySchema } from "@/lib/api/evals";
import { listEvalRuns } from "@/lib/services/eval-list";
import { createEval } from "@/lib/services/evals";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Runs an eval config (specs/eval-config.md): the config's text and a `files` map of the prompt
 * files it references, keyed by the path as the config writes it; answers 201 with the eval, one
 * cell per prompt x model x test case x trial, run by the workers. A config problem is a 400
 * naming its line; a referenced file missing from `files` is a 400 naming it (the server never
 * reads a path taken from a config).
 */
export const POST = route(
  { body: createEvalSchema, output: z.strictObject({ eval: evalSummarySchema }), status: 201 },
  async ({ caller, body, app }) => createEval(app, { userId: caller.userId, input: body }),
);

/** The caller's eval runs, newest first, a page at a time (?limit=, at most 100, and ?offset=), each with its EvalRuns' pass rates. */
export const GET = route({ query: evalListQuerySchema, output: evalListSchema }, ({ caller, query, app }) =>
  listEvalRuns(app, { userId: caller.userId, limit: query.limit, offset: query.offset }),
);
