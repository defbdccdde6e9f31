/**
 * `--resume` from a run's run.json: the plan rebuilt from the folder's input copies must match
 * the stored jobs by id, prompt and parameters; `success` jobs keep everything they recorded, and
 * failed, pending, interrupted (`running`) and skipped jobs go back to `pending` so the budget
 * decides them again with what the run already spent.
 */
import { matchStoredJobs, type BatchJob } from "@/lib/core/batch/matrix";
import type { JobState, RunManifest } from "@/lib/formats/batch/run-manifest";

export interface ResumedJobs {
  jobs: JobState[];
  /** Spent by the jobs that succeeded: their actual cost where known, else their estimate. */
  spentUsd: number;
  requeued: number;
}

const date = (at: string | null) => (at ? new Date(at) : null);

export function resumeJobStates(manifest: RunManifest, plan: readonly BatchJob[]): ResumedJobs {
  const match = matchStoredJobs(manifest.jobs, plan);
  const differ = [...match.changed, ...match.added, ...match.removed];
  if (differ.length > 0) {
    throw new Error(
      `the run's prompt or matrix copy no longer makes the jobs run.json lists (${differ.slice(0, 3).join(", ")}` +
        `${differ.length > 3 ? ", ..." : ""}): restore ${manifest.inputs.prompts_path} and ${manifest.inputs.matrix_path} or start a new run`,
    );
  }
  const stored = new Map(manifest.jobs.map((j) => [j.job_id, j]));
  let spent = 0;
  let requeued = 0;
  const jobs = plan.map((job): JobState => {
    const old = stored.get(job.job_id)!;
    if (old.status === "success") {
      spent += old.actual_cost_usd ?? old.estimated_cost_usd ?? 0;
      return {
        job,
        status: "success",
        attempts: old.attempts,
        startedAt: date(old.started_at),
        completedAt: date(old.completed_at),
        estimatedCostUsd: old.estimated_cost_usd,
        actualCostUsd: old.actual_cost_usd,
        imagePaths: old.artifacts.image_paths,
        receiptPaths: old.artifacts.receipt_paths,
        warnings: old.warnings,
        error: null,
      };
    }
    requeued++;
    return { job, status: "pending", attempts: old.attempts, estimatedCostUsd: old.estimated_cost_usd };
  });
  return { jobs, spentUsd: Math.round(spent * 1e6) / 1e6, requeued };
}
