import { z } from "zod";
import { evalRunSchema } from "./evals";

// The lookup behind `parallaxr eval run --baseline RUN_ID`: an earlier EvalRun found by its run_id.

/** Path parameters of GET /api/v1/evals/runs/{runId}: an EvalRun's 8-hex run_id. */
export const evalRunParamsSchema = z.strictObject({
  runId: z.string().regex(/^[0-9a-f]{8}$/, "runId is an EvalRun's run_id, 8 hex characters (as in its export's file name)"),
});

/** GET /api/v1/evals/runs/{runId}: the EvalRun and the eval run it belongs to. */
export const evalBaselineSchema = z.strictObject({ evalId: z.uuid(), run: evalRunSchema });
export type EvalBaseline = z.infer<typeof evalBaselineSchema>;
