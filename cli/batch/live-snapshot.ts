/**
 * What the live status view of a batch run shows at one moment (spec: image-batch-runs.md,
 * "During Run"): the run's status, its jobs counted by status, the jobs running and the latest
 * finished, and the summary panel's figures. `liveSnapshot` makes one from the batch as
 * GET /api/v1/batches/{id} (lib/services/batches.ts getBatch) gives it.
 */
import type { BatchJob, BatchJobStatus, BatchRunStatus, BatchSummary } from "@/lib/api/batches";

/** One row of the live table. */
export interface LiveJobRow {
  jobId: string;
  promptId: string;
  provider: string;
  model: string;
  status: BatchJobStatus;
  /** Seconds the job ran (so far, while running); null before it started. */
  seconds: number | null;
}

/** The live view's input: the run's state at one moment. */
export interface LiveSnapshot {
  runId: string;
  status: BatchRunStatus;
  counts: Record<BatchJobStatus, number> & { total: number };
  /** Running jobs first, then the latest finished; the view shows as many as fit. */
  rows: LiveJobRow[];
  elapsedSeconds: number;
  /** Finished jobs per minute; null before one finished. */
  jobsPerMinute: number | null;
  estimatedCostUsd: number;
  actualCostUsd: number | null;
  budgetUsd: number | null;
  budgetRemainingUsd: number | null;
}

/** Most rows a snapshot carries: more than a terminal shows. */
export const MAX_LIVE_ROWS = 12;

const text = (value: unknown) => (typeof value === "string" ? value : value === undefined || value === null ? "" : String(value));

function secondsOf(job: BatchJob, now: number): number | null {
  if (!job.started_at) return null;
  const start = Date.parse(job.started_at);
  const end = job.completed_at ? Date.parse(job.completed_at) : now;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : null;
}

/**
 * The snapshot of a batch from its summary and jobs (any page of them): the running jobs in job
 * order, then the finished ones, latest first, at most MAX_LIVE_ROWS.
 */
export function liveSnapshot(batch: BatchSummary, jobs: readonly BatchJob[], now: Date = new Date()): LiveSnapshot {
  const at = now.getTime();
  const running = jobs.filter((j) => j.status === "running");
  const finished = jobs
    .filter((j) => j.completed_at && (j.status === "success" || j.status === "failed" || j.status === "skipped"))
    .sort((a, b) => Date.parse(b.completed_at!) - Date.parse(a.completed_at!) || b.job_id.localeCompare(a.job_id));
  const rows = [...running, ...finished].slice(0, MAX_LIVE_ROWS).map((job): LiveJobRow => ({
    jobId: job.job_id,
    promptId: job.prompt_id,
    provider: text(job.params.provider),
    model: text(job.params.model),
    status: job.status,
    seconds: secondsOf(job, at),
  }));
  return {
    runId: batch.runId,
    status: batch.status,
    counts: { ...batch.counts },
    rows,
    elapsedSeconds: batch.elapsedSeconds,
    jobsPerMinute: batch.jobsPerMinute,
    estimatedCostUsd: batch.estimatedCostUsd,
    actualCostUsd: batch.actualCostUsd,
    budgetUsd: batch.budgetUsd,
    budgetRemainingUsd: batch.budgetRemainingUsd,
  };
}
