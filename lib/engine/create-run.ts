import type { CreateRunInput } from "@/lib/api/schemas";
import type { RunSummary } from "@/lib/api/types";
import { hashText } from "@/lib/core/cache-key";
import { describeRunProblem, findRunProblem } from "@/lib/core/find-run-problem";
import { renderedLength, templateShape, valueLengthsOf, type TemplateShape } from "@/lib/core/rendered-length";
import { detectVariables, renderTemplate } from "@/lib/core/template";
import { countCodePoints } from "@/lib/core/tokens";
import { asUser } from "@/lib/db/as-user";
import type { Database, Queryable } from "@/lib/db/database";
import { getDatasetItem } from "@/lib/db/datasets/get-dataset-item";
import { getPromptById, markPromptRun } from "@/lib/db/prompts/prompts";
import { analyzeRunCells } from "@/lib/db/runs/analyze-run-cells";
import { countQueuedCells } from "@/lib/db/runs/count-queued-cells";
import { findActiveRun } from "@/lib/db/runs/find-active-run";
import { getChangeCursor } from "@/lib/db/runs/get-change-cursor";
import { getRunSummary } from "@/lib/db/runs/get-run-summary";
import { insertDataset, insertDatasetRows, listDatasetRows } from "@/lib/db/runs/insert-dataset";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { insertRunCells } from "@/lib/db/runs/insert-run-cells";
import { listDatasetValueLengths } from "@/lib/db/runs/list-dataset-value-lengths";
import { queuePlannedRun } from "@/lib/db/runs/queue-planned-run";
import type { ProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { ActiveRunError, NotFoundError, ValidationError } from "./errors";
import { failPlanning } from "./fail-planning";
import { planBehind, yieldToOthers } from "./plan-behind";
import { planRun, type RunPlanEstimate } from "./plan-run";
import { checkCellCount, checkPromptSize, checkQueuedCells, checkRenderedSize, runLimitsFromEnv, type RunLimits } from "./run-limits";

/** What creating a run needs; limits default to the environment's (run-limits.ts). */
export interface CreateRunDeps {
  db: Database;
  providers: ProviderRegistry;
  limits?: RunLimits;
}

// Cells and dataset rows per transaction. On PGlite (one connection) a transaction holds every
// other request; 10,000 cells take ~0.3-0.6 s there on these machines, so a request waits that
// long at most while a 200,000-cell run is created (one statement for all of them held it 12.5 s).
const cellsPerTransaction = 10_000;
const datasetRowsPerTransaction = 10_000;
// ...and a batch of rows stays under this much JSON, whatever their values' sizes.
const datasetCharsPerTransaction = 8_000_000;
// A larger run is answered once this many of its cells are queued; the rest are added behind
// them while its first calls are made (streamRest). Every cell of a 100,000-cell run took 4-6 s
// to insert on PGlite (bench/README.md, "Creating a large run"), and the request waited for all.
const firstStreamedCells = 2_000;

// Thrown to roll a dry run's transaction back, carrying its plan out.
class DryRunDone extends Error {
  constructor(readonly plan: RunPlanEstimate) {
    super("dry run");
  }
}

/**
 * What createRun does with a prompt or grader variable that no dataset column provides:
 * "refuse" (the default, as the workbench's validation dialog does) answers 400 naming each;
 * "warn" starts the run anyway, each cell rendering the placeholder as written and carrying the
 * experiments spec's warning (specs/experiments-cli.md: warn but continue). Only a caller that
 * means it (the experiments runner) passes "warn".
 */
export type MissingVariablesRule = "refuse" | "warn";

/** A run as createRun answers it; `planned` settles once every one of its cells is queued. */
export type CreatedRun = RunSummary & { plan: RunPlanEstimate; cursor: number; planned: Promise<void> };

/**
 * Creates a run for userId from a validated request: checks its size and that every variable has
 * a column, snapshots the prompt as an immutable version, stores inline rows as a dataset, and
 * plans every cell, as the user (so RLS checks each id the request names). A run of up to 10,000
 * cells is one transaction. A larger one is created in status planned and its rows stored in
 * transactions of 10,000; then it is queued with its first 2,000 cells and answered, and the rest
 * of its cells are added behind them in transactions of 10,000 (runs.planning: it does not
 * complete before they are in; `planned` settles then), so other requests are served meanwhile
 * and its first calls need not wait for its last cells. Workers pick it up once it is queued.
 */
export async function createRun(
  deps: CreateRunDeps,
  { userId, input, missingVariables = "refuse" }: { userId: string; input: CreateRunInput; missingVariables?: MissingVariablesRule },
): Promise<CreatedRun> {
  return (await planOrCreateRun(deps, { userId, input, dryRun: false, missingVariables }))!;
}

/**
 * The plan of a run (cells, estimated tokens and cost per model, what is unpriced) without
 * creating it: the same checks and reads as createRun, in a transaction that is rolled back.
 */
export async function estimateRun(
  deps: CreateRunDeps,
  { userId, input }: { userId: string; input: CreateRunInput },
): Promise<RunPlanEstimate> {
  try {
    // an estimate is asked while the prompt is still being written: it never refuses a variable
    await planOrCreateRun(deps, { userId, input, dryRun: true, missingVariables: "warn" });
  } catch (error) {
    if (error instanceof DryRunDone) return error.plan;
    throw error;
  }
  throw new Error("A dry run must not create a run");
}

/** What is left to insert after the first transaction, for a run too large for one. */
interface PendingRun {
  runId: string;
  datasetId: string | null;
  /** Inline rows not yet stored, from this index on. */
  rows: Array<Record<string, string>> | null;
  rowsStored: number;
  rowCount: number;
  trials: number;
  strictBudget: boolean;
  plan: RunPlanEstimate;
}

async function planOrCreateRun(
  { db, providers, limits: given }: CreateRunDeps,
  {
    userId,
    input,
    dryRun,
    missingVariables,
  }: { userId: string; input: CreateRunInput; dryRun: boolean; missingVariables: MissingVariablesRule },
): Promise<CreatedRun | undefined> {
  const limits = given ?? runLimitsFromEnv();
  input.models.forEach((column, index) => {
    if (!providers.has(column.provider)) {
      throw new ValidationError(`models.${index}.provider`, `Unknown provider "${column.provider}".`);
    }
  });
  if (input.graderModel && !providers.has(input.graderModel.provider)) {
    throw new ValidationError("graderModel.provider", `Unknown provider "${input.graderModel.provider}".`);
  }
  const columns = input.models.map((column) => ({ provider: column.provider, model: column.model, params: column.params ?? {} }));
  const trials = input.trials ?? 1;
  const rowsField = input.datasetId ? "datasetId" : "rows";

  // What can be checked from the request alone is checked before any query: a refused request
  // costs no transaction (on PGlite, no wait for every other request).
  if (input.prompt !== undefined) checkPromptSize({ field: "prompt", what: "prompt", length: countCodePoints(input.prompt) }, limits);
  if (input.grader !== undefined)
    checkPromptSize({ field: "grader", what: "grader prompt", length: countCodePoints(input.grader) }, limits);
  const inlineRows = input.rows
    ? input.rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value == null ? "" : String(value)])))
    : null;
  if (!input.datasetId)
    checkCellCount({ field: rowsField, rows: Math.max(1, inlineRows?.length ?? 1), columns: columns.length, trials }, limits);
  let inlineLengths: number[] | null = null;
  if (input.prompt !== undefined && !input.datasetId) {
    inlineLengths = rowLengthsOf(templateShape(input.prompt), inlineRows);
    checkRenderedSize(
      {
        field: rowsField,
        rowField: inlineRows ? (index) => `rows.${index}` : null,
        rowLengths: inlineLengths,
        columns: columns.length,
        trials,
      },
      limits,
    );
  }

  // Adapters are had before the transaction opens: having one may read the caller's stored key,
  // and on PGlite (one connection) a query from outside an open transaction waits for it to end,
  // which here would wait for that query: the server's database would hang for good.
  const adapters = new Map<string, TextProvider | null>();
  for (const provider of new Set(input.models.map((column) => column.provider))) {
    // a provider that cannot be had now (no key yet) just falls back to the estimate
    adapters.set(provider, await providers.resolve({ provider, userId }).catch(() => null));
  }

  const first = await asUser(db, userId, async (tx): Promise<PendingRun | CreatedRun> => {
    const prompt = input.promptId ? await getPromptById(tx, { id: input.promptId }) : null;
    if (input.promptId && !prompt) throw new NotFoundError(`Prompt ${input.promptId} not found.`);
    const promptText = prompt ? prompt.text : (input.prompt ?? "");
    if (prompt) checkPromptSize({ field: "promptId", what: "prompt", length: countCodePoints(prompt.text) }, limits);
    const grader = input.graderPromptId ? await getPromptById(tx, { id: input.graderPromptId }) : null;
    if (input.graderPromptId && !grader) throw new NotFoundError(`Grader prompt ${input.graderPromptId} not found.`);
    if (grader) checkPromptSize({ field: "graderPromptId", what: "grader prompt", length: countCodePoints(grader.text) }, limits);

    const dataset = input.datasetId ? await getDatasetItem(tx, { id: input.datasetId }) : null;
    if (input.datasetId && !dataset) throw new NotFoundError(`Dataset ${input.datasetId} not found.`);
    if (missingVariables === "refuse") {
      const headers = dataset ? dataset.headers : inlineRows ? [...new Set(inlineRows.flatMap((row) => Object.keys(row)))] : null;
      const graderText = grader ? grader.text : (input.grader ?? null);
      const problem = findRunProblem(
        detectVariables(promptText),
        headers ? { headers } : null,
        graderText === null ? null : { name: grader?.name ?? "Inline grader", variables: detectVariables(graderText) },
      );
      if (problem) throw new ValidationError(rowsField, describeRunProblem(problem, headers ?? []));
    }
    const rowCount = dataset ? dataset.rowCount : (inlineRows?.length ?? 1);
    if (dataset) checkCellCount({ field: rowsField, rows: Math.max(1, rowCount), columns: columns.length, trials }, limits);
    let rowLengths = inlineLengths;
    if (!rowLengths) {
      const shape = templateShape(promptText);
      rowLengths = dataset ? await datasetRowLengths(tx, { datasetId: dataset.id, shape }) : rowLengthsOf(shape, inlineRows);
      checkRenderedSize(
        { field: input.promptId ? "promptId" : rowsField, rowField: null, rowLengths, columns: columns.length, trials },
        limits,
      );
    }

    // One model grades every column, by default the first column's: a model grading its own
    // answers favours itself, and grades from different judges cannot be compared.
    const graderText = grader ? grader.text : (input.grader ?? null);
    const graderModel = graderText === null ? null : (input.graderModel ?? { provider: columns[0].provider, model: columns[0].model });
    const graderShape = graderText === null ? null : templateShape(graderText);
    const graderRowLengths =
      graderShape === null
        ? null
        : dataset
          ? await datasetRowLengths(tx, { datasetId: dataset.id, shape: graderShape })
          : rowLengthsOf(graderShape, inlineRows);

    const plan = await planRun(tx, {
      rowLengths,
      renderRows: async (rowIndexes) => {
        const rows = dataset
          ? await listDatasetRows(tx, { datasetId: dataset.id, rowIndexes })
          : rowIndexes.map((index) => inlineRows?.[index] ?? {});
        return rows.map((row) => renderTemplate(promptText, row).text);
      },
      columns,
      trials,
      tokenizerFor: async ({ provider, model }) => {
        const adapter = adapters.get(provider);
        return adapter?.countTokens ? (text: string) => adapter.countTokens!(model, text) : null;
      },
      grader: graderModel && graderRowLengths ? { rowLengths: graderRowLengths, model: graderModel } : null,
    });
    if (dryRun) throw new DryRunDone(plan);
    // One unfinished run per prompt, whichever tab or client asks: a second would run a text
    // the first tab's editor no longer shows.
    if (prompt) {
      const activeRunId = await findActiveRun(tx, { promptId: prompt.id });
      if (activeRunId) throw new ActiveRunError(activeRunId);
    }
    const cells = rowCount * columns.length * trials;
    checkQueuedCells({ queued: await countQueuedCells(tx, { userId }), adding: cells }, limits);

    let promptVersionId: string;
    if (prompt) {
      const textHash = hashText(prompt.text);
      const version = await markPromptRun(tx, { id: prompt.id, textHash });
      promptVersionId = await insertPromptVersion(tx, {
        promptId: prompt.id,
        version,
        name: prompt.name,
        type: prompt.type,
        text: prompt.text,
        textHash,
      });
    } else {
      promptVersionId = await insertPromptVersion(tx, {
        promptId: null,
        version: 1,
        name: "Inline prompt",
        type: "generator",
        text: promptText,
        textHash: hashText(promptText),
      });
    }
    let graderVersionId: string | null = null;
    if (grader) {
      const textHash = hashText(grader.text);
      const version = await markPromptRun(tx, { id: grader.id, textHash });
      graderVersionId = await insertPromptVersion(tx, {
        promptId: grader.id,
        version,
        name: grader.name,
        type: "grader",
        text: grader.text,
        textHash,
      });
    } else if (input.grader) {
      graderVersionId = await insertPromptVersion(tx, {
        promptId: null,
        version: 1,
        name: "Inline grader",
        type: "grader",
        text: input.grader,
        textHash: hashText(input.grader),
      });
    }

    let datasetId = dataset?.id ?? null;
    let rowsStored = 0;
    if (inlineRows) {
      const headers = [...new Set(inlineRows.flatMap((row) => Object.keys(row)))];
      rowsStored = datasetBatchEnd(inlineRows, 0);
      datasetId = await insertDataset(tx, {
        name: input.datasetName ?? "Inline rows",
        source: "inline",
        headers,
        rows: inlineRows.slice(0, rowsStored),
        rowCount: inlineRows.length,
      });
    }
    const strictBudget = input.budgetMode === "strict" && input.budgetUsd != null;
    const runId = await insertRun(tx, {
      kind: "workbench",
      promptId: prompt?.id ?? null,
      promptVersionId,
      graderPromptId: grader?.id ?? null,
      graderVersionId,
      graderModel: graderVersionId ? graderModel : null,
      datasetId,
      rowCount,
      trials,
      concurrency: input.concurrency ?? 8,
      providerConcurrency: input.providerConcurrency ?? {},
      maxAttempts: input.maxAttempts ?? 4,
      timeoutMs: Math.round((input.timeoutSeconds ?? 300) * 1000),
      cache: input.cache ?? true,
      budgetUsd: input.budgetUsd ?? null,
      budgetMode: input.budgetUsd == null ? "off" : (input.budgetMode ?? "estimate"),
      columns: columns.map((column, index) => ({ ...column, estimatedCostPerCell: plan.models[index].costPerCellUsd })),
      plan,
    });
    const pending: PendingRun = { runId, datasetId, rows: inlineRows, rowsStored, rowCount, trials, strictBudget, plan };
    if (cells > cellsPerTransaction || (inlineRows && rowsStored < inlineRows.length)) return pending;
    // Small enough for one transaction, as every run was before: one commit, and the answer.
    await insertRunCells(tx, { runId, fromRow: 0, toRow: rowCount, trials, strictBudget });
    await queuePlannedRun(tx, { runId });
    return { ...(await readBack(tx, runId, plan)), planned: Promise.resolve() };
  });
  if (!("runId" in first)) return first;

  try {
    return await createInBatches(db, userId, first, columns.length);
  } catch (error) {
    // Half a plan never runs: the run is failed with the reason, its cells cancelled.
    await failPlanningOf(db, userId, first.runId, error).catch(() => {});
    throw error;
  }
}

/**
 * Stores the rest of the inline rows, a transaction each; then queues the run with its first
 * cells and answers, while the rest of its cells are added behind them (streamRest).
 */
async function createInBatches(db: Database, userId: string, run: PendingRun, columnCount: number): Promise<CreatedRun> {
  const { runId, rows } = run;
  let stored = run.rowsStored;
  while (rows && stored < rows.length) {
    const end = datasetBatchEnd(rows, stored);
    await asUser(db, userId, (tx) => insertDatasetRows(tx, { datasetId: run.datasetId!, offset: stored, rows: rows.slice(stored, end) }));
    stored = end;
    await yieldToOthers();
  }
  const cellsPerRow = columnCount * run.trials;
  const firstRows = Math.min(run.rowCount, Math.max(1, Math.floor(firstStreamedCells / cellsPerRow)));
  const planning = firstRows < run.rowCount;
  const created = await asUser(db, userId, async (tx) => {
    // false: cancelled while its rows were stored; it is read back as the cancel left it
    if (await insertRunCells(tx, { runId, fromRow: 0, toRow: firstRows, trials: run.trials, strictBudget: run.strictBudget }))
      await queuePlannedRun(tx, { runId, planning });
    return readBack(tx, runId, run.plan);
  });
  const planned =
    planning && created.status !== "cancelled" ? streamRest(db, userId, run, { fromRow: firstRows, cellsPerRow }) : analyze(db);
  // Nobody may wait for it (the API has answered): a failure is recorded on the run either way.
  planned.catch(() => {});
  return { ...created, planned };
}

/**
 * The cells of rows fromRow.. of a run whose first cells are queued (runs.planning), a
 * transaction per batch, two batches at once on a server (insertLanes); then the end of its
 * planning (plan-behind.ts).
 *
 * The cells go in unannounced (seq 0, insert-run-cells.ts): a follower of the run starts at the
 * answer's cursor and shows a cell it has not been sent as queued (the grid does). Sent, the
 * 98,000 queued cells of a 100,000-cell run held its first answers back by seconds on the events
 * stream, whose reads take turns with these batches.
 */
async function streamRest(
  db: Database,
  userId: string,
  run: PendingRun,
  { fromRow, cellsPerRow }: { fromRow: number; cellsPerRow: number },
): Promise<void> {
  const { runId, rowCount, trials, strictBudget } = run;
  const rowsPerBatch = Math.max(1, Math.floor(cellsPerTransaction / cellsPerRow));
  const cells = (rows: number) => (rows * cellsPerRow).toLocaleString("en");
  await planBehind(db, {
    userId,
    runId,
    fromRow,
    rowCount,
    firstBatch: rowsPerBatch,
    largestBatch: rowsPerBatch,
    lanes: insertLanes(db),
    insertBatch: (tx, { from, to }) => insertRunCells(tx, { runId, fromRow: from, toRow: to, trials, strictBudget, unannounced: true }),
    why: (rowsIn, reason) =>
      `Planning failed after ${cells(rowsIn)} of ${cells(rowCount)} cells were queued (${reason}). ` +
      "The cells that finished are kept; the rest were cancelled.",
  });
  await analyze(db);
}

/** PGlite's statistics after a large plan (analyzeRunCells); a failure there changes nothing else. */
function analyze(db: Database): Promise<void> {
  return analyzeRunCells(db).catch(() => {});
}

// The run as created, read in the transaction that queued it, before any worker has claimed
// from it; and where a live follower starts reading changes: every cell in so far is queued as of
// here (replaying 40,000 queued cells before the first answer held a large run's page for
// seconds), and those a streamed run adds later are not sent until they change (streamRest).
async function readBack(
  tx: Queryable,
  runId: string,
  plan: RunPlanEstimate,
): Promise<RunSummary & { plan: RunPlanEstimate; cursor: number }> {
  const summary = await getRunSummary(tx, { id: runId });
  if (!summary) throw new Error(`Run ${runId} was created but cannot be read back`);
  return { ...summary, plan, cursor: await getChangeCursor(tx) };
}

function failPlanningOf(db: Database, userId: string, runId: string, error: unknown): Promise<void> {
  const reason = error instanceof Error ? error.message : String(error);
  return failPlanning(db, {
    userId,
    runId,
    error: `Planning failed before all of this run's cells were created (${reason}). Nothing of it ran; create the run again.`,
  });
}

/** Rendered length of each row (the template alone when there are no rows), from lengths only. */
function rowLengthsOf(shape: TemplateShape, rows: Array<Record<string, string>> | null): number[] {
  if (!rows || rows.length === 0) return [renderedLength(shape, () => null)];
  return rows.map((row) => renderedLength(shape, valueLengthsOf(row)));
}

async function datasetRowLengths(tx: Queryable, { datasetId, shape }: { datasetId: string; shape: TemplateShape }): Promise<number[]> {
  const names = shape.variables.map((variable) => variable.name);
  const lengths = await listDatasetValueLengths(tx, { datasetId, names });
  if (lengths.length === 0) return [renderedLength(shape, () => null)];
  return lengths.map((row) => renderedLength(shape, (name) => row[names.indexOf(name)] ?? null));
}

/** Where the batch of inline rows that starts at `from` ends: 10,000 rows or ~8 MB of values. */
function datasetBatchEnd(rows: Array<Record<string, string>>, from: number): number {
  let chars = 0;
  let end = from;
  while (end < rows.length && end - from < datasetRowsPerTransaction) {
    for (const [key, value] of Object.entries(rows[end])) chars += key.length + value.length;
    end++;
    if (chars >= datasetCharsPerTransaction) break;
  }
  return end;
}

/**
 * Batches of cells inserted at once: two on a Postgres server, whose connections insert in
 * processes of their own (a 100,000-cell run: see bench/README.md, "Creating large runs"); one on
 * PGlite, whose one connection runs a statement at a time anyway.
 */
function insertLanes(db: Database): number {
  return db.kind === "postgres" ? 2 : 1;
}
