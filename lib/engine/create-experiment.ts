import type { CreateExperimentInput, ExperimentPlan, ExperimentSummary } from "@/lib/api/experiments";
import { hashText } from "@/lib/core/cache-key";
import { computeCost } from "@/lib/core/cost";
import { concatenateDocuments } from "@/lib/core/experiment-document";
import { renderTemplate } from "@/lib/core/template";
import { countCodePoints, estimateTokens } from "@/lib/core/tokens";
import { asUser } from "@/lib/db/as-user";
import type { Database, Queryable } from "@/lib/db/database";
import type { ExperimentConfig } from "@/lib/db/experiments/experiment-config";
import { getExperimentSummary } from "@/lib/db/experiments/list-experiments";
import { priceBook } from "@/lib/db/pricing/pricing";
import { countQueuedCells } from "@/lib/db/runs/count-queued-cells";
import { insertDataset, insertDatasetRows } from "@/lib/db/runs/insert-dataset";
import { insertExperimentCells } from "@/lib/db/runs/insert-experiment-cells";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { queuePlannedRun } from "@/lib/db/runs/queue-planned-run";
import { continuePlanning, nextRowToPlan } from "@/lib/db/runs/streamed-planning";
import { ExperimentFileError } from "@/lib/formats/experiment-file-error";
import { readExperimentsCsv, type ExperimentsTable } from "@/lib/formats/read-experiments-csv";
import { applicablePrice } from "./applicable-price";
import { planBehind } from "./plan-behind";
import { InvalidInputError } from "./errors";
import { checkCellCount, checkPromptSize, checkQueuedCells, runLimitsFromEnv, type RunLimits } from "./run-limits";

/** What planning an experiment needs. */
export interface CreateExperimentDeps {
  db: Database;
  limits?: RunLimits;
}

// The experiments spec's rows are few (tens to thousands): one transaction holds them all.
const maxExperimentRows = 100_000;

/** The files of an experiment read and checked: everything a run or a dry run needs, before any query. */
export interface CheckedExperiment {
  document: string;
  table: ExperimentsTable;
  /** Distinct provider/model pairs in order of first appearance: the run's columns. */
  targets: Array<{ provider: string; model: string }>;
  columnOfRow: number[];
  config: ExperimentConfig;
}

/**
 * Reads an experiment's files as the experiments spec does: the CSV (errors naming file, line
 * and column become a 400), the document of the prompt and context files, and one target per
 * distinct provider/model. Nothing is sent and nothing stored.
 */
export function checkExperiment(input: CreateExperimentInput, limits: RunLimits = runLimitsFromEnv()): CheckedExperiment {
  let table: ExperimentsTable;
  try {
    table = readExperimentsCsv(input.experiments.text, input.experiments.name);
  } catch (error) {
    if (error instanceof ExperimentFileError) throw new InvalidInputError(error.message, "experiments");
    throw error;
  }
  if (table.rows.length === 0) {
    throw new InvalidInputError(
      `${input.experiments.name}: the file has a header but no experiments. Add one line per experiment below the header.`,
      "experiments",
    );
  }
  if (input.fromRow > table.rows.length) {
    throw new InvalidInputError(
      `${input.experiments.name} has ${table.rows.length} experiments; there is no row ${input.fromRow} to start from.`,
      "fromRow",
    );
  }
  if (table.rows.length > maxExperimentRows) {
    throw new InvalidInputError(
      `${input.experiments.name}: ${table.rows.length} experiments; at most ${maxExperimentRows} run at once. Split the file.`,
      "experiments",
    );
  }
  checkCellCount({ field: "experiments", rows: table.rows.length, columns: 1, trials: 1 }, limits);
  const document = concatenateDocuments([input.prompt, ...input.contexts]);
  checkPromptSize({ field: "prompt", what: "prompt and context files together", length: countCodePoints(document) }, limits);

  const targets: Array<{ provider: string; model: string }> = [];
  const index = new Map<string, number>();
  const columnOfRow = table.rows.map((row) => {
    const key = `${row.provider}\u0000${row.model}`;
    let column = index.get(key);
    if (column === undefined) {
      column = targets.length;
      index.set(key, column);
      targets.push({ provider: row.provider, model: row.model });
    }
    return column;
  });
  return {
    document,
    table,
    targets,
    columnOfRow,
    config: {
      promptFile: input.prompt.name,
      contextFiles: input.contexts.map((file) => file.name),
      experimentsFile: input.experiments.name,
      columns: table.columns,
      fromRow: input.fromRow,
      inputHash: experimentInputHash(input),
    },
  };
}

/**
 * What identifies an experiment's input: the files' names and texts and the options that change
 * what is sent or kept (not concurrency, not the first row). `--resume` continues the latest run
 * with the same hash, so rows it finished are never called again.
 */
export function experimentInputHash(input: CreateExperimentInput): string {
  const files = [input.prompt, ...input.contexts, input.experiments].map((file) => [file.name, file.text]);
  return hashText(
    JSON.stringify({ files, timeoutSeconds: input.timeoutSeconds, retries: input.retries, cache: input.cache, params: input.params }),
  );
}

/**
 * Creates an experiment run for userId: kind `experiment`, the document as an immutable prompt
 * version, the CSV's rows as a dataset, one column per provider/model and one cell per row, queued
 * in one transaction. The engine runs it like any run (limits, cache when asked, crash safety);
 * its cells follow the experiments spec's rules (execute-experiment-cell.ts).
 */
export async function createExperiment(
  { db, limits = runLimitsFromEnv() }: CreateExperimentDeps,
  { userId, input }: { userId: string; input: CreateExperimentInput },
): Promise<ExperimentSummary> {
  const checked = checkExperiment(input, limits);
  return asUser(db, userId, (tx) => insertExperiment(tx, { userId, input, checked, toRow: checked.table.rows.length, limits }));
}

// After the first rows, the rest go in transactions of 128 rows, then twice as many each time up to
// 2,000. A transaction holds PGlite's one thread (a cold one ~0.2 ms a row), and the worker's first
// claims, made just as the first rows are queued, wait behind it: small ones first, so they wait
// little; larger ones later, so 100,000 rows do not take a thousand transactions.
const firstStreamedBatch = 128;
const largestStreamedBatch = 2_000;

/**
 * createExperiment for a command that runs the experiment in its own process: the first
 * firstRows rows' cells are queued in the first transaction, and the worker starts on them while
 * the rest are added, in transactions of their own, behind them (the run is marked planning
 * meanwhile, so it is not completed before its last cell is in). A 1,000-row run's first calls
 * no longer wait ~200 ms for every row and cell to be inserted on a cold PGlite.
 *
 * Resolves once the first rows are queued; `planned` settles when every cell is in. When adding
 * the rest fails, the run is failed saying how far it got, its open cells are cancelled and
 * `planned` rejects; a run cancelled meanwhile stops the planner quietly. `stop` (the command
 * interrupted) ends it at the next batch the same way as a failure, and `planned` resolves.
 */
export async function startExperiment(
  { db, limits = runLimitsFromEnv() }: CreateExperimentDeps,
  {
    userId,
    input,
    firstRows,
    restAfter,
    stop,
  }: {
    userId: string;
    input: CreateExperimentInput;
    firstRows: number;
    /** The rest are added once this settles (the worker's first calls are out: its claims do not wait behind them). */
    restAfter?: Promise<unknown>;
    /** Aborted: no more rows are added, and the run is failed saying how far it got. */
    stop?: AbortSignal;
  },
): Promise<{ experiment: ExperimentSummary; planned: Promise<void> }> {
  const checked = checkExperiment(input, limits);
  const total = checked.table.rows.length;
  const firstEnd = Math.min(total, input.fromRow - 1 + Math.max(1, firstRows));
  const experiment = await asUser(db, userId, (tx) =>
    insertExperiment(tx, { userId, input, checked, toRow: firstEnd, limits, planning: firstEnd < total }),
  );
  if (firstEnd === total) return { experiment, planned: Promise.resolve() };
  const planned = Promise.resolve(restAfter)
    .catch(() => {})
    .then(() => addRows(db, { userId, runId: experiment.id, checked, from: firstEnd, stop }));
  // The caller may not look at it before the run ends; a failure is recorded on the run either way.
  planned.catch(() => {});
  return { experiment, planned };
}

/**
 * For `--resume` of a run whose planner stopped part way (its process was killed while adding
 * rows): adds the rows it lacks, from the same files (the run was found by their hash), and ends
 * its planning, so the run can be continued and finish instead of being failed. Run it before a
 * worker starts on the database: a sole worker fails such a run as it puts right what dead
 * processes left. Does nothing for a run that is not being planned.
 */
export async function finishStreamedPlanning(
  { db, limits = runLimitsFromEnv() }: CreateExperimentDeps,
  { userId, input, runId }: { userId: string; input: CreateExperimentInput; runId: string },
): Promise<void> {
  const planning = await asUser(db, userId, (tx) => continuePlanning(tx, { runId }));
  if (!planning) return;
  const checked = checkExperiment(input, limits);
  const next = await asUser(db, userId, (tx) => nextRowToPlan(tx, { runId }));
  await addRows(db, { userId, runId, checked, from: next });
}

/** The rows of a streamed experiment from `from` on, a transaction per batch, then the end of its planning (plan-behind.ts). */
function addRows(
  db: Database,
  { userId, runId, checked, from, stop }: { userId: string; runId: string; checked: CheckedExperiment; from: number; stop?: AbortSignal },
): Promise<void> {
  const { table } = checked;
  const of = `of ${table.rows.length} experiments were queued`;
  return planBehind(db, {
    userId,
    runId,
    fromRow: from,
    rowCount: table.rows.length,
    firstBatch: firstStreamedBatch,
    largestBatch: largestStreamedBatch,
    stop,
    insertBatch: async (tx, rows) => {
      const run = await continuePlanning(tx, { runId });
      if (!run) return false;
      await insertDatasetRows(tx, { datasetId: run.datasetId, offset: rows.from, rows: datasetRecords(table, rows.from, rows.to) });
      await insertExperimentCells(tx, { runId, columnOfRow: checked.columnOfRow, fromRow: rows.from, toRow: rows.to });
      return true;
    },
    why: (rowsIn, reason) =>
      reason === null
        ? `Interrupted after ${rowsIn} ${of}. The rows that finished are kept; run the rest again.`
        : `Planning failed after ${rowsIn} ${of} (${reason}). The rows that finished are kept; run the rest again.`,
  });
}

/** Rows from..to-1 of the CSV as dataset records (column name to value). */
function datasetRecords(table: ExperimentsTable, from: number, to: number): Array<Record<string, string>> {
  return table.rows.slice(from, to).map((row) => Object.fromEntries(table.columns.map((column, index) => [column, row.values[index]])));
}

/**
 * The experiment's run with rows 0..toRow-1 stored and their cells from input.fromRow on queued,
 * in the caller's transaction; with planning, the rest are to follow (startExperiment).
 */
async function insertExperiment(
  tx: Queryable,
  {
    userId,
    input,
    checked,
    toRow,
    limits,
    planning = false,
  }: { userId: string; input: CreateExperimentInput; checked: CheckedExperiment; toRow: number; limits: RunLimits; planning?: boolean },
): Promise<ExperimentSummary> {
  const { table } = checked;
  checkQueuedCells({ queued: await countQueuedCells(tx, { userId }), adding: table.rows.length }, limits);
  const promptVersionId = await insertPromptVersion(tx, {
    promptId: null,
    version: 1,
    name: input.prompt.name,
    type: "generator",
    text: checked.document,
    textHash: hashText(checked.document),
  });
  const datasetId = await insertDataset(tx, {
    name: input.experiments.name,
    source: "experiment",
    headers: table.columns,
    rows: datasetRecords(table, 0, toRow),
    rowCount: table.rows.length,
  });
  const runId = await insertRun(tx, {
    kind: "experiment",
    promptId: null,
    promptVersionId,
    graderPromptId: null,
    graderVersionId: null,
    graderModel: null,
    datasetId,
    rowCount: table.rows.length,
    trials: 1,
    concurrency: input.concurrency,
    providerConcurrency: {},
    maxAttempts: input.retries + 1,
    timeoutMs: Math.round(input.timeoutSeconds * 1000),
    cache: input.cache,
    budgetUsd: null,
    budgetMode: "off",
    columns: checked.targets.map((target) => ({ ...target, params: input.params, estimatedCostPerCell: null })),
    kindConfig: { experiment: checked.config },
  });
  await insertExperimentCells(tx, { runId, columnOfRow: checked.columnOfRow, fromRow: input.fromRow - 1, toRow });
  await queuePlannedRun(tx, { runId, planning });
  return (await getExperimentSummary(tx, { id: runId }))!;
}

/**
 * A dry run (the CLI's --dry-run): the rows, and per model the rows, the spec's input-token
 * estimate of the rendered text and its cost where a price is known. Nothing is sent or stored.
 */
export async function planExperiment(
  { db, limits = runLimitsFromEnv() }: CreateExperimentDeps,
  { userId, input }: { userId: string; input: CreateExperimentInput },
): Promise<ExperimentPlan> {
  const checked = checkExperiment(input, limits);
  const stored = await asUser(db, userId, (tx) => priceBook(tx));
  const warnings = new Set<string>();
  const models = checked.targets.map((target) => ({ ...target, rows: 0, inputTokens: 0, estimatedCostUsd: 0 as number | null }));
  checked.table.rows.forEach((row, index) => {
    const rendered = renderTemplate(checked.document, row.variables);
    for (const name of rendered.missing) warnings.add(`Variable {{${name}}} in template has no value in experiment row ${row.number}`);
    const model = models[checked.columnOfRow[index]];
    const tokens = estimateTokens(rendered.text);
    model.rows += 1;
    model.inputTokens += tokens;
  });
  for (const model of models) {
    const price = applicablePrice({
      provider: model.provider,
      model: model.model,
      stored: stored.get(`${model.provider}/${model.model}`) ?? null,
    });
    // Input only: what a model will answer is not known before it answers.
    model.estimatedCostUsd = price ? computeCost({ tokensIn: model.inputTokens, tokensOut: 0, price }) : null;
  }
  return { rowCount: checked.table.rows.length, models, warnings: [...warnings] };
}
