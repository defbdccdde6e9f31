import { z } from "zod";
import { MAX_PARAMS_BYTES, envelope, queryParams } from "./schemas";

// The experiments runner's requests and answers (specs/experiments-cli.md): shared by the
// /experiments page, the routes and the `parallaxr run` command when it talks to a server.

/** The most context files one experiment may name (the prompt file not counted). */
export const MAX_CONTEXT_FILES = 100;
/** The longest file name, in characters. */
export const MAX_FILE_NAME = 255;
/** The most characters one file may hold; the request's byte limit bounds the total too. */
export const MAX_FILE_CHARS = 10_000_000;

/** One file as the page or the CLI read it: its base name and its UTF-8 text (BOM already removed). */
export const experimentFileSchema = envelope({
  name: z.string().trim().min(1, "a file needs a name").max(MAX_FILE_NAME),
  text: z.string().max(MAX_FILE_CHARS, `a file may hold at most ${MAX_FILE_CHARS.toLocaleString("en-US")} characters`),
});

/** Model parameters given with `--param key=value`: scalars only. */
const experimentParamsSchema = z
  .record(z.string().min(1).max(100), z.union([z.string().max(1000), z.number(), z.boolean()]))
  .refine((params) => JSON.stringify(params).length <= MAX_PARAMS_BYTES, "params are too large");

/** POST /api/v1/experiments: the files of `parallaxr run`, and its options. */
export const createExperimentSchema = envelope({
  prompt: experimentFileSchema,
  contexts: z.array(experimentFileSchema).max(MAX_CONTEXT_FILES).default([]),
  experiments: experimentFileSchema,
  /** Seconds a call may take (the spec's --timeout, default 300). */
  timeoutSeconds: z.number().positive().max(86_400).default(300),
  /** Calls at once; the spec's v1 is sequential (1). Output rows stay in input order. */
  concurrency: z.number().int().min(1).max(256).default(1),
  /** Retries of a failed call; the spec's v1 makes none. */
  retries: z.number().int().min(0).max(10).default(0),
  /** Whether answers may come from the cache; the spec's v1 has none. */
  cache: z.boolean().default(false),
  params: experimentParamsSchema.default({}),
  /** Plan only: rows, estimated tokens and cost per model; nothing is stored. */
  dryRun: z.boolean().default(false),
  /** The first row to run (1 = all): rows before it are in the output already (`--resume`); none of their calls is made. */
  fromRow: z.number().int().min(1).default(1),
});
export type CreateExperimentInput = z.infer<typeof createExperimentSchema>;
export type CreateExperimentRequest = z.input<typeof createExperimentSchema>;

/** A row's status in the output CSV, and `pending` before it has one. */
export const experimentRowStatusSchema = z.enum(["pending", "ok", "warning", "error"]);
export type ExperimentRowStatus = z.infer<typeof experimentRowStatusSchema>;

/** One experiment (CSV row) with the spec's six output columns. */
export const experimentRowSchema = z.strictObject({
  /** 1 for the first data row (the spec's "experiment 1/3"). */
  number: z.number().int(),
  /** The row's input columns, in the CSV's order (provider and model included). */
  values: z.array(z.string()),
  status: experimentRowStatusSchema,
  inputTokens: z.number().int().nullable(),
  contextWindow: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  output: z.string(),
  errorMessage: z.string(),
  /** The row's warnings, each as its own line (errorMessage joins them with the error, if any). */
  warnings: z.array(z.string()),
});
export type ExperimentRow = z.infer<typeof experimentRowSchema>;

/** An experiment run as listed: its files, columns and progress. */
export const experimentSummarySchema = z.strictObject({
  id: z.uuid(),
  status: z.enum(["planned", "queued", "running", "paused", "completed", "cancelled", "failed"]),
  promptFile: z.string(),
  contextFiles: z.array(z.string()),
  experimentsFile: z.string(),
  /** The experiments CSV's header: the output's first columns. */
  columns: z.array(z.string()),
  /** The first row this run made a call for (rows before it were in the output already). */
  fromRow: z.number().int(),
  /** Identifies the files and options the run was made from: `--resume` continues a run with the same. */
  inputHash: z.string(),
  rowCount: z.number().int(),
  counts: z.strictObject({ pending: z.number().int(), ok: z.number().int(), warning: z.number().int(), error: z.number().int() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ExperimentSummary = z.infer<typeof experimentSummarySchema>;

/** GET /api/v1/experiments/{id}: the summary, the concatenated document and every row. */
export const experimentSchema = experimentSummarySchema.extend({
  document: z.string(),
  rows: z.array(experimentRowSchema),
});
export type Experiment = z.infer<typeof experimentSchema>;

export const experimentListSchema = z.strictObject({ experiments: z.array(experimentSummarySchema) });

/** GET /api/v1/experiments?inputHash=...: only the runs made from the same files and options (newest first). */
export const experimentListQuerySchema = queryParams({
  inputHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "inputHash is a SHA-256 in hex")
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

/** GET /api/v1/experiments/{id}?fromRow=&limit=: a window of the rows (1 = the first row), for followers of a long run. */
export const experimentQuerySchema = queryParams({
  fromRow: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1_000_000).optional(),
});

/** A dry run's answer: what would be sent, without sending it. */
export const experimentPlanSchema = z.strictObject({
  rowCount: z.number().int(),
  models: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      rows: z.number().int(),
      inputTokens: z.number().int(),
      estimatedCostUsd: z.number().nullable(),
    }),
  ),
  warnings: z.array(z.string()),
});
export type ExperimentPlan = z.infer<typeof experimentPlanSchema>;
