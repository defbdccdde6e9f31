import type { CreateMatrixInput, CreateMatrixOutput, MatrixDetail, MatrixEval, MatrixList } from "@/lib/api/matrix";
import { zipSync, strToU8 } from "fflate";
import { batchTimestampOf, runId } from "@/lib/core/matrix/ids";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getMatrixRun, type StoredMatrixRun } from "@/lib/db/matrix/get-matrix-run";
import { listMatrixCells, type MatrixCell } from "@/lib/db/matrix/list-matrix-cells";
import { listMatrixRuns } from "@/lib/db/matrix/list-matrix-runs";
import { createMatrix as createMatrixRun, dryRunMatrix, toMatrixSummary } from "@/lib/engine/create-matrix";
import { InvalidInputError, NotFoundError } from "@/lib/engine/errors";
import { comparisonGroups, type ComparisonGroup } from "@/lib/formats/matrix/comparison-groups";
import { COMPARISON_FILE_NAME, comparisonMarkdown } from "@/lib/formats/matrix/comparison-markdown";
import { comparisonIndexEntry, indexMarkdown } from "@/lib/formats/matrix/index-markdown";
import type { MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";
import { runFileJson, runFileName } from "@/lib/formats/matrix/run-file";
import { batchSummary, batchSummaryJson, type BatchSummaryDocument } from "@/lib/formats/matrix/summary-json";
import type { RunLimits } from "@/lib/engine/run-limits";

/** Creates a matrix run of userId's, or with dryRun answers its plan and stores nothing. */
export async function createMatrix(
  deps: { db: Database; limits?: RunLimits; now?: () => Date },
  { userId, input }: { userId: string; input: CreateMatrixInput },
): Promise<CreateMatrixOutput> {
  if (input.dryRun) return { dryRun: true, plan: await dryRunMatrix(deps, { userId, input }) };
  return { matrix: await createMatrixRun(deps, { userId, input }) };
}

/** userId's matrices, newest first, or the one of a batch id (a batch is resumed by its id). */
export async function listMatrices(
  { db }: { db: Database },
  { userId, batchId = null, limit }: { userId: string; batchId?: string | null; limit: number },
): Promise<MatrixList> {
  const runs = await asUser(db, userId, (tx) => listMatrixRuns(tx, { batchId, limit }));
  return { matrices: runs.map(toMatrixSummary) };
}

/** A matrix run of userId's with its cells, or a 404 (another user's run is not there for them). */
async function loadMatrix(db: Database, { userId, matrixId }: { userId: string; matrixId: string }) {
  return asUser(db, userId, async (tx) => {
    const stored = await getMatrixRun(tx, { id: matrixId });
    if (!stored) throw new NotFoundError(`Matrix ${matrixId} not found.`);
    return { stored, cells: await listMatrixCells(tx, { runId: matrixId }) };
  });
}

/** One matrix run of userId's: its summary and every eval of its grid, prompt by prompt, model by model, input by input. */
export async function getMatrix(
  { db }: { db: Database },
  { userId, matrixId }: { userId: string; matrixId: string },
): Promise<MatrixDetail> {
  const { stored, cells } = await loadMatrix(db, { userId, matrixId });
  const comparisons = comparisonsOf(stored, matrixRecords(stored, cells)).map((group) => group.folder);
  return {
    matrix: toMatrixSummary(stored),
    evals: cells.map((cell) => toEval(stored, cell)),
    comparisons: comparisons.length > 0 ? [INDEX_NAME, ...comparisons] : [],
  };
}

/**
 * The spec's run id of one eval once it started (the id carries its start time); an eval that
 * finished without starting (skipped by the budget, cancelled) is dated by its end. Null while queued.
 */
function evalRunId(stored: StoredMatrixRun, cell: MatrixCell): string | null {
  const at = cell.startedAt ?? cell.finishedAt;
  if (at === null) return null;
  const { plan } = stored;
  return runId({
    startedAt: new Date(at),
    promptVersion: plan.prompts[cell.variant].version,
    model: plan.models[cell.columnIndex].name,
    inputId: plan.inputs[cell.rowIndex].id,
  });
}

function toEval(stored: StoredMatrixRun, cell: MatrixCell): MatrixEval {
  const { plan } = stored;
  const failed = cell.status === "error" || cell.status === "cancelled" || cell.status === "skipped" || cell.status === "malformed";
  return {
    runId: evalRunId(stored, cell),
    prompt: plan.prompts[cell.variant].version,
    model: plan.models[cell.columnIndex].name,
    input: plan.inputs[cell.rowIndex].id,
    status: cell.status,
    output: cell.outputRaw,
    error: failed ? (cell.errorMessage ?? (cell.status === "cancelled" ? "Cancelled before it ran" : "Failed")) : null,
    tokensInput: cell.tokensIn,
    tokensOutput: cell.tokensOut,
    costUsd: cell.costUsd,
    durationSeconds: cell.latencyMs === null ? null : cell.latencyMs / 1000,
    grade: cell.grade,
    graderError: cell.graderError,
    graderCostUsd: cell.graderCostUsd,
    metricScores: cell.metricScores,
  };
}

/** Whether a cell is done: it will not be called again. */
function finished(cell: MatrixCell): boolean {
  return cell.status !== "queued" && cell.status !== "running";
}

/** Every finished eval of a matrix as its files are written from it, in the plan's order. */
export function matrixRecords(stored: StoredMatrixRun, cells: readonly MatrixCell[]): MatrixRunRecord[] {
  const { plan } = stored;
  return cells.filter(finished).map((cell) => {
    const { error: failed, runId: id } = toEval(stored, cell);
    const startedAt = new Date(cell.startedAt ?? cell.finishedAt ?? plan.timestamp);
    const model = plan.models[cell.columnIndex];
    const prompt = plan.prompts[cell.variant];
    const input = plan.inputs[cell.rowIndex];
    return {
      runId: id ?? runId({ startedAt, promptVersion: prompt.version, model: model.name, inputId: input.id }),
      batchId: plan.batchId,
      timestamp: startedAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
      prompt: { version: prompt.version, name: prompt.name },
      model: { name: model.name, provider: model.provider, model: model.model, label: model.label },
      input: { id: input.id, title: input.title },
      output: failed === null ? (cell.outputRaw ?? "") : null,
      tokens: { input: cell.tokensIn, output: cell.tokensOut },
      costUsd: cell.costUsd,
      durationSeconds: cell.latencyMs === null ? null : cell.latencyMs / 1000,
      error: failed,
      ...gradingOf(plan, cell),
    };
  });
}

/** An eval's grade or metric scores when the matrix grades (its files then show them), else nothing. */
function gradingOf(plan: StoredMatrixRun["plan"], cell: MatrixCell): Pick<MatrixRunRecord, "grading"> {
  if (plan.grader) return { grading: { by: "grader", grade: cell.grade, error: cell.graderError } };
  if (!plan.metrics) return {};
  const scores = cell.metricScores;
  return {
    grading: {
      by: "metrics",
      metrics: plan.metrics.map((metric) => metric.name),
      scores: scores?.scores ?? {},
      passed: scores ? scores.passed : null,
      error: cell.graderError,
    },
  };
}

/** The batch's wall-clock seconds: from its start to its end, or to its last finished eval while it runs. */
function batchSeconds(stored: StoredMatrixRun, cells: readonly MatrixCell[]): number {
  const start = Date.parse(stored.plan.timestamp);
  const ends = cells.map((cell) => (cell.finishedAt ? Date.parse(cell.finishedAt) : 0));
  const end = stored.finishedAt ? Date.parse(stored.finishedAt) : Math.max(start, ...ends);
  return Math.max(0, end - start) / 1000;
}

function summaryOf(stored: StoredMatrixRun, cells: readonly MatrixCell[]): BatchSummaryDocument {
  const { plan } = stored;
  return batchSummary({
    batchId: plan.batchId,
    timestamp: plan.timestamp,
    config: {
      prompts: plan.prompts.map((prompt) => prompt.version),
      models: plan.models.map((model) => model.name),
      inputs: plan.inputs.map((input) => input.id),
    },
    runs: matrixRecords(stored, cells),
    durationSeconds: batchSeconds(stored, cells),
  });
}

/** A file of a matrix's batch folder. */
export interface MatrixFile {
  filename: string;
  text: string;
  contentType: string;
}

/**
 * batches/{batch_id}/summary.json of a matrix of userId's: the spec's schema (inputs under
 * config.transcripts) with errors and the unpriced runs, of the evals finished so far.
 */
export async function matrixSummaryFile(
  deps: { db: Database },
  { userId, matrixId }: { userId: string; matrixId: string },
): Promise<MatrixFile> {
  const { stored, cells } = await loadMatrix(deps.db, { userId, matrixId });
  return { filename: "summary.json", text: batchSummaryJson(summaryOf(stored, cells)), contentType: "application/json; charset=utf-8" };
}

/** The index's name among a matrix's comparisons (GET .../comparisons/index.md). */
const INDEX_NAME = "index";

/** The comparisons of a batch's finished evals (none when it was made with comparisons off). */
function comparisonsOf(stored: StoredMatrixRun, records: readonly MatrixRunRecord[]): ComparisonGroup[] {
  const { plan } = stored;
  if (!plan.comparisons) return [];
  return comparisonGroups({ runs: records, batchTimestamp: batchTimestampOf(plan.batchId)!, timestamp: plan.timestamp });
}

/** When the index was generated: when the batch finished (so the same batch always gives the same file), else now. */
function generatedAt(stored: StoredMatrixRun): string {
  return new Date(stored.finishedAt ?? Date.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function markdownFile(filename: string, text: string): MatrixFile {
  return { filename, text, contentType: "text/markdown; charset=utf-8" };
}

/**
 * One comparison of a matrix of userId's by its folder's name (`{batch ts}_prompt_{input}_{model}`),
 * or its index (`index`), in the spec's formats, of the evals finished so far. The name is looked
 * up among the batch's comparisons, never used as a path: any other name is a 404.
 */
export async function matrixComparison(
  deps: { db: Database },
  { userId, matrixId, name }: { userId: string; matrixId: string; name: string },
): Promise<MatrixFile> {
  const { stored, cells } = await loadMatrix(deps.db, { userId, matrixId });
  const groups = comparisonsOf(stored, matrixRecords(stored, cells));
  if (!stored.plan.comparisons) {
    throw new InvalidInputError(
      `Matrix ${matrixId} was run without comparisons (--no-comparisons); its evals are in GET /api/v1/matrix/${matrixId}.`,
    );
  }
  if (name === INDEX_NAME)
    return markdownFile("index.md", indexMarkdown({ entries: groups.map(comparisonIndexEntry), generatedAt: generatedAt(stored) }));
  const group = groups.find((candidate) => candidate.folder === name);
  if (!group) {
    throw new NotFoundError(
      `Matrix ${matrixId} has no comparison ${name}; ${groups.length > 0 ? `GET /api/v1/matrix/${matrixId} lists them` : "it has none yet (a comparison needs two finished evals of one input)"}.`,
      "name",
    );
  }
  return markdownFile(`${group.folder}.md`, comparisonMarkdown(group));
}

/**
 * The batch folder of a matrix of userId's as a zip, laid out as the command writes data/evals:
 * runs/{run_id}.json, batches/{batch_id}/summary.json, comparisons/{folder}/comparison.md and
 * comparisons/index.md (whose links resolve inside the zip). Built in memory from the database:
 * nothing is written to the server's disk. Every entry is dated by the batch, so one batch
 * always gives the same bytes.
 */
export async function matrixZip(
  deps: { db: Database },
  { userId, matrixId }: { userId: string; matrixId: string },
): Promise<{ filename: string; bytes: Uint8Array; contentType: string }> {
  const { stored, cells } = await loadMatrix(deps.db, { userId, matrixId });
  const { plan } = stored;
  const records = matrixRecords(stored, cells);
  const groups = comparisonsOf(stored, records);
  const files: Record<string, Uint8Array> = {};
  for (const record of records) files[`runs/${runFileName(record.runId)}`] = strToU8(runFileJson(record));
  files[`batches/${plan.batchId}/summary.json`] = strToU8(batchSummaryJson(summaryOf(stored, cells)));
  if (plan.comparisons) {
    for (const group of groups) files[`comparisons/${group.folder}/${COMPARISON_FILE_NAME}`] = strToU8(comparisonMarkdown(group));
    files["comparisons/index.md"] = strToU8(indexMarkdown({ entries: groups.map(comparisonIndexEntry), generatedAt: generatedAt(stored) }));
  }
  const bytes = zipSync(files, { level: 6, mtime: new Date(plan.timestamp) });
  return { filename: `${plan.batchId}.zip`, bytes, contentType: "application/zip" };
}
