import type { BatchAction, BatchDetail, BatchDetailQuery, BatchJob, BatchPlan, CreateBatchInput } from "@/lib/api/batches";
import { changeBatchStatus, createBatch, getBatch, resumeBatch } from "@/lib/services/batches";
import type { DataTarget } from "../data-target";
import { startLocalEngine } from "../local-engine";

/** A batch as the command follows it, wherever it runs. */
export interface StartedBatch {
  id: string;
  runId: string;
  /** The run folder where the run writes (this machine's --out, or the server's folder). */
  outDir: string;
  plan: BatchPlan | null;
  /** Jobs queued again by --resume, null for a new run. */
  requeued: number | null;
}

/**
 * Where `parallaxr batch-run` makes and follows its batch: the service functions the API's
 * routes call, on the data folder with a worker in this process that writes into --out.
 */
export interface BatchSource {
  create(input: CreateBatchInput, outDir: string): Promise<StartedBatch>;
  resume(outDir: string): Promise<StartedBatch>;
  get(id: string, query: Partial<BatchDetailQuery>): Promise<BatchDetail>;
  change(id: string, action: BatchAction): Promise<unknown>;
  /** A job reached success, failed or skipped (a server's batch: its images and receipts are downloaded). */
  jobFinished?(id: string, job: BatchJob): Promise<void>;
  /** The batch ended or the command stops following it (a server's batch: run.json is downloaded). */
  ended?(id: string): Promise<void>;
  /** How often following the batch reads it again, in milliseconds. */
  readonly pollMs: number;
  close(): Promise<void>;
}

/** Opens the database target with a worker that runs the batch's jobs in this process. */
export async function openBatchSource(
  target: Extract<DataTarget, { kind: "database" }>,
  { dotenv, concurrency, onWarning }: { dotenv: Record<string, string>; concurrency: number; onWarning: (message: string) => void },
): Promise<BatchSource> {
  const { db, close } = await startLocalEngine(target, { dotenv, concurrency, onWarning, images: true });
  const userId = target.userId;
  return {
    async create(input, outDir) {
      const created = await createBatch(db, userId, input, { outDir });
      return { id: created.id, runId: created.runId, outDir: created.outDir, plan: created.plan, requeued: null };
    },
    async resume(outDir) {
      const resumed = await resumeBatch(db, userId, { outDir });
      return { id: resumed.id, runId: resumed.runId, outDir: resumed.outDir, plan: resumed.plan, requeued: resumed.requeued };
    },
    get: (id, query) => getBatch(db, userId, id, query),
    change: (id, action) => changeBatchStatus(db, userId, id, action),
    pollMs: 50,
    close,
  };
}
