import { z } from "zod";
import { envelope, idParams, queryParams } from "./schemas";

// The eval runner's requests and answers (specs/eval-config.md, issue 12): shared by the routes
// and, later, the /evals page and `parallaxr eval` when it talks to a server.

/** The most prompt files one request may carry (a config runs at most 100 prompts). */
export const MAX_EVAL_FILES = 100;
/** The longest path of a prompt file as a config writes it, in characters. */
export const MAX_EVAL_PATH = 1000;
/** The most characters the config or one prompt file may hold; the request's byte limit bounds the total too. */
export const MAX_EVAL_FILE_CHARS = 2_000_000;

/**
 * POST /api/v1/evals: the config's text and the prompt files it references, keyed by the path as
 * the config writes it (relative to the config file). The server never reads a path itself.
 */
export const createEvalSchema = envelope({
  config: z.string().max(MAX_EVAL_FILE_CHARS, `the config may hold at most ${MAX_EVAL_FILE_CHARS.toLocaleString("en-US")} characters`),
  /** The config's file name: .json reads it as JSON, anything else as YAML 1.2. */
  configName: z.string().trim().min(1).max(255).default("eval.yaml"),
  files: z
    .record(
      z.string().min(1).max(MAX_EVAL_PATH),
      z.string().max(MAX_EVAL_FILE_CHARS, `a prompt file may hold at most ${MAX_EVAL_FILE_CHARS.toLocaleString("en-US")} characters`),
    )
    .refine((files) => Object.keys(files).length <= MAX_EVAL_FILES, `at most ${MAX_EVAL_FILES} prompt files`)
    .default({}),
  /** The command's -m: replaces the config's model and models. */
  model: z.string().trim().min(1).max(200).optional(),
  /** Calls at once (the command's --concurrency, default 4). */
  concurrency: z.number().int().min(1).max(256).default(4),
  /** Whether answers may come from the response cache (--no-cache turns it off). */
  cache: z.boolean().default(true),
  /** Seconds a call may take. */
  timeoutSeconds: z.number().positive().max(86_400).default(300),
  /** Retries of a failed call that may succeed on another try (rate limits, server errors). */
  retries: z.number().int().min(0).max(10).default(2),
  /** The command's --tags: only the test cases with any of these tags run. */
  tags: z.array(z.string().trim().min(1).max(200)).min(1).max(100).optional(),
});
export type CreateEvalInput = z.infer<typeof createEvalSchema>;
export type CreateEvalRequest = z.input<typeof createEvalSchema>;

/** An eval run as created and listed: its config's shape and progress. */
export const evalSummarySchema = z.strictObject({
  id: z.uuid(),
  status: z.enum(["planned", "queued", "running", "paused", "completed", "cancelled", "failed"]),
  configName: z.string(),
  prompts: z.array(z.string()),
  models: z.array(z.string()),
  testCases: z.number().int(),
  repeat: z.number().int(),
  cells: z.number().int(),
  /** The config's warnings (unknown keys and the like), each with its line when known. */
  warnings: z.array(z.string()),
  counts: z.strictObject({ pending: z.number().int(), ok: z.number().int(), warning: z.number().int(), error: z.number().int() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type EvalSummary = z.infer<typeof evalSummarySchema>;

/** One EvalResult (lib/core/eval/eval-run.ts), with the spec's field names. */
export const evalResultSchema = z.strictObject({
  test_case: z.string(),
  prompt_name: z.string(),
  trial: z.number().int(),
  system_prompt: z.string(),
  input_text: z.string(),
  output: z.string(),
  metrics: z.record(z.string(), z.number()),
  passed: z.boolean(),
  latency_ms: z.number(),
  tokens_in: z.number(),
  tokens_out: z.number(),
  cost_usd: z.number().nullable(),
  error: z.string().nullable(),
  judge_reasoning: z.string().nullable().optional(),
});

/** One EvalRun: a prompt on a model, its finished results. */
export const evalRunSchema = z.strictObject({
  run_id: z.string().regex(/^[0-9a-f]{8}$/),
  prompt_name: z.string(),
  model: z.string(),
  config: z.strictObject({
    model: z.string(),
    max_tokens: z.number(),
    temperature: z.number(),
    evaluation_threshold: z.number(),
    metric_thresholds: z.record(z.string(), z.number()).optional(),
  }),
  started_at: z.string(),
  completed_at: z.string().nullable(),
  results: z.array(evalResultSchema),
  pass_rate: z.number(),
  avg_latency_ms: z.number(),
  cost_usd: z.number().nullable(),
});

/** GET /api/v1/evals/{id}: the eval and its EvalRuns, one per prompt x model, in config order. */
export const evalSchema = z.strictObject({ eval: evalSummarySchema, runs: z.array(evalRunSchema) });
export type EvalDetail = z.infer<typeof evalSchema>;

/** The export formats, as -f and the export route name them. */
export const evalExportFormatSchema = z.enum(["json", "csv", "markdown", "html", "junit"], {
  message: "format must be json, csv, markdown, html or junit",
});

/** Path parameters of GET /api/v1/evals/{id}/export/{format}. */
export const evalExportParamsSchema = idParams("eval").extend({ format: evalExportFormatSchema });

/** ?run=: which EvalRun (its 8-hex run_id) a per-run export is of; needed when the eval made more than one. */
export const evalExportQuerySchema = queryParams({
  run: z
    .string()
    .regex(/^[0-9a-f]{8}$/, "run is an EvalRun's run_id, 8 hex characters")
    .optional(),
});

/** The most eval runs one page of GET /api/v1/evals lists. */
export const MAX_EVAL_LIST_LIMIT = 100;

/** GET /api/v1/evals?limit=&offset=: a page of the caller's eval runs, newest first. */
export const evalListQuerySchema = queryParams({
  limit: z.coerce.number().int().min(1).max(MAX_EVAL_LIST_LIMIT).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** One EvalRun of a listed eval: which prompt on which model, and its pass rate over the results finished so far. */
export const evalListRunSchema = z.strictObject({
  run_id: z.string().regex(/^[0-9a-f]{8}$/),
  prompt_name: z.string(),
  model: z.string(),
  results: z.number().int(),
  cells: z.number().int(),
  pass_rate: z.number(),
});

/** GET /api/v1/evals: the page, and the offset of the next one (null on the last). */
export const evalListSchema = z.strictObject({
  evals: z.array(z.strictObject({ eval: evalSummarySchema, runs: z.array(evalListRunSchema) })),
  nextOffset: z.number().int().nullable(),
});
export type EvalList = z.infer<typeof evalListSchema>;
