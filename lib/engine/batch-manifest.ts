import { jobId, type JobParams } from "@/lib/core/batch/matrix";
import type { Database, Queryable } from "@/lib/db/database";
import { jobIndex, type BatchColumn, type BatchPromptRow } from "@/lib/db/batches/batch-config";
import { getBatchRun, type StoredBatchRun } from "@/lib/db/batches/get-batch-run";
import { listBatchCells, listBatchInputs, type BatchCell } from "@/lib/db/batches/list-batch-cells";
import { buildRunManifest, type JobState, type JobStatus, type RunManifest, type RunStatus } from "@/lib/formats/batch/run-manifest";
import { writeRunManifest } from "@/lib/formats/batch/write-run-manifest";

/** The run status run.json says for a run's status: a run not yet started is `planned`. */
export function manifestRunStatus(status: StoredBatchRun["status"]): RunStatus {
  return status === "queued" ? "planned" : status;
}

/**
 * A job's status from its cell: queued (waiting, or waiting for its retry) and cancelled before it
 * ran are `pending` (resume queues them again); ok and warning `success`; error and malformed
 * `failed`; skipped (budget, unknown price) `skipped`.
 */
export function jobStatus(status: BatchCell["status"]): JobStatus {
  switch (status) {
    case "running":
      return "running";
    case "ok":
    case "warning":
      return "success";
    case "error":
    case "malformed":
      return "failed";
    case "skipped":
      return "skipped";
    default:
      return "pending";
  }
}

/** What never changes in a run: its prompts and matrix entries. */
export interface BatchInputs {
  prompts: BatchPromptRow[];
  columns: BatchColumn[];
}

/** run.json of a batch from its stored run and cells (lib/formats/batch/run-manifest.ts builds it). */
export function batchManifestOf(stored: StoredBatchRun, inputs: BatchInputs, cells: readonly BatchCell[]): RunManifest {
  const { config } = stored;
  const jobs = cells.map((cell): JobState => {
    const index = jobIndex(config, cell);
    const prompt = inputs.prompts[cell.rowIndex];
    const status = jobStatus(cell.status);
    const ended = status === "success" || status === "failed" || status === "skipped";
    return {
      job: {
        job_id: jobId(index + 1),
        prompt_id: prompt.prompt_id,
        prompt: prompt.prompt,
        params: inputs.columns[cell.columnIndex].params as JobParams,
      },
      status,
      attempts: cell.attempts,
      startedAt: status === "skipped" ? null : cell.startedAt,
      completedAt: ended ? (cell.finishedAt ?? cell.startedAt) : null,
      estimatedCostUsd: config.estimates[cell.columnIndex] ?? null,
      actualCostUsd: status === "success" ? (cell.artifacts?.actual_cost_usd ?? null) : null,
      imagePaths: status === "success" ? (cell.artifacts?.image_paths ?? []) : [],
      receiptPaths: status === "success" ? (cell.artifacts?.receipt_paths ?? []) : [],
      warnings: cell.warnings,
      error: status === "failed" || status === "skipped" ? (cell.errorMessage ?? cell.errorCode ?? "failed") : null,
    };
  });
  const runStatus = manifestRunStatus(stored.status);
  const ended = runStatus === "completed" || runStatus === "cancelled" || runStatus === "failed";
  return buildRunManifest({
    runId: config.runId,
    createdAt: config.createdAt ? new Date(config.createdAt) : stored.createdAt,
    startedAt: stored.startedAt,
    completedAt: ended ? stored.finishedAt : null,
    status: runStatus,
    promptsFile: config.promptsFile,
    matrixFile: config.matrixFile,
    promptCount: config.promptCount,
    matrixBlocks: config.matrixBlocks,
    limits: config.limits,
    jobs,
  });
}

// A run's prompts and columns are read once per process, not at every rewrite (a 50,000-job run
// rewrites run.json after each save); runs are few, and a finished run's entry is dropped.
const inputCache = new Map<string, Promise<BatchInputs>>();

function inputsOf(tx: Queryable, stored: StoredBatchRun): Promise<BatchInputs> {
  let inputs = inputCache.get(stored.id);
  if (!inputs) {
    inputs = listBatchInputs(tx, { runId: stored.id, datasetId: stored.datasetId });
    inputs.catch(() => inputCache.delete(stored.id));
    if (inputCache.size > 100) inputCache.clear();
    inputCache.set(stored.id, inputs);
  }
  return inputs;
}

/** run.json of a batch as the database says it now; null when there is no such batch (for this caller, under asUser). */
export async function readBatchManifest(
  tx: Queryable,
  { runId }: { runId: string },
): Promise<{ stored: StoredBatchRun; manifest: RunManifest } | null> {
  const stored = await getBatchRun(tx, { id: runId });
  if (!stored) return null;
  const [inputs, cells] = await Promise.all([inputsOf(tx, stored), listBatchCells(tx, { runId })]);
  return { stored, manifest: batchManifestOf(stored, inputs, cells) };
}

interface Slot {
  current: Promise<void> | null;
  next: Promise<void> | null;
}
const slots = new Map<string, Slot>();

/**
 * Rewrites a batch's run.json from the database, atomically (writeRunManifest: a temp file
 * renamed over the old one). Rewrites of one run are serialised in this process, and calls made
 * while one is being written share the single rewrite that follows it: each call's promise
 * resolves after a write that read the database after the call was made, so the file never goes
 * back to an older state than the one the caller just saved.
 */
export function rewriteBatchManifest(db: Database, runId: string): Promise<void> {
  let slot = slots.get(runId);
  if (!slot) {
    slot = { current: null, next: null };
    slots.set(runId, slot);
  }
  const own = slot;
  const start = (): Promise<void> => {
    const write = writeOnce(db, runId).finally(() => {
      if (own.current === write) own.current = null;
      if (!own.current && !own.next) slots.delete(runId);
    });
    own.current = write;
    return write;
  };
  if (own.next) return own.next;
  if (!own.current) return start();
  const next = own.current
    .catch(() => undefined)
    .then(() => {
      own.next = null;
      return start();
    });
  own.next = next;
  return next;
}

async function writeOnce(db: Database, runId: string): Promise<void> {
  const read = await readBatchManifest(db, { runId });
  if (!read) return;
  writeRunManifest(read.stored.config.outDir, read.manifest);
  if (read.manifest.status === "completed" || read.manifest.status === "cancelled" || read.manifest.status === "failed") {
    inputCache.delete(runId);
  }
}
