import type { CreateExperimentInput, Experiment, ExperimentPlan, ExperimentSummary } from "@/lib/api/experiments";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getExperimentSummary, listExperiments as listExperimentSummaries } from "@/lib/db/experiments/list-experiments";
import { listExperimentRows } from "@/lib/db/experiments/list-experiment-rows";
import { getRunPromptText } from "@/lib/db/experiments/get-run-prompt-text";
import { createExperiment as createExperimentRun, planExperiment } from "@/lib/engine/create-experiment";
import { NotFoundError } from "@/lib/engine/errors";
import type { RunLimits } from "@/lib/engine/run-limits";
import { experimentOutputPrefix } from "@/lib/formats/experiment-output";

/** Creates an experiment run of userId's from its files (or, with dryRun, only plans it). */
export async function createExperiment(
  deps: { db: Database; limits?: RunLimits },
  { userId, input }: { userId: string; input: CreateExperimentInput },
): Promise<{ experiment: ExperimentSummary } | { plan: ExperimentPlan }> {
  if (input.dryRun) return { plan: await planExperiment(deps, { userId, input }) };
  return { experiment: await createExperimentRun(deps, { userId, input }) };
}

/** userId's experiment runs, newest first. */
export async function listExperiments(
  { db }: { db: Database },
  { userId, limit = 100, inputHash = null }: { userId: string; limit?: number; inputHash?: string | null },
) {
  return { experiments: await asUser(db, userId, (tx) => listExperimentSummaries(tx, { limit, inputHash })) };
}

/** One experiment run of userId's: its summary, the document it sends and every row. */
export async function getExperiment(
  { db }: { db: Database },
  { userId, experimentId, fromRow = 1, limit = null }: { userId: string; experimentId: string; fromRow?: number; limit?: number | null },
): Promise<Experiment> {
  return asUser(db, userId, async (tx) => {
    const summary = await getExperimentSummary(tx, { id: experimentId });
    if (!summary) throw new NotFoundError(`Experiment ${experimentId} not found.`);
    const document = (await getRunPromptText(tx, { runId: experimentId })) ?? "";
    const rows = await listExperimentRows(tx, { runId: experimentId, columns: summary.columns, fromRow: fromRow - 1, limit });
    return { ...summary, document, rows };
  });
}

/**
 * The output CSV of an experiment run as far as it has finished, in input order (the spec's
 * file, byte for byte what `parallaxr run` writes for the same run).
 */
export async function experimentOutputCsv(
  { db }: { db: Database },
  { userId, experimentId }: { userId: string; experimentId: string },
): Promise<{ filename: string; text: string; rows: number; finished: boolean }> {
  return asUser(db, userId, async (tx) => {
    const summary = await getExperimentSummary(tx, { id: experimentId });
    if (!summary) throw new NotFoundError(`Experiment ${experimentId} not found.`);
    const rows = await listExperimentRows(tx, { runId: experimentId, columns: summary.columns });
    const prefix = experimentOutputPrefix(summary.columns, rows);
    const base = summary.experimentsFile.replace(/\.csv$/i, "");
    return { filename: `${base}-results.csv`, text: prefix.text, rows: prefix.rows, finished: prefix.rows === rows.length };
  });
}
