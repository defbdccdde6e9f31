/**
 * What the /batches page holds of one open batch (the API's summary and the jobs read so far),
 * and the formatting of the summary panel's figures, pure and tested.
 */
import type { BatchJob, BatchSummary } from "@/lib/api/batches";

export interface BatchView {
  summary: BatchSummary;
  /** The first page of jobs, in job order (the status table's per-model counts read these). */
  jobs: BatchJob[];
  /** Jobs the batch has in all. */
  jobsTotal: number;
}

export const FINISHED_STATUSES: ReadonlySet<string> = new Set(["completed", "cancelled", "failed"]);

/** "0.4 s", "12 s", "3 min 05 s", "1 h 02 min"; "–" before the run starts. */
export function formatElapsed(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) return "–";
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  const whole = Math.floor(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** "12 jobs/min", "0.5 jobs/min"; "–" until a job has finished. */
export function formatThroughput(jobsPerMinute: number | null): string {
  if (jobsPerMinute === null || !Number.isFinite(jobsPerMinute) || jobsPerMinute <= 0) return "–";
  return `${jobsPerMinute >= 10 ? Math.round(jobsPerMinute) : jobsPerMinute.toFixed(1)} jobs/min`;
}

/** A status as a person reads it: "Completed", "Cancelled", "Running". */
export function statusLabel(status: string): string {
  return status === "" ? status : `${status[0].toUpperCase()}${status.slice(1)}`;
}
