import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import { zipSync, strToU8, type Zippable } from "fflate";
import type { BatchAction, BatchDetail, BatchDetailQuery, BatchPlan, BatchSummary, CreateBatchInput } from "@/lib/api/batches";
import { asUser } from "@/lib/db/as-user";
import { getBatchRun, listBatchRuns, type StoredBatchRun } from "@/lib/db/batches/get-batch-run";
import { listBatchCells, type BatchCell } from "@/lib/db/batches/list-batch-cells";
import type { Database, Queryable } from "@/lib/db/database";
import { databaseConfigFromEnv, defaultDataDir } from "@/lib/db/open-database";
import { cancelAllOpenCells } from "@/lib/db/runs/cancel-open-cells";
import { applyRunAction } from "@/lib/db/runs/run-lifecycle";
import { batchManifestOf, readBatchManifest, rewriteBatchManifest } from "@/lib/engine/batch-manifest";
import { checkBatch, createBatchRun, requeueBatch, resumeBatchRun } from "@/lib/engine/create-batch";
import { NotFoundError, RunActionError, TooLargeError } from "@/lib/engine/errors";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { MANIFEST_NAME, resolveRunPath } from "@/lib/formats/batch/write-run-manifest";
import { listBatchInputs } from "@/lib/db/batches/list-batch-cells";

// Image batch runs (specs/image-batch-runs.md, issue 14): the service the routes, the CLI, the
// terminal builder and the /batches page share. A batch is a run of kind `batch` on the one
// engine (one cell per job); its run folder (images, receipts, run.json) is a view of its cells.

/** Where a new batch writes: the CLI's --out, else a folder under the data folder. */
export interface CreateBatchOptions {
  /** The CLI's --out: the prompt and matrix texts are written there by name; a folder with run.json is refused. */
  outDir?: string;
  /** The data folder under which an API run's folder is made (<dataDir>/batches/<run_id>); the app's by default. */
  dataDir?: string;
  now?: () => Date;
}

/** A batch just created and queued. */
export interface CreatedBatch {
  /** The run's UUID (the API's {id}). */
  id: string;
  /** run.json's run_id: the folder's base name. */
  runId: string;
  /** The run folder, absolute. */
  outDir: string;
  plan: BatchPlan;
}

/** A batch resumed from its folder. */
export interface ResumedBatch extends CreatedBatch {
  /** Jobs queued again (failed, pending, interrupted, and budget-skipped ones the budget now allows). */
  requeued: number;
  /** true when no run of the database pointed at the folder and it was made again from run.json. */
  recreated: boolean;
}

/** A file of a batch, to send. */
export interface BatchFile {
  filename: string;
  bytes: Uint8Array;
  contentType: string;
}

/** The plan of a batch (the dry run): nothing is stored, written or sent. Input errors name the file and line. */
export async function planBatch(db: Database, userId: string, input: CreateBatchInput): Promise<BatchPlan> {
  void db;
  void userId;
  return checkBatch(input).plan;
}

/** The app's data folder (PARALLAXR_DATA_DIR, else .data in the project), where API runs' folders go. */
function appDataDir(): string {
  return databaseConfigFromEnv(process.env).dataDir ?? defaultDataDir;
}

/** Plans a batch, makes its run folder (run.json written as planned) and queues one cell per job. */
export async function createBatch(
  db: Database,
  userId: string,
  input: CreateBatchInput,
  options: CreateBatchOptions = {},
): Promise<CreatedBatch> {
  return createBatchRun({ db, now: options.now }, { userId, input, outDir: options.outDir, dataDir: options.dataDir ?? appDataDir() });
}

/**
 * `--resume`: the run recorded for the folder (else one made again from its run.json), with
 * failed, pending, interrupted and budget-skipped jobs queued again; success jobs stay done.
 */
export async function resumeBatch(db: Database, userId: string, input: { outDir: string }): Promise<ResumedBatch> {
  return resumeBatchRun({ db }, { userId, outDir: input.outDir });
}

/** A batch of userId's with its run.json as the database says it now; a 404 for anyone else. */
async function loadBatch(
  db: Database,
  userId: string,
  id: string,
): Promise<{ stored: StoredBatchRun; manifest: RunManifest; cells: BatchCell[] }> {
  return asUser(db, userId, async (tx) => {
    const stored = await getBatchRun(tx, { id });
    if (!stored) throw new NotFoundError(`Batch ${id} not found.`);
    const [inputs, cells] = await Promise.all([
      listBatchInputs(tx, { runId: id, datasetId: stored.datasetId }),
      listBatchCells(tx, { runId: id }),
    ]);
    return { stored, manifest: batchManifestOf(stored, inputs, cells), cells };
  });
}

/** The summary panel's figures of a batch (elapsed, throughput, costs, budget remaining) from its run.json and cells. */
function summaryOf(stored: StoredBatchRun, manifest: RunManifest, cells: readonly BatchCell[], now = Date.now()): BatchSummary {
  const counts = { total: manifest.jobs.length, pending: 0, running: 0, success: 0, failed: 0, skipped: 0 };
  let images = 0;
  let lastEnd = 0;
  for (const job of manifest.jobs) {
    counts[job.status] += 1;
    images += job.artifacts.image_paths.length;
    if (job.completed_at) lastEnd = Math.max(lastEnd, Date.parse(job.completed_at));
  }
  const spent = cells.reduce((sum, cell) => sum + (cell.status === "ok" || cell.status === "warning" ? (cell.costUsd ?? 0) : 0), 0);
  const start = stored.startedAt?.getTime() ?? null;
  const end = stored.finishedAt?.getTime() ?? (stored.status === "running" ? now : Math.max(lastEnd, start ?? 0));
  const elapsedSeconds = start === null ? 0 : Math.max(0, end - start) / 1000;
  const finished = counts.success + counts.failed;
  const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
  const budget = stored.config.limits.budget_usd;
  return {
    id: stored.id,
    runId: stored.config.runId,
    status: manifest.status,
    outDir: stored.config.outDir,
    createdAt: manifest.created_at,
    startedAt: manifest.started_at,
    completedAt: manifest.completed_at,
    counts,
    images,
    plannedImages: manifest.inputs.planned_images,
    elapsedSeconds,
    jobsPerMinute: finished > 0 && elapsedSeconds > 0 ? Math.round((finished / elapsedSeconds) * 60 * 100) / 100 : null,
    estimatedCostUsd: manifest.summary.estimated_cost_usd,
    actualCostUsd: manifest.summary.actual_cost_usd,
    spentUsd: round(spent),
    budgetUsd: budget,
    budgetMode: stored.config.limits.budget_mode,
    budgetRemainingUsd: budget === null ? null : round(Math.max(0, budget - spent)),
    limits: stored.config.limits,
    promptsFile: stored.config.promptsFile,
    matrixFile: stored.config.matrixFile,
  };
}

/** One batch of userId's: its summary and a page of its jobs. Another user's batch is a 404. */
export async function getBatch(db: Database, userId: string, id: string, query: Partial<BatchDetailQuery> = {}): Promise<BatchDetail> {
  const { stored, manifest, cells } = await loadBatch(db, userId, id);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 100;
  const matching = query.status ? manifest.jobs.filter((job) => job.status === query.status) : manifest.jobs;
  return {
    batch: summaryOf(stored, manifest, cells),
    jobs: matching.slice(offset, offset + limit),
    jobsTotal: matching.length,
    offset,
    limit,
  };
}

/** userId's batches, newest first. */
export async function listBatches(db: Database, userId: string, options: { limit?: number } = {}): Promise<BatchSummary[]> {
  return asUser(db, userId, async (tx) => {
    const runs = await listBatchRuns(tx, { limit: options.limit ?? 20 });
    const summaries: BatchSummary[] = [];
    for (const stored of runs) {
      const read = await readBatchManifest(tx, { runId: stored.id });
      if (read) summaries.push(summaryOf(read.stored, read.manifest, await listBatchCells(tx, { runId: stored.id })));
    }
    return summaries;
  });
}

/** run.json of a batch as the database says it now (the file on disk is the same view). */
export async function batchManifest(db: Database, userId: string, id: string): Promise<RunManifest> {
  return (await loadBatch(db, userId, id)).manifest;
}

/** The most bytes one image or receipt may have to be served (a 4K PNG is a few tens of MB). */
export const MAX_BATCH_FILE_BYTES = 128 * 1024 * 1024;
/** The most bytes a batch's zip may gather; a larger run folder is copied from disk (or with the CLI). */
export const MAX_BATCH_ZIP_BYTES = 1024 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  json: "application/json; charset=utf-8",
};

function contentTypeOf(name: string): string {
  return CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? "application/octet-stream";
}

/** Every file a batch's succeeded jobs list, images and receipts, in job order. */
function artifactNames(manifest: RunManifest): string[] {
  return manifest.jobs.flatMap((job) => (job.status === "success" ? [...job.artifacts.image_paths, ...job.artifacts.receipt_paths] : []));
}

/**
 * An image or receipt of a batch: only a name its succeeded jobs' artifacts list, only for its
 * owner; anything else (another user's batch, a file not listed, `..`) a 404. The name is looked
 * up among the artifacts and only then resolved inside the run folder, never joined as given.
 */
export async function batchImage(db: Database, userId: string, id: string, file: string): Promise<BatchFile> {
  const { stored, manifest } = await loadBatch(db, userId, id);
  const listed = artifactNames(manifest).find((name) => name === file);
  if (!listed) throw new NotFoundError(`Batch ${id} has no file ${JSON.stringify(file.slice(0, 200))}.`, "file");
  let path: string;
  try {
    path = resolveRunPath(stored.config.outDir, listed);
  } catch {
    throw new NotFoundError(`Batch ${id} has no file ${JSON.stringify(listed)}.`, "file");
  }
  const size = fileSize(path);
  if (size === null)
    throw new NotFoundError(`${listed} is listed by batch ${id} but is no longer in its folder ${stored.config.outDir}.`, "file");
  if (size > MAX_BATCH_FILE_BYTES)
    throw new TooLargeError(`${listed} is larger than ${MAX_BATCH_FILE_BYTES} bytes; open it from ${stored.config.outDir}.`);
  const bytes = readRunFile(path);
  if (!bytes) throw new NotFoundError(`Batch ${id} has no file ${JSON.stringify(listed)}.`, "file");
  return { filename: listed, bytes, contentType: contentTypeOf(listed) };
}

/**
 * The size of a regular file in the run folder, or null. A symlink is not followed (lstat): one
 * planted under an artifact's name (pointing at /etc/passwd, say) is not the batch's file.
 */
function fileSize(path: string): number | null {
  try {
    const stat = lstatSync(path);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}

/** Reads a regular file without following a symlink put in its place since it was sized (O_NOFOLLOW), or null. */
function readRunFile(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The run folder as a zip under <run_id>/: run.json as the database says it now, the prompt and
 * matrix copies, and every image and receipt the artifacts list (other files in the folder are
 * not sent). Images are stored as they are (already compressed), the rest deflated.
 */
export async function batchZip(db: Database, userId: string, id: string): Promise<BatchFile> {
  const { stored, manifest } = await loadBatch(db, userId, id);
  const { outDir, runId } = stored.config;
  const names = [manifest.inputs.prompts_path, manifest.inputs.matrix_path, ...artifactNames(manifest)];
  let total = 0;
  const present: string[] = [];
  for (const name of names) {
    const size = fileSize(resolveRunPath(outDir, name));
    if (size === null) continue;
    total += size;
    present.push(name);
  }
  if (total > MAX_BATCH_ZIP_BYTES) {
    throw new TooLargeError(
      `Batch ${id}'s folder holds ${total} bytes, more than the ${MAX_BATCH_ZIP_BYTES} a download gathers; copy ${outDir} instead.`,
    );
  }
  const mtime = new Date(manifest.created_at);
  const files: Zippable = { [`${runId}/${MANIFEST_NAME}`]: [strToU8(`${JSON.stringify(manifest, null, 2)}\n`), { level: 6, mtime }] };
  for (const name of present) {
    const image = !name.endsWith(".json") && name !== manifest.inputs.prompts_path && name !== manifest.inputs.matrix_path;
    const bytes = readRunFile(resolveRunPath(outDir, name));
    if (bytes) files[`${runId}/${name}`] = [bytes, { level: image ? 0 : 6, mtime }];
  }
  return { filename: `${runId}.zip`, bytes: zipSync(files), contentType: "application/zip" };
}

/**
 * Pause, resume or cancel (the runs' own actions; cancel keeps every output). Resume of a batch
 * that has ended (cancelled, completed with failures) queues its failed, pending and
 * budget-skipped jobs again, as resumeBatch does. run.json follows at once.
 */
export async function changeBatchStatus(db: Database, userId: string, id: string, action: BatchAction): Promise<BatchSummary> {
  const result = await asUser(db, userId, async (tx) => {
    const stored = await getBatchRun(tx, { id });
    if (!stored) throw new NotFoundError(`Batch ${id} not found.`);
    if (action === "resume" && stored.status !== "paused") return reopen(tx, stored);
    const applied = await applyRunAction(tx, { id, action });
    if (!applied?.applied) throw new RunActionError(`Cannot ${action} a batch that is ${applied?.status ?? stored.status}.`);
    return applied;
  });
  void result;
  if (action === "cancel") await cancelAllOpenCells(db, { runId: id, userId });
  await rewriteBatchManifest(db, id);
  const { stored, manifest, cells } = await loadBatch(db, userId, id);
  return summaryOf(stored, manifest, cells);
}

/** Resume of an ended batch: its unfinished jobs queued again from its folder's copies. */
async function reopen(tx: Queryable, stored: StoredBatchRun): Promise<{ applied: true }> {
  if (stored.status === "queued" || stored.status === "running" || stored.status === "planned") {
    throw new RunActionError(`Cannot resume a batch that is ${stored.status === "queued" ? "planned" : stored.status}.`);
  }
  const { outDir, promptsFile, matrixFile, limits } = stored.config;
  // The folder's copies make the run's jobs again (with its range), so job k is the same job.
  // Not through a symlink: one planted as a copy would feed any file on the server into the jobs.
  const text = (name: string) => {
    const bytes = readRunFile(resolveRunPath(outDir, name));
    if (!bytes) throw new RunActionError(`Cannot resume: ${name} in ${outDir} is missing or not a regular file (a symlink is not read).`);
    return bytes.toString("utf8");
  };
  const checked = checkBatch({
    prompts: { name: promptsFile, text: text(promptsFile) },
    matrix: { name: matrixFile, text: text(matrixFile) },
    promptRange: stored.config.promptRange,
    concurrency: limits.concurrency,
    providerConcurrency: limits.provider_concurrency,
    budgetUsd: limits.budget_usd,
    budgetMode: limits.budget_mode,
  });
  await requeueBatch(tx, stored, checked);
  return { applied: true };
}

export const pauseBatch = (db: Database, userId: string, id: string) => changeBatchStatus(db, userId, id, "pause");
export const cancelBatch = (db: Database, userId: string, id: string) => changeBatchStatus(db, userId, id, "cancel");
