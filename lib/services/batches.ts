import type { BatchAction, BatchDetail, BatchDetailQuery, BatchPlan, BatchSummary, CreateBatchInput } from "@/lib/api/batches";
import type { Database } from "@/lib/db/database";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";

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

const pending = (what: string): never => {
  throw new Error(`${what} is not implemented yet`);
};

/** The plan of a batch (the dry run): nothing is stored, written or sent. Input errors name the file and line. */
export async function planBatch(db: Database, userId: string, input: CreateBatchInput): Promise<BatchPlan> {
  void db;
  void userId;
  void input;
  return pending("planBatch");
}

/** Plans a batch, makes its run folder (run.json written as planned) and queues one cell per job. */
export async function createBatch(
  db: Database,
  userId: string,
  input: CreateBatchInput,
  options: CreateBatchOptions = {},
): Promise<CreatedBatch> {
  void db;
  void userId;
  void input;
  void options;
  return pending("createBatch");
}

/**
 * `--resume`: the run recorded for the folder (else one made again from its run.json), with
 * failed, pending, interrupted and budget-skipped jobs queued again; success jobs stay done.
 */
export async function resumeBatch(db: Database, userId: string, input: { outDir: string }): Promise<ResumedBatch> {
  void db;
  void userId;
  void input;
  return pending("resumeBatch");
}

/** One batch of userId's: its summary and a page of its jobs. Another user's batch is a 404. */
export async function getBatch(db: Database, userId: string, id: string, query: Partial<BatchDetailQuery> = {}): Promise<BatchDetail> {
  void db;
  void userId;
  void id;
  void query;
  return pending("getBatch");
}

/** userId's batches, newest first. */
export async function listBatches(db: Database, userId: string, options: { limit?: number } = {}): Promise<BatchSummary[]> {
  void db;
  void userId;
  void options;
  return pending("listBatches");
}

/** run.json of a batch as the database says it now (the file on disk is the same view). */
export async function batchManifest(db: Database, userId: string, id: string): Promise<RunManifest> {
  void db;
  void userId;
  void id;
  return pending("batchManifest");
}

/** An image or receipt of a batch: only a name its artifacts list, only for its owner; anything else a 404. */
export async function batchImage(db: Database, userId: string, id: string, file: string): Promise<BatchFile> {
  void db;
  void userId;
  void id;
  void file;
  return pending("batchImage");
}

/** The run folder as a zip: run.json, the input copies, and every image and receipt the artifacts list. */
export async function batchZip(db: Database, userId: string, id: string): Promise<BatchFile> {
  void db;
  void userId;
  void id;
  return pending("batchZip");
}

/**
 * Pause, resume or cancel (the runs' own actions; cancel keeps every output). Resume of a batch
 * that has ended (cancelled, completed with failures) queues its failed, pending and
 * budget-skipped jobs again, as resumeBatch does.
 */
export async function changeBatchStatus(db: Database, userId: string, id: string, action: BatchAction): Promise<BatchSummary> {
  void db;
  void userId;
  void id;
  void action;
  return pending("changeBatchStatus");
}

export const pauseBatch = (db: Database, userId: string, id: string) => changeBatchStatus(db, userId, id, "pause");
export const cancelBatch = (db: Database, userId: string, id: string) => changeBatchStatus(db, userId, id, "cancel");
