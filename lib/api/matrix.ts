import { z } from "zod";
import { envelope, idParams, queryParams } from "./schemas";

// Matrix runs' requests and answers (specs/matrix-comparisons.md, issue 13): shared by the
// routes, the /evals page's Matrix view and `parallaxr matrix` when it talks to a server.

/** The most prompt versions, models and inputs one matrix may name (the cells are bounded again by the run limits). */
export const MAX_MATRIX_PROMPTS = 100;
export const MAX_MATRIX_MODELS = 50;
export const MAX_MATRIX_INPUTS = 1_000;
/** The most characters one prompt file or input may hold; the request's byte limit bounds the total too. */
export const MAX_MATRIX_FILE_CHARS = 2_000_000;

/**
 * A name that becomes part of a run id, a file name and a comparison's folder name: letters,
 * digits, `.`, `_`, `-` and `@` only, never `..`, so none of them can leave its folder.
 */
export const MATRIX_NAME_PATTERN = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._@-]*$/;

function matrixName(what: string) {
  return z
    .string()
    .min(1)
    .max(200)
    .regex(
      MATRIX_NAME_PATTERN,
      `${what} may hold only letters, digits, ".", "_", "-" and "@" (no "..", no "/"), starting with a letter or digit`,
    );
}

/**
 * A prompt version: its version (the file name without its extension: v1) and the file's text;
 * the file name's extension decides the template syntax (.txt and .md use {{input}}, .yaml a
 * prompt of the eval spec with {input}). Without text, version names a prompt saved in the app:
 * `name@vN`.
 */
export const matrixPromptSchema = envelope({
  version: matrixName("a prompt version"),
  text: z
    .string()
    .max(MAX_MATRIX_FILE_CHARS, `a prompt file may hold at most ${MAX_MATRIX_FILE_CHARS.toLocaleString("en-US")} characters`)
    .optional(),
  /** The file's name (v1.txt, v2.yaml); version + ".txt" when absent. */
  fileName: z.string().trim().min(1).max(255).optional(),
});

/** An input: its id (the file name without its extension: tech-talk-01) and text. */
export const matrixInputSchema = envelope({
  id: matrixName("an input id"),
  text: z.string().max(MAX_MATRIX_FILE_CHARS, `an input may hold at most ${MAX_MATRIX_FILE_CHARS.toLocaleString("en-US")} characters`),
});

/** The most metrics one matrix scores by. */
export const MAX_MATRIX_METRICS = 10;

const bound = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null);
const threshold = z.number().min(0).max(1).nullable().default(null);

/** An eval metric a matrix can score without an expected output, with the eval spec's keys and defaults. */
export const matrixMetricSchema = z.discriminatedUnion("type", [
  envelope({
    type: z.literal("response_length"),
    min_words: bound,
    max_words: bound,
    min_chars: bound,
    max_chars: bound,
    threshold,
  }),
  envelope({
    type: z.literal("llm_judge"),
    criteria: z.string().trim().min(1).max(20_000),
    model: z.string().trim().min(1).max(200).nullable().default(null),
    threshold,
  }),
]);
export type MatrixMetricInput = z.infer<typeof matrixMetricSchema>;

/** A subset as the command's flags write it ("v1,v2"), or as a list. */
const subsetList = z.union([z.string().max(20_000), z.array(z.string().max(200)).max(MAX_MATRIX_INPUTS)]);

/**
 * POST /api/v1/matrix: every prompt version, model and input (files as texts), and optionally a
 * subset of each (the command's --prompts, --models, --inputs); one eval per prompt version x
 * model x input of the subset. dryRun answers the plan and stores nothing.
 */
export const createMatrixSchema = envelope({
  prompts: z.array(matrixPromptSchema).min(1, "name at least one prompt version").max(MAX_MATRIX_PROMPTS),
  /** Model names as eval configs write them (claude-*, gpt-*, provider/model, mock/...) or the spec's Groq short names. */
  models: z.array(z.string().trim().min(1).max(200)).min(1, "name at least one model").max(MAX_MATRIX_MODELS),
  inputs: z.array(matrixInputSchema).min(1, "send at least one input").max(MAX_MATRIX_INPUTS),
  subset: envelope({
    prompts: subsetList.optional(),
    models: subsetList.optional(),
    inputs: subsetList.optional(),
    /** The spec's name for inputs (--transcripts); give one or the other. */
    transcripts: subsetList.optional(),
  })
    .refine((subset) => subset.inputs === undefined || subset.transcripts === undefined, "give inputs or transcripts, not both")
    .optional(),
  /**
   * Grade each output: a grader prompt with {{output}} (also {{input}}, {{transcript}} and
   * {{input_id}}) answering a grade from 0 to 1 (or pass / fail), sent to model, else to the
   * eval's own model.
   */
  grader: envelope({
    text: z
      .string()
      .min(1)
      .max(MAX_MATRIX_FILE_CHARS, `the grader prompt may hold at most ${MAX_MATRIX_FILE_CHARS.toLocaleString("en-US")} characters`),
    model: z.string().trim().min(1).max(200).optional(),
  }).optional(),
  /**
   * Score each output by eval metrics (specs/eval-config.md) that need no expected output:
   * response_length (its bounds) and llm_judge (its criteria, judged by its model, else the
   * eval's own). A matrix takes a grader or metrics, not both.
   */
  metrics: z.array(matrixMetricSchema).min(1).max(MAX_MATRIX_METRICS).optional(),
  /** Calls at once: the spec's 3 by default, enforced where the workers claim cells. */
  concurrency: z.number().int().min(1).max(256).default(3),
  /** Stop starting calls once this many US dollars are spent or in flight (the engine's budget). */
  budgetUsd: z.number().min(0).max(1_000_000).optional(),
  /** Whether answers may come from the response cache. */
  cache: z.boolean().default(true),
  /** Seconds a call may take. */
  timeoutSeconds: z.number().positive().max(86_400).default(300),
  /** Retries of a failed call that may succeed on another try (rate limits, server errors). */
  retries: z.number().int().min(0).max(10).default(2),
  /** Whether comparisons are made after the batch (the command's --no-comparisons turns them off). */
  comparisons: z.boolean().default(true),
  /** Answer the plan and estimate only: nothing is stored and nothing sent. */
  dryRun: z.boolean().default(false),
});
export type CreateMatrixInput = z.infer<typeof createMatrixSchema>;
export type CreateMatrixRequest = z.input<typeof createMatrixSchema>;

/** The estimate of a matrix: per model, its evals, the tokens they send and answer, and the cost where a price is known. */
export const matrixEstimateSchema = z.strictObject({
  models: z.array(
    z.strictObject({
      model: z.string(),
      evals: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      costUsd: z.number().nullable(),
    }),
  ),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  /** The priced models' cost; unpricedModels names the models left out of it (unknown, never $0). */
  costUsd: z.number(),
  unpricedModels: z.array(z.string()),
});
export type MatrixEstimateResponse = z.infer<typeof matrixEstimateSchema>;

/** A matrix's plan: what would run, answered by a dry run and kept with the run. */
export const matrixPlanSchema = z.strictObject({
  prompts: z.array(z.string()),
  models: z.array(z.string()),
  inputs: z.array(z.string()),
  evals: z.number().int(),
  estimate: matrixEstimateSchema,
  /**
   * More than 100 evals: the spec asks "This will run 120 evals. Estimated cost: $X. Continue? [y/N]"
   * before it runs (confirmationQuestion in lib/core/matrix/plan-matrix.ts words it).
   */
  needsConfirmation: z.boolean(),
});
export type MatrixPlanResponse = z.infer<typeof matrixPlanSchema>;

/** A matrix run as created and read: its batch, plan and progress. */
export const matrixSummarySchema = z.strictObject({
  id: z.uuid(),
  batchId: z.string(),
  status: z.enum(["planned", "queued", "running", "paused", "completed", "cancelled", "failed"]),
  plan: matrixPlanSchema,
  counts: z.strictObject({ pending: z.number().int(), ok: z.number().int(), warning: z.number().int(), error: z.number().int() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type MatrixSummary = z.infer<typeof matrixSummarySchema>;

/** One eval of a matrix: a cell of the prompts x models x inputs grid. */
export const matrixEvalSchema = z.strictObject({
  /** The spec's run id once the eval started (it carries the start time), else null. */
  runId: z.string().nullable(),
  prompt: z.string(),
  model: z.string(),
  input: z.string(),
  status: z.string(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  tokensInput: z.number().int().nullable(),
  tokensOutput: z.number().int().nullable(),
  /** Null when the model has no price: unknown, never $0. */
  costUsd: z.number().nullable(),
  durationSeconds: z.number().nullable(),
  /** The grader's grade from 0 to 1, with a grader; null without one, before it graded, or when it could not. */
  grade: z.number().nullable(),
  /** What grading cost (the grader's or the judges' calls), beside costUsd; null without grading or a price. */
  graderCostUsd: z.number().nullable(),
  /** With metrics: each metric's score by name (a judge that could not score is absent), whether all reached their threshold, and which did not. */
  metricScores: z.strictObject({ scores: z.record(z.string(), z.number()), passed: z.boolean(), failing: z.array(z.string()) }).nullable(),
  /** Why the grader gave no grade (its call failed, or its answer had none). */
  graderError: z.string().nullable(),
});
export type MatrixEval = z.infer<typeof matrixEvalSchema>;

/** GET /api/v1/matrix/{id}: the run, each eval of its grid (prompt, then model, then input) and its comparisons' names. */
export const matrixDetailSchema = z.strictObject({
  matrix: matrixSummarySchema,
  evals: z.array(matrixEvalSchema),
  /** What GET .../comparisons/{name}.md serves, index first, once the batch has finished. */
  comparisons: z.array(z.string()),
});
export type MatrixDetail = z.infer<typeof matrixDetailSchema>;

/** POST /api/v1/matrix: the run created (201), or with dryRun the plan alone (200). */
export const createMatrixOutputSchema = z.union([
  z.strictObject({ matrix: matrixSummarySchema }),
  z.strictObject({ dryRun: z.literal(true), plan: matrixPlanSchema }),
]);
export type CreateMatrixOutput = z.infer<typeof createMatrixOutputSchema>;

/**
 * Path parameters of GET /api/v1/matrix/{id}/comparisons/{name}.md: a comparison's folder name,
 * or index. A folder name carries a model's name (ollama/llama3:8b is ollama-llama3:8b), so any
 * character but a path separator is taken; the name is only ever compared with the batch's own.
 */
export const matrixComparisonParamsSchema = idParams("matrix").extend({
  name: z
    .string()
    .max(1000)
    .regex(/^(?!.*\.\.)[^/\\]+\.md$/, "name is a comparison's name ending in .md (or index.md)")
    .refine((name) => !/\p{Cc}/u.test(name), "name holds a control character"),
});

/** The most matrices GET /api/v1/matrix answers at once. */
export const MAX_MATRIX_LIST = 100;

/** Query of GET /api/v1/matrix: only the matrix of one batch id (what --resume names), and how many. */
export const listMatrixQuerySchema = queryParams({
  batchId: z
    .string()
    .regex(/^\d{8}_\d{6}_matrix$/, "batchId is a batch id such as 20251227_143500_matrix")
    .optional(),
  limit: z.coerce.number().int().min(1).max(MAX_MATRIX_LIST).default(20),
});

/** GET /api/v1/matrix: the caller's matrices, newest first. */
export const matrixListSchema = z.strictObject({ matrices: z.array(matrixSummarySchema) });
export type MatrixList = z.infer<typeof matrixListSchema>;
