import type { EvalList } from "@/lib/api/evals";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { listEvals } from "@/lib/db/evals/list-evals";
import { evalRunId } from "./evals";

/**
 * A page of userId's eval runs, newest first, each with its EvalRuns (one per prompt x model, in
 * config order): run_id, prompt, model and pass rate over the results finished so far.
 */
export async function listEvalRuns(
  { db }: { db: Database },
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<EvalList> {
  const { evals, more } = await asUser(db, userId, (tx) => listEvals(tx, { limit, offset }));
  return {
    evals: evals.map(({ summary, tallies }) => ({
      eval: summary,
      runs: summary.prompts.flatMap((prompt, variant) =>
        summary.models.map((model, column) => {
          const tally = tallies.find((candidate) => candidate.variant === variant && candidate.column === column);
          const results = tally?.finished ?? 0;
          return {
            run_id: evalRunId(summary.id, variant, column),
            prompt_name: prompt,
            model,
            results,
            cells: tally?.cells ?? 0,
            pass_rate: results === 0 ? 0 : (tally?.passed ?? 0) / results,
          };
        }),
      ),
    })),
    nextOffset: more ? offset + evals.length : null,
  };
}
