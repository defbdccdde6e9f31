/**
 * run.json, schema v1 (spec: image-batch-runs.md, "Run Manifest"; the JSON Schema ships as
 * schemas/run.schema.json), built from a run's state. Every path in it is relative to the run
 * folder: the prompt and matrix files are the copies in the folder, recorded by their names, so a
 * moved folder still resolves and `--resume --out DIR` needs nothing else.
 */
import type { BatchJob, BudgetMode, JobParams } from "@/lib/core/batch/matrix";

export const RUN_STATUSES = ["planned", "running", "paused", "completed", "cancelled", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const JOB_STATUSES = ["pending", "running", "success", "failed", "skipped"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface ManifestJob {
  job_id: string;
  prompt_id: string;
  prompt: string;
  params: JobParams;
  status: JobStatus;
  attempts: number;
  started_at: string | null;
  completed_at: string | null;
  estimated_cost_usd: number | null;
  actual_cost_usd: number | null;
  artifacts: { image_paths: string[]; receipt_paths: string[] };
  warnings: string[];
  error: string | null;
}

export interface RunManifest {
  schema_version: 1;
  run_id: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  status: RunStatus;
  inputs: {
    prompts_path: string;
    matrix_path: string;
    prompt_count: number;
    matrix_blocks: number;
    expanded_jobs: number;
    planned_images: number;
  };
  limits: {
    concurrency: number;
    provider_concurrency: Record<string, number>;
    budget_usd: number | null;
    budget_mode: BudgetMode;
  };
  summary: {
    succeeded: number;
    failed: number;
    skipped: number;
    estimated_cost_usd: number;
    actual_cost_usd: number | null;
  };
  jobs: ManifestJob[];
}

/** One job's state as the run knows it; what is left out is the job's state before it ran. */
export interface JobState {
  job: BatchJob;
  status: JobStatus;
  attempts?: number;
  startedAt?: Date | null;
  completedAt?: Date | null;
  estimatedCostUsd: number | null;
  actualCostUsd?: number | null;
  imagePaths?: string[];
  receiptPaths?: string[];
  warnings?: string[];
  error?: string | null;
}

export interface RunState {
  runId: string;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  status: RunStatus;
  /** Names of the copies in the run folder (e.g. prompts.txt, matrix.yaml). */
  promptsFile: string;
  matrixFile: string;
  promptCount: number;
  matrixBlocks: number;
  limits: RunManifest["limits"];
  jobs: JobState[];
}

/** 2026-01-06T19:03:21Z: UTC to the second, as the spec writes it. */
export function manifestTime(at: Date): string {
  if (Number.isNaN(at.getTime())) throw new Error("invalid timestamp in run state");
  return at.toISOString().replace(/\.\d{3}Z$/, "Z");
}

const time = (at: Date | null | undefined) => (at ? manifestTime(at) : null);

/** A path inside the run folder, written with forward slashes; refused if it could leave the folder. */
export function relativeRunPath(path: string): string {
  const p = path.replace(/\\/g, "/");
  if (p === "" || p.startsWith("/") || /^[A-Za-z]:/.test(p) || p.split("/").includes("..")) {
    throw new Error(`"${path}" is not a path inside the run folder`);
  }
  return p;
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

export function buildRunManifest(state: RunState): RunManifest {
  if (!state.runId) throw new Error("a run needs an id (the base name of --out)");
  const jobs = state.jobs.map((s): ManifestJob => ({
    job_id: s.job.job_id,
    prompt_id: s.job.prompt_id,
    prompt: s.job.prompt,
    params: s.job.params,
    status: s.status,
    attempts: s.attempts ?? 0,
    started_at: time(s.startedAt),
    completed_at: time(s.completedAt),
    estimated_cost_usd: s.estimatedCostUsd,
    actual_cost_usd: s.actualCostUsd ?? null,
    artifacts: {
      image_paths: (s.imagePaths ?? []).map(relativeRunPath),
      receipt_paths: (s.receiptPaths ?? []).map(relativeRunPath),
    },
    warnings: s.warnings ?? [],
    error: s.error ?? null,
  }));
  const count = (status: JobStatus) => jobs.filter((j) => j.status === status).length;
  const actuals = jobs.filter((j) => j.actual_cost_usd !== null);
  return {
    schema_version: 1,
    run_id: state.runId,
    created_at: manifestTime(state.createdAt),
    started_at: time(state.startedAt),
    completed_at: time(state.completedAt),
    status: state.status,
    inputs: {
      prompts_path: relativeRunPath(state.promptsFile),
      matrix_path: relativeRunPath(state.matrixFile),
      prompt_count: state.promptCount,
      matrix_blocks: state.matrixBlocks,
      expanded_jobs: jobs.length,
      planned_images: jobs.reduce((n, j) => n + j.params.n, 0),
    },
    limits: state.limits,
    summary: {
      succeeded: count("success"),
      failed: count("failed"),
      skipped: count("skipped"),
      estimated_cost_usd: round(jobs.reduce((sum, j) => sum + (j.estimated_cost_usd ?? 0), 0)),
      actual_cost_usd: actuals.length ? round(actuals.reduce((sum, j) => sum + (j.actual_cost_usd ?? 0), 0)) : null,
    },
    jobs,
  };
}
