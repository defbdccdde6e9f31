import { z } from "zod";
import { jsonDepthExceeds } from "@/lib/core/json-depth-exceeds";

// Shared by the browser, the CLI and the route handlers: this module imports zod and lib/core only
// (tests/unit/api/api-purity.test.ts), so a client component that imports a schema or a type
// from here pulls no server code into the bundle.

// Every object of the API's own envelope is strict: a field it does not know is a 400 naming it,
// never ignored (an ignored `budget_usd` meant a run with no budget). What the user owns (a
// model's params) stays free-form, within bounds of size and depth.

/** The most columns a dataset may have. */
export const MAX_COLUMNS = 1_000;
/** The longest column name (a row's key), in characters. */
export const MAX_COLUMN_NAME = 1_000;
/** The longest cell value, in characters: as long as a prompt may be. */
export const MAX_CELL_CHARS = 1_000_000;
/** The most a model's params may take as JSON, in bytes; vendors' own options take a few hundred. */
export const MAX_PARAMS_BYTES = 64 * 1024;
/** How deep a model's params may nest (the params object itself is level 1). */
export const MAX_PARAMS_DEPTH = 10;

/**
 * A strict object of the API's envelope. A field it does not know is an error naming the field,
 * and the field it resembles when there is one (budget_usd: did you mean "budgetUsd"?).
 */
export function envelope<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return strictNaming(shape, "field");
}

/**
 * The query parameters of a route, strict like a body: route() answers 400 naming a parameter it
 * does not know (outputchars: did you mean "outputChars"?). Values arrive as strings; coerce them.
 */
export function queryParams<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return strictNaming(shape, "query parameter");
}

function strictNaming<Shape extends z.core.$ZodLooseShape>(shape: Shape, noun: string) {
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      return issue.keys
        .map((key) => {
          const known = Object.keys(shape).find((name) => name.toLowerCase() === key.replace(/[-_]/g, "").toLowerCase());
          return `unknown ${noun} "${key}"${known ? ` (did you mean "${known}"?)` : ""}`;
        })
        .join("; ");
    },
  });
}

/** A UUID path parameter, its message naming what it identifies ("run id must be a UUID"). */
function uuidOf(what: string) {
  return z.uuid({ message: `${what} id must be a UUID` });
}

/** Path parameters of a route under /{id}: `idParams("run")` says "run id must be a UUID". */
export function idParams(what: string) {
  return z.strictObject({ id: uuidOf(what) });
}

/** Path parameters of /api/v1/runs/{id}/cells/{cellId}. */
export const runCellParamsSchema = z.strictObject({ id: uuidOf("run"), cellId: uuidOf("cell") });

/** Path parameters of POST /api/v1/runs/{id}/{action}. */
export const runActionParamsSchema = idParams("run").extend({
  action: z.enum(["pause", "resume", "cancel"], { message: "action must be pause, resume or cancel" }),
});

// TextEncoder, not Buffer: the browser imports this module too.
const utf8 = new TextEncoder();

/** A user-owned JSON object passed through as is (a model's params), bounded in depth and size. */
const userObject = z.record(z.string().max(200), z.unknown()).superRefine((value, context) => {
  // depth first: JSON.stringify of a value nested 200,000 levels overflows the stack
  if (jsonDepthExceeds(value, MAX_PARAMS_DEPTH)) {
    context.addIssue({ code: "custom", message: `nests deeper than ${MAX_PARAMS_DEPTH} levels of objects and arrays`, input: value });
    return;
  }
  const bytes = utf8.encode(JSON.stringify(value)).byteLength;
  if (bytes > MAX_PARAMS_BYTES) {
    context.addIssue({
      code: "custom",
      message: `is ${bytes.toLocaleString("en-US")} bytes as JSON, over the ${MAX_PARAMS_BYTES.toLocaleString("en-US")} allowed`,
      input: value,
    });
  }
});

/** A model column in a run request. */
export const runModelSchema = envelope({
  provider: z.string().min(1, "provider is required").max(100),
  model: z.string().min(1, "model is required").max(500),
  params: userObject.optional(),
});

const cellValue = z.union([z.string().max(MAX_CELL_CHARS), z.number(), z.boolean(), z.null()]);

/** A dataset row: column name to value. */
const datasetRow = z.record(z.string().max(MAX_COLUMN_NAME), cellValue).refine((row) => Object.keys(row).length <= MAX_COLUMNS, {
  message: `a row may have at most ${MAX_COLUMNS.toLocaleString("en-US")} columns`,
});

/** Body of POST /api/v1/runs: inline prompt and rows, or ids of a stored prompt and dataset. */
export const createRunSchema = envelope({
  prompt: z.string().min(1, "prompt must not be empty").max(1_000_000).optional(),
  promptId: z.uuid().optional(),
  rows: z.array(datasetRow).max(100_000).optional(),
  datasetId: z.uuid().optional(),
  datasetName: z.string().min(1).max(200).optional(),
  models: z.array(runModelSchema).min(1, "at least one model is required").max(16),
  concurrency: z.int().min(1).max(1024).optional(),
  providerConcurrency: z
    .record(z.string().max(100), z.int().min(1).max(1024))
    .refine((value) => Object.keys(value).length <= 64, { message: "at most 64 providers" })
    .optional(),
  maxAttempts: z.int().min(1).max(20).optional(),
  timeoutSeconds: z.number().positive().max(3600).optional(),
  trials: z.int().min(1).max(100).optional(),
  /** false: neither use nor fill the response cache for this run. */
  cache: z.boolean().optional(),
  /** A grader prompt: stored (graderPromptId) or inline (grader). It sees the row and {{output}}. */
  graderPromptId: z.uuid().optional(),
  grader: z.string().min(1, "grader must not be empty").max(1_000_000).optional(),
  /** The model that grades every column; by default the first column's model. */
  graderModel: runModelSchema.omit({ params: true }).optional(),
  /** Stop scheduling before spent + in-flight estimates would pass this many US dollars. */
  budgetUsd: z.number().min(0).max(1_000_000).optional(),
  /** estimate (default with a budget), strict (also skips unpriced models) or off. */
  budgetMode: z.enum(["estimate", "strict", "off"]).optional(),
}).superRefine((body, context) => {
  if ((body.prompt === undefined) === (body.promptId === undefined)) {
    context.addIssue({ code: "custom", path: ["prompt"], message: "give exactly one of prompt or promptId" });
  }
  if (body.grader !== undefined && body.graderPromptId !== undefined) {
    context.addIssue({ code: "custom", path: ["grader"], message: "give grader or graderPromptId, not both" });
  }
  if (body.rows !== undefined && body.datasetId !== undefined) {
    context.addIssue({ code: "custom", path: ["rows"], message: "give rows or datasetId, not both" });
  }
});

/** A validated run request. */
export type CreateRunInput = z.infer<typeof createRunSchema>;

/** Body of POST /api/v1/prompts. */
export const createPromptSchema = envelope({
  name: z.string().min(1).max(200),
  text: z.string().max(1_000_000).default(""),
  type: z.enum(["generator", "grader"]).default("generator"),
});

/** Body of POST /api/v1/datasets. */
export const createDatasetSchema = envelope({
  name: z.string().min(1).max(200),
  rows: z.array(datasetRow).min(1, "a dataset needs at least one row").max(100_000),
  headers: z
    .array(z.string().max(MAX_COLUMN_NAME))
    .max(MAX_COLUMNS, `a dataset may have at most ${MAX_COLUMNS.toLocaleString("en-US")} columns`)
    .optional(),
});

/** Body of PATCH /api/v1/datasets/{id}: the new name. */
export const renameDatasetSchema = envelope({
  name: z.string().trim().min(1, "a dataset needs a name").max(200),
});

/** Body of PUT /api/v1/keys/{provider}: the key is write-only; answers show its last four. */
export const saveProviderKeySchema = envelope({
  apiKey: z.string().trim().min(8, "this is too short to be an API key (8 characters at least)").max(4096).optional(),
  baseUrl: z.url({ message: "baseUrl must be a URL such as http://localhost:1234/v1" }).max(2048).optional().nullable(),
}).refine((body) => body.apiKey !== undefined || body.baseUrl != null, {
  path: ["apiKey"],
  message: "give an API key, a base URL, or both",
});

/** Path parameters naming a provider. */
export const providerParamsSchema = envelope({
  provider: z.string().regex(/^[a-z0-9-]{1,40}$/, "provider must be a provider id such as openai"),
});

const perMillion = z.number().min(0, "prices cannot be negative").max(100_000).nullable();

/** Body of PUT /api/v1/prices: the caller's price of one model, per million tokens. */
export const savePriceSchema = envelope({
  provider: z.string().min(1).max(40),
  model: z.string().min(1).max(200),
  inputPerMTok: perMillion,
  outputPerMTok: perMillion,
  perImage: z.number().min(0).max(1000).nullable().optional(),
});

/** Query of DELETE /api/v1/prices. */
export const priceKeySchema = queryParams({ provider: z.string().min(1).max(40), model: z.string().min(1).max(200) });

/**
 * Body of POST /api/v1/limits/reset-throttle: the credential whose adaptive limit to lift, a
 * provider id, or "mock/<model>" for a mock model (each is a credential of its own).
 */
export const resetThrottleSchema = envelope({
  credential: z.string().regex(/^[a-z0-9-]{1,40}(\/[A-Za-z0-9._:-]{1,100})?$/, "credential must be a provider id, or mock/<model>"),
});

/** Body of PUT /api/v1/limits/{provider}: null lifts a limit. */
export const saveLimitsSchema = envelope({
  maxConcurrency: z.int().min(1).max(1024).nullable(),
  requestsPerMinute: z.int().min(1).max(1_000_000).nullable(),
  tokensPerMinute: z.int().min(1).max(1_000_000_000).nullable(),
});

/** Body of PATCH /api/v1/prompts/{id}: autosave of the text, a rename, or a type change. */
export const updatePromptSchema = envelope({
  name: z.string().trim().min(1, "a prompt needs a name").max(200).optional(),
  text: z.string().max(1_000_000).optional(),
  type: z.enum(["generator", "grader"]).optional(),
}).refine((body) => body.name !== undefined || body.text !== undefined || body.type !== undefined, {
  message: "give name, text or type",
  path: ["name"],
});

/** Body of PATCH /api/v1/runs/{id}/cells/{cellId}: a person's grade (1 pass, 0 fail, null none). */
export const gradeCellSchema = envelope({ manualGrade: z.number().min(0).max(1).nullable() });

/** Body of PATCH /api/v1/workbench: the parts of the workbench setup that changed. */
export const updateWorkbenchSchema = envelope({
  activePromptId: z.uuid().nullable().optional(),
  datasetId: z.uuid().nullable().optional(),
  graderPromptId: z.uuid().nullable().optional(),
  columns: z
    .array(runModelSchema.extend({ params: userObject.default({}) }))
    .max(4)
    .optional(),
}).refine((body) => Object.values(body).some((value) => value !== undefined), {
  message: "give activePromptId, datasetId, graderPromptId or columns",
  path: ["activePromptId"],
});

/** Body of POST /api/v1/keys/{provider}/test. */
export const testProviderKeySchema = envelope({ model: z.string().min(1, "model is required: the model to try the key with") });

/** Body of POST /api/v1/tokens. */
export const createTokenSchema = envelope({ name: z.string().trim().min(1, "a token needs a name").max(100) });

/** Body of POST /api/v1/session: signs a browser in with an access token. */
export const signInSchema = envelope({ token: z.string().trim().min(1, "paste your access token").max(200) });

/**
 * How many characters of each output a run read asks for; 0 sends none (status, tokens and cost
 * only). Zod puts a schema's own message on every check, so the one message names the range.
 */
const outputChars = z.coerce
  .number({ message: "outputChars must be a whole number from 0 to 1000000" })
  .int()
  .min(0)
  .max(1_000_000)
  .optional();

/** Query of POST /api/v1/runs: ?dryRun=true plans the run without creating it. */
export const createRunQuerySchema = queryParams({
  dryRun: z
    .enum(["true", "false"], { message: "dryRun must be true or false" })
    .optional()
    .transform((value) => value === "true"),
});

/** Query of GET /api/v1/runs/{id}: ?outputChars=N cuts each cell's output to N characters. */
export const runQuerySchema = queryParams({ outputChars });

/** Query of GET /api/v1/runs/{id}/export: the file's format. */
export const runExportQuerySchema = queryParams({
  format: z.enum(["csv", "json"], { message: "format must be csv or json" }),
});

/** Query of GET /api/v1/runs/{id}/events: outputChars as for the run, and after= the last seq seen. */
export const runEventsQuerySchema = queryParams({
  outputChars,
  after: z.coerce.number({ message: "after must be a whole number, 0 or more" }).int().min(0).optional(),
});

/** Query of GET /api/v1/datasets/{id}: how many rows to send with it. */
export const datasetQuerySchema = queryParams({ limit: z.coerce.number().int().min(1).max(100_000).default(50) });

// What the browser, the CLI and scripts send: z.input, the shape before defaults and trims.
/** Body of POST /api/v1/prompts as sent. */
export type CreatePromptRequest = z.input<typeof createPromptSchema>;
/** Body of PATCH /api/v1/prompts/{id} as sent. */
export type UpdatePromptRequest = z.input<typeof updatePromptSchema>;
/** Body of POST /api/v1/datasets as sent. */
export type CreateDatasetRequest = z.input<typeof createDatasetSchema>;
/** Body of PATCH /api/v1/datasets/{id} as sent. */
export type RenameDatasetRequest = z.input<typeof renameDatasetSchema>;
/** Body of PUT /api/v1/keys/{provider} as sent. */
export type SaveProviderKeyRequest = z.input<typeof saveProviderKeySchema>;
/** Body of POST /api/v1/keys/{provider}/test as sent. */
export type TestProviderKeyRequest = z.input<typeof testProviderKeySchema>;
/** Body of PUT /api/v1/prices as sent. */
export type SavePriceRequest = z.input<typeof savePriceSchema>;
/** Query of DELETE /api/v1/prices. */
export type PriceKey = z.input<typeof priceKeySchema>;
/** Body of PUT /api/v1/limits/{provider} as sent. */
export type SaveLimitsRequest = z.input<typeof saveLimitsSchema>;
/** Body of PATCH /api/v1/runs/{id}/cells/{cellId} as sent. */
export type GradeCellRequest = z.input<typeof gradeCellSchema>;
/** Body of PATCH /api/v1/workbench as sent. */
export type UpdateWorkbenchRequest = z.input<typeof updateWorkbenchSchema>;
/** Body of POST /api/v1/tokens as sent. */
export type CreateTokenRequest = z.input<typeof createTokenSchema>;
/** Body of POST /api/v1/session as sent. */
export type SignInRequest = z.input<typeof signInSchema>;
