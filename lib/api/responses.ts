import { z } from "zod";

// What /api/v1 answers, one schema per JSON answer: route() checks each handler's answer against
// its route's `output` outside production (lib/server/route.ts), and lib/api/types.ts and the
// browser's helpers take their types from here, so the types the browser reads by are the shapes
// the tests prove the server sends. Strict: a field the schema does not name (a key, a hash) is
// a mismatch, never sent unnoticed. Like schemas.ts, this imports zod only.

const isoDate = z.iso.datetime({ offset: true });

/** Statuses of a run. */
export const runStatusSchema = z.enum(["planned", "queued", "running", "paused", "completed", "cancelled", "failed"]);

/** Statuses of a cell. */
export const cellStatusSchema = z.enum(["queued", "running", "ok", "warning", "error", "malformed", "skipped", "cancelled"]);

/** The model that grades a run's cells. */
export const graderModelSchema = z.strictObject({ provider: z.string(), model: z.string() });

/** One model column of a run. */
export const runColumnSchema = z.strictObject({
  index: z.number(),
  provider: z.string(),
  model: z.string(),
  params: z.record(z.string(), z.unknown()),
});

/** One cell as the API and the event stream send it. */
export const cellSchema = z.strictObject({
  id: z.string(),
  row: z.number(),
  column: z.number(),
  trial: z.number(),
  status: cellStatusSchema,
  output: z.string().nullable(),
  outputParsed: z.string().nullable(),
  /** True when output or outputParsed was cut to the length asked for (?outputChars=); GET the cell for all of it. */
  outputTruncated: z.boolean(),
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  tokensEstimated: z.boolean(),
  latencyMs: z.number().nullable(),
  costUsd: z.number().nullable(),
  finishReason: z.string().nullable(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  warnings: z.array(z.string()),
  attempts: z.number(),
  cached: z.boolean(),
  /** The grader's call: null when the run has no grader (or the answer was malformed: grade 0). */
  graderStatus: z.enum(["queued", "running", "ok", "error", "malformed"]).nullable(),
  graderOutput: z.string().nullable(),
  graderError: z.string().nullable(),
  graderCostUsd: z.number().nullable(),
  grade: z.number().nullable(),
  manualGrade: z.number().nullable(),
  seq: z.number(),
  updatedAt: isoDate,
});

/** Cells per status. */
export const cellCountsSchema = z.strictObject(
  Object.fromEntries(cellStatusSchema.options.map((status) => [status, z.number()])) as Record<
    z.infer<typeof cellStatusSchema>,
    z.ZodNumber
  >,
);

/** A run without its cells (what the event stream's run events carry). */
export const runSummarySchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  status: runStatusSchema,
  prompt: z.string(),
  promptVersionId: z.string().nullable(),
  promptId: z.string().nullable(),
  /** The version number of the prompt this run ran (v6), or null for an unversioned run. */
  promptVersion: z.number().nullable(),
  /** True when a grader grades each cell after the model answers. */
  hasGrader: z.boolean(),
  graderPromptId: z.string().nullable(),
  graderName: z.string().nullable(),
  /** The model that grades every column; null with a grader: each column's own model (runs before graderModel was kept). */
  graderModel: graderModelSchema.nullable(),
  datasetId: z.string().nullable(),
  datasetName: z.string().nullable(),
  columns: z.array(runColumnSchema),
  rowCount: z.number(),
  trials: z.number(),
  concurrency: z.number(),
  counts: cellCountsSchema,
  /**
   * True while the run's cells are still being added behind its first ones: a run of more than
   * 10,000 cells is answered, and starts, before its last cells are in. counts.queued already
   * counts those not in yet.
   */
  planning: z.boolean(),
  /** Dollars spent so far (cells whose cost is known): generatorSpentUsd + graderSpentUsd. */
  spentUsd: z.number(),
  /** The models' answers' part of spentUsd. */
  generatorSpentUsd: z.number(),
  /** The grader's calls' part of spentUsd. */
  graderSpentUsd: z.number(),
  budgetUsd: z.number().nullable(),
  budgetMode: z.enum(["estimate", "strict", "off"]),
  error: z.string().nullable(),
  createdAt: isoDate,
  startedAt: isoDate.nullable(),
  finishedAt: isoDate.nullable(),
});

/** What a run will cost before it starts, per model and in total (lib/engine/plan-run.ts). */
export const runPlanSchema = z.strictObject({
  cells: z.number(),
  models: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      cells: z.number(),
      inputTokens: z.number(),
      inputTokensMethod: z.enum(["tokenizer", "tokenizer-sample", "estimate"]),
      outputTokens: z.number().nullable(),
      outputTokensSource: z.enum(["maxTokens", "history", "unknown"]),
      costUsd: z.number().nullable(),
      lowerBoundUsd: z.number().nullable(),
      /** Generator and grader together, per cell. */
      costPerCellUsd: z.number().nullable(),
      priced: z.boolean(),
      /** The model grading this column, or null without a grader. */
      graderModel: graderModelSchema.nullable(),
      graderInputTokens: z.number().nullable(),
      graderOutputTokens: z.number().nullable(),
      /** The grading's cost, apart from costUsd; null when unknown (then see graderLowerBoundUsd). */
      graderCostUsd: z.number().nullable(),
      graderLowerBoundUsd: z.number().nullable(),
    }),
  ),
  /** Generators and graders together. */
  totalCostUsd: z.number(),
  totalIsLowerBound: z.boolean(),
  unpriced: z.array(z.string()),
});

/** A run with its dataset rows and cells (GET /api/v1/runs/{id}). */
export const runSchema = runSummarySchema.extend({
  rows: z.array(z.record(z.string(), z.string())),
  cells: z.array(cellSchema),
  /** The plan the run was created with (what the page shows while it runs); null for a run stored before plans were kept. */
  plan: runPlanSchema.nullable(),
});

/** POST /api/v1/runs: the run created (201, no cells yet), or its plan alone with ?dryRun=true (200). */
export const createRunResponseSchema = z.union([
  runSummarySchema.extend({ plan: runPlanSchema, cursor: z.number(), cells: z.array(cellSchema).length(0) }),
  z.strictObject({ dryRun: z.literal(true), plan: runPlanSchema }),
]);

/** One cell of a run export: where it sits, the row it was given, and everything it produced. */
export const exportedCellSchema = z.strictObject({
  row: z.number(),
  column: z.number(),
  provider: z.string(),
  model: z.string(),
  trial: z.number(),
  /** The dataset row's values the prompt was filled from. */
  input: z.record(z.string(), z.string()),
  status: cellStatusSchema,
  output: z.string().nullable(),
  outputParsed: z.string().nullable(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  latencyMs: z.number().nullable(),
  /** The model's call. */
  costUsd: z.number().nullable(),
  /** The grader's call, apart from costUsd. */
  graderCostUsd: z.number().nullable(),
  graderStatus: cellSchema.shape.graderStatus,
  graderOutput: z.string().nullable(),
  graderError: z.string().nullable(),
  /** The grader's grade, 0 to 1. */
  grade: z.number().nullable(),
  /** A person's grade, which overrides the grader's. */
  manualGrade: z.number().nullable(),
});

/** GET /api/v1/runs/{id}/export?format=json: the file's content (the CSV has the cells' fields as columns). */
export const runExportSchema = z.strictObject({
  run: runSummarySchema.pick({
    id: true,
    status: true,
    prompt: true,
    promptVersion: true,
    graderName: true,
    datasetId: true,
    datasetName: true,
    columns: true,
    rowCount: true,
    spentUsd: true,
    createdAt: true,
    finishedAt: true,
  }),
  cells: z.array(exportedCellSchema),
});

/** {deleted: true}: the thing named is gone. */
export const deletedSchema = z.strictObject({ deleted: z.literal(true) });

/** {saved: true}: the change is stored. */
export const savedSchema = z.strictObject({ saved: z.literal(true) });

/** DELETE /api/v1/cache: how many cached answers were dropped. */
export const cacheClearedSchema = z.strictObject({ deleted: z.number() });

/** GET /api/v1/health. */
export const healthSchema = z.strictObject({
  ok: z.literal(true),
  database: z.enum(["pglite", "postgres"]),
  worker: z.enum(["in-process", "off"]),
});

/** A stored dataset, as GET /api/v1/datasets lists it. */
export const datasetItemSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  headers: z.array(z.string()),
  rowCount: z.number(),
  createdAt: isoDate,
});

/** POST /api/v1/datasets: the dataset, and whether the same content was stored already (then nothing new was). */
export const datasetUploadSchema = datasetItemSchema.extend({ alreadyStored: z.boolean() });

/** DELETE /api/v1/datasets/{id}: keptForRuns when runs used it, so its rows stay for their history. */
export const datasetDeletionSchema = z.strictObject({ deleted: z.literal(true), keptForRuns: z.boolean() });

/** A stored dataset with its first rows, as GET /api/v1/datasets/{id} answers. */
export const datasetWithRowsSchema = datasetItemSchema.extend({ rows: z.array(z.record(z.string(), z.string())) });

/** A stored prompt. */
export const promptSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(["generator", "grader"]),
  text: z.string(),
  versionCounter: z.number(),
  lastRunTextHash: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});

/** GET /api/v1/prompts. */
export const promptListSchema = z.strictObject({ prompts: z.array(promptSchema) });

/** The immutable text of one prompt version (GET /api/v1/prompt-versions/{id}). */
export const promptVersionSchema = z.strictObject({ id: z.string(), version: z.number(), text: z.string() });

/** One earlier run of a prompt, with what each model scored in it. */
export const promptRunHistoryEntrySchema = z.strictObject({
  id: z.string(),
  status: z.string(),
  version: z.number().nullable(),
  /** The prompt's name when it ran: a rename starts the version at 1 again, so "v1" alone is ambiguous. */
  versionName: z.string().nullable(),
  /** When this version (name, number and text) first ran. */
  versionSince: isoDate.nullable(),
  promptVersionId: z.string().nullable(),
  createdAt: isoDate,
  rowCount: z.number(),
  /** The grader prompt's name, or null for a run without a grader. */
  graderName: z.string().nullable(),
  /** The model that graded; null with a grader: each column's own model graded (runs before graderModel was kept). */
  graderModel: graderModelSchema.nullable(),
  models: z.array(
    z.strictObject({
      column: z.number(),
      provider: z.string(),
      model: z.string(),
      /** Mean grade (lib/core/grade-average.ts): a person's grade first, malformed as 0, else the grader's. */
      averageGrade: z.number().nullable(),
      gradedCells: z.number(),
      averageLatencyMs: z.number().nullable(),
      /** The column's generator and grader calls together; null when none has a known cost. */
      totalCostUsd: z.number().nullable(),
      /** The grader's part of totalCostUsd. */
      graderCostUsd: z.number().nullable(),
    }),
  ),
});

/** GET /api/v1/prompts/{id}/runs. */
export const promptRunsSchema = z.strictObject({ runs: z.array(promptRunHistoryEntrySchema) });

/** A stored key as the server shows it: never the key itself; last4 is empty for a base URL alone. */
export const providerKeySummarySchema = z.strictObject({
  provider: z.string(),
  last4: z.string(),
  /** The only address the key is sent to; null means the provider's default base URL. */
  baseUrl: z.string().nullable(),
  updatedAt: isoDate,
});

/** A provider the server knows, with the base URL a key saved without one goes to. */
export const keyProviderSchema = z.strictObject({
  id: z.string(),
  label: z.string(),
  needsKey: z.boolean(),
  defaultBaseUrl: z.string().nullable(),
});

/** GET /api/v1/keys. */
export const keyListSchema = z.strictObject({ keys: z.array(providerKeySummarySchema), providers: z.array(keyProviderSchema) });

/** POST /api/v1/keys/{provider}/test: the call worked (and how long it took), or why it did not. */
export const keyTestResultSchema = z.union([
  z.strictObject({ ok: z.literal(true), latencyMs: z.number() }),
  z.strictObject({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);

/** How hard Parallaxr may call a provider (null: no limit). */
export const providerLimitSchema = z.strictObject({
  provider: z.string(),
  maxConcurrency: z.number().nullable(),
  requestsPerMinute: z.number().nullable(),
  tokensPerMinute: z.number().nullable(),
  /** The concurrency the engine fell back to after 429s, or null when not throttled. */
  adaptiveLimit: z.number().nullable(),
});

/** GET /api/v1/limits. */
export const limitListSchema = z.strictObject({ limits: z.array(providerLimitSchema) });

const pricePerMillion = z.strictObject({ inputPerMTok: z.number().nullable(), outputPerMTok: z.number().nullable() });

/** A model the caller can pick, with its context window and price when known. */
export const catalogModelSchema = z.strictObject({
  provider: z.string(),
  model: z.string(),
  label: z.string(),
  description: z.string().optional(),
  contextWindow: z.number().nullable().optional(),
  price: pricePerMillion.nullable().optional(),
});

/** GET /api/v1/models: the models, which providers are set up, and which could not be asked (and why). */
export const modelCatalogSchema = z.strictObject({
  models: z.array(catalogModelSchema),
  providers: z.array(z.strictObject({ id: z.string(), label: z.string(), needsKey: z.boolean(), configured: z.boolean() })),
  unavailable: z.array(z.strictObject({ provider: z.string(), code: z.string(), message: z.string() })),
});

/** A price the person set, in dollars per million tokens (null: unknown). */
export const userPriceSchema = z.strictObject({
  provider: z.string(),
  /** A model id, or "*" for every model of the provider. */
  model: z.string(),
  inputPerMTok: z.number().nullable(),
  outputPerMTok: z.number().nullable(),
  perImage: z.number().nullable(),
  /** The day it was set, YYYY-MM-DD. */
  checkedAt: z.iso.date().nullable(),
  source: z.string(),
});

/** The price list shipped with Parallaxr, with when it was checked and what it covers. */
export const priceReferenceSchema = z.strictObject({
  checkedAt: z.string(),
  note: z.string(),
  prices: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      inputPerMTok: z.number(),
      outputPerMTok: z.number(),
      perImage: z.number().optional(),
    }),
  ),
});

/** GET /api/v1/prices. */
export const priceListSchema = z.strictObject({ prices: z.array(userPriceSchema), reference: priceReferenceSchema });

/** The caller's workbench setup (GET and PATCH /api/v1/workbench). */
export const workbenchStateSchema = z.strictObject({
  activePromptId: z.string().nullable(),
  datasetId: z.string().nullable(),
  graderPromptId: z.string().nullable(),
  columns: z.array(z.strictObject({ provider: z.string(), model: z.string(), params: z.record(z.string(), z.unknown()) })),
  /** The newest workbench run of the active prompt (the page reopens it on `/`), or null. */
  latestRunId: z.string().nullable(),
});

/** PATCH /api/v1/runs/{id}/cells/{cellId}: the grade stored. */
export const manualGradeSchema = z.strictObject({ manualGrade: z.number().nullable() });

/** POST /api/v1/seed: whether the examples were added now (false: they were before). */
export const seededSchema = z.strictObject({ seeded: z.boolean() });

/** What may be shown of an access token: never the token or its hash. */
export const accessTokenSummarySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  last4: z.string(),
  createdAt: isoDate,
  lastUsedAt: isoDate.nullable(),
  revokedAt: isoDate.nullable(),
});

/** GET /api/v1/tokens. */
export const tokenListSchema = z.strictObject({ tokens: z.array(accessTokenSummarySchema) });

/** POST /api/v1/tokens: the token itself, this once, with its summary. */
export const createdTokenSchema = accessTokenSummarySchema.extend({ token: z.string() });

/** DELETE /api/v1/tokens/{id}: the tokens revoked. */
export const revokedTokensSchema = z.strictObject({ revoked: z.array(accessTokenSummarySchema) });

/** POST and DELETE /api/v1/session. */
export const sessionSchema = z.strictObject({ signedIn: z.boolean() });

/** A price the person set (GET /api/v1/prices). */
export type UserPrice = z.infer<typeof userPriceSchema>;
/** The shipped price list. */
export type PriceReference = z.infer<typeof priceReferenceSchema>;
/** A stored dataset without its rows. */
export type DatasetItem = z.infer<typeof datasetItemSchema>;
/** A stored dataset with its first rows. */
export type DatasetWithRows = z.infer<typeof datasetWithRowsSchema>;
/** What an upload answers. */
export type DatasetUploadResult = z.infer<typeof datasetUploadSchema>;
/** What deleting a dataset answers. */
export type DatasetDeletionResult = z.infer<typeof datasetDeletionSchema>;
/** A stored prompt. */
export type Prompt = z.infer<typeof promptSchema>;
/** The text of one prompt version. */
export type PromptVersion = z.infer<typeof promptVersionSchema>;
/** One earlier run of a prompt. */
export type PromptRunHistoryEntry = z.infer<typeof promptRunHistoryEntrySchema>;
/** A stored key's summary. */
export type ProviderKeySummary = z.infer<typeof providerKeySummarySchema>;
/** A provider as GET /api/v1/keys lists it. */
export type KeyProvider = z.infer<typeof keyProviderSchema>;
/** What a key test answered. */
export type KeyTestResult = z.infer<typeof keyTestResultSchema>;
/** A provider's limits. */
export type ProviderLimit = z.infer<typeof providerLimitSchema>;
/** The model picker's catalog. */
export type ModelCatalog = z.infer<typeof modelCatalogSchema>;
/** The caller's workbench setup. */
export type WorkbenchState = z.infer<typeof workbenchStateSchema>;
/** An access token's summary. */
export type AccessTokenSummary = z.infer<typeof accessTokenSummarySchema>;
/** A run's cells as a file (GET /api/v1/runs/{id}/export). */
export type RunExport = z.infer<typeof runExportSchema>;
/** What a run will cost before it starts. */
export type RunPlanEstimate = z.infer<typeof runPlanSchema>;
