import type { EvalBaseline } from "@/lib/api/eval-baseline";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { findEvalRun } from "@/lib/db/evals/find-eval-run";
import { NotFoundError } from "@/lib/engine/errors";
import { getEval } from "./evals";

/**
 * An earlier EvalRun of userId's found by its 8-hex run_id (the --baseline of `parallaxr eval
 * run`), with the results it finished, as GET /api/v1/evals/{id} gives it.
 */
export async function findEvalBaseline(
  { db }: { db: Database },
  { userId, runId }: { userId: string; runId: string },
): Promise<EvalBaseline> {
  const found = await asUser(db, userId, (tx) => findEvalRun(tx, { runId }));
  if (!found) {
    throw new NotFoundError(
      `No EvalRun has the run_id ${runId}. A run_id is the 8 hex characters in an export's name ({prompt}_{run_id}_{timestamp}); the run must be in this data folder or on this server.`,
      "runId",
    );
  }
  const { runs } = await getEval({ db }, { userId, evalId: found.evalId });
  const run = runs.find((candidate) => candidate.run_id === runId);
  if (!run) throw new NotFoundError(`No EvalRun has the run_id ${runId}.`, "runId");
  return { evalId: found.evalId, run };
}
