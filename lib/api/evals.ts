import { z } from "zod";
import { envelope } from "./schemas";

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
