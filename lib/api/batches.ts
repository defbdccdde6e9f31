import { z } from "zod";
import { envelope, idParams, queryParams } from "./schemas";

// Image batch runs' requests and answers (specs/image-batch-runs.md, issue 14): shared by the
// routes, the /batches page and `parallaxr batch-run` when it talks to a server. Plans and jobs
// keep run.json's snake_case (they are its fields); the API's own envelope is camelCase.

/** The most characters a prompt set may hold (10,000 prompts of 400 characters, with room). */
export const MAX_BATCH_PROMPTS_CHARS = 4_000_000;
/** The most characters a matrix file may hold (lib/core/batch/matrix.ts MAX_MATRIX_BYTES). */
export const MAX_BATCH_MATRIX_CHARS = 256 * 1024;
/** The most calls one batch may have in flight, in all and per provider. */
export const MAX_BATCH_CONCURRENCY = 64;
/** The most jobs one page of GET /api/v1/batches/{id} lists. */
export const MAX_BATCH_JOBS_PAGE = 1_000;

/**
 * A file's name as it is copied into the run folder and recorded in run.json: a plain name
 * (letters, digits, ".", "_", "-", " "), never a path, never hidden, never run.json or receipt-*.
 */
export const BATCH_FILE_NAME = /^(?!\.)(?!run\.json$)(?!receipt-)[A-Za-z0-9 ._-]{1,200}$/;

function batchFile(what: string, maxChars: number) {
  return envelope({
    name: z
      .string()
      .regex(
        BATCH_FILE_NAME,
        `the ${what} file's name must be a plain file name (letters, digits, ".", "_", "-"), not run.json or receipt-*`,
      ),
    text: z.string().max(maxChars, `the ${what} file may hold at most ${maxChars.toLocaleString("en-US")} characters`),
  });
}

export const budgetModeSchema = z.enum(["estimate", "strict", "off"]);
export type BatchBudgetMode = z.infer<typeof budgetModeSchema>;

const concurrencySchema = z.number().int().min(1).max(MAX_BATCH_CONCURRENCY);

/**
 * A batch to plan or run: the prompt set (.txt or .csv, by its name) and the matrix (.yaml or
 * .json) as texts. Limits given here override the matrix's own `limits`; those apply otherwise.
 */
export const createBatchSchema = envelope({
  prompts: batchFile("prompt", MAX_BATCH_PROMPTS_CHARS),
  matrix: batchFile("matrix", MAX_BATCH_MATRIX_CHARS),
  /** The builder's range filter: "3-10" (prompts 3 to 10, counted from 1), or "5". */
  promptRange: z
    .string()
    .regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, 'promptRange is a range of prompt numbers such as "3-10"')
    .optional(),
  concurrency: concurrencySchema.optional(),
  /** Per-provider caps: {"openai": 1, "gemini": 2}. */
  providerConcurrency: z.record(z.string().min(1).max(100), concurrencySchema).optional(),
  budgetUsd: z.number().min(0).max(1_000_000).nullable().optional(),
  budgetMode: budgetModeSchema.optional(),
  /** true: answer the plan (200) and store, write and send nothing. */
  dryRun: z.boolean().optional(),
});
export type CreateBatchInput = z.input<typeof createBatchSchema>;

/** The limits a batch runs with (run.json's `limits`). */
export const batchLimitsSchema = z.object({
  concurrency: z.number().int(),
  provider_concurrency: z.record(z.string(), z.number().int()),
  budget_usd: z.number().nullable(),
  budget_mode: budgetModeSchema,
});
export type BatchLimits = z.infer<typeof batchLimitsSchema>;

/** One provider/model line of a plan's breakdown. */
export const batchBreakdownRowSchema = z.object({
  provider: z.string(),
  model: z.string(),
  jobs: z.number().int(),
  images: z.number().int(),
  estimated_cost_usd: z.number().nullable(),
  unknown_price_jobs: z.number().int(),
});

/** The plan (the dry run's facts, lib/core/batch/dry-run.ts planSummary) with the limits it was made with. */
export const batchPlanSchema = z.object({
  prompt_count: z.number().int(),
  matrix_blocks: z.number().int(),
  include_entries: z.number().int(),
  combinations: z.number().int(),
  jobs: z.number().int(),
  images: z.number().int(),
  jobs_to_run: z.number().int(),
  skipped_for_budget: z.number().int(),
  skipped_unknown_price: z.number().int(),
  estimated_cost_usd: z.number(),
  breakdown: z.array(batchBreakdownRowSchema),
  warnings: z.array(z.string()),
  limits: batchLimitsSchema,
  /** The prompt and matrix files' names, as the run folder keeps them. */
  prompts_file: z.string(),
  matrix_file: z.string(),
});
export type BatchPlan = z.infer<typeof batchPlanSchema>;

export const batchRunStatusSchema = z.enum(["planned", "running", "paused", "completed", "cancelled", "failed"]);
export type BatchRunStatus = z.infer<typeof batchRunStatusSchema>;
export const batchJobStatusSchema = z.enum(["pending", "running", "success", "failed", "skipped"]);
export type BatchJobStatus = z.infer<typeof batchJobStatusSchema>;

/** One job as run.json lists it. */
export const batchJobSchema = z.object({
  job_id: z.string(),
  prompt_id: z.string(),
  prompt: z.string(),
  params: z.record(z.string(), z.unknown()),
  status: batchJobStatusSchema,
  attempts: z.number().int(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  estimated_cost_usd: z.number().nullable(),
  actual_cost_usd: z.number().nullable(),
  artifacts: z.object({ image_paths: z.array(z.string()), receipt_paths: z.array(z.string()) }),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
});
export type BatchJob = z.infer<typeof batchJobSchema>;

/** A batch as lists and the summary panel show it. */
export const batchSummarySchema = z.object({
  /** The run's id (a UUID): the API's {id}. */
  id: z.string(),
  /** run.json's run_id: the run folder's base name. */
  runId: z.string(),
  status: batchRunStatusSchema,
  /** The run folder (absolute, on the machine that runs the batch). */
  outDir: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  counts: z.object({
    total: z.number().int(),
    pending: z.number().int(),
    running: z.number().int(),
    success: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
  }),
  /** Images written so far. */
  images: z.number().int(),
  plannedImages: z.number().int(),
  /** Seconds from the first job's start to the end (or to now while it runs); 0 before it starts. */
  elapsedSeconds: z.number(),
  /** Finished jobs (success or failed) per minute of elapsed time; null before a minute's worth can be said (nothing finished). */
  jobsPerMinute: z.number().nullable(),
  /** Every job's estimate, run or skipped (run.json's summary.estimated_cost_usd). */
  estimatedCostUsd: z.number(),
  /** What the providers said they charged, where they said it; null when none did. */
  actualCostUsd: z.number().nullable(),
  /** Counted against the budget: each finished job's actual cost, else its estimate. */
  spentUsd: z.number(),
  budgetUsd: z.number().nullable(),
  budgetMode: budgetModeSchema,
  /** budgetUsd - spentUsd, never below 0; null without a budget. */
  budgetRemainingUsd: z.number().nullable(),
  limits: batchLimitsSchema,
  promptsFile: z.string(),
  matrixFile: z.string(),
});
export type BatchSummary = z.infer<typeof batchSummarySchema>;

/** GET /api/v1/batches/{id}: the summary and one page of jobs, in job order. */
export const batchDetailSchema = z.object({
  batch: batchSummarySchema,
  jobs: z.array(batchJobSchema),
  /** Jobs matching the filter, over all pages. */
  jobsTotal: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type BatchDetail = z.infer<typeof batchDetailSchema>;

export const batchDetailQuerySchema = queryParams({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_BATCH_JOBS_PAGE).default(100),
  status: batchJobStatusSchema.optional(),
});
export type BatchDetailQuery = z.infer<typeof batchDetailQuerySchema>;

export const listBatchesQuerySchema = queryParams({
  limit: z.coerce.number().int().min(1).max(200).default(20),
});

export const batchListSchema = z.object({ batches: z.array(batchSummarySchema) });
export type BatchList = z.infer<typeof batchListSchema>;

/** POST /api/v1/batches: the plan (dryRun) or the batch just queued with its plan. */
export const createBatchOutputSchema = z.union([
  z.object({ dryRun: z.literal(true), plan: batchPlanSchema }),
  z.object({ batch: batchSummarySchema, plan: batchPlanSchema }),
]);
export type CreateBatchOutput = z.infer<typeof createBatchOutputSchema>;

/** /api/v1/batches/{id} and its sub-routes. */
export const batchIdParams = idParams("batch");

/** /api/v1/batches/{id}/images/{file}: the file is matched against the run's artifacts, never joined to a path. */
export const batchImageParams = z.strictObject({
  id: z.uuid({ message: "batch id must be a UUID" }),
  file: z.string().min(1).max(300),
});

/** POST /api/v1/batches/{id}/{action}. */
export const batchActionParams = z.strictObject({
  id: z.uuid({ message: "batch id must be a UUID" }),
  action: z.enum(["pause", "resume", "cancel"]),
});
export type BatchAction = z.infer<typeof batchActionParams>["action"];
