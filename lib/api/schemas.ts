import { z } from "zod";

/** A model column in a run request. */
export const runModelSchema = z.object({
  provider: z.string().min(1, "provider is required"),
  model: z.string().min(1, "model is required"),
  params: z.record(z.string(), z.unknown()).optional(),
});

const cellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Body of POST /api/v1/runs: inline prompt and rows, or ids of a stored prompt and dataset. */
export const createRunSchema = z
  .object({
    prompt: z.string().min(1, "prompt must not be empty").max(1_000_000).optional(),
    promptId: z.uuid().optional(),
    rows: z.array(z.record(z.string(), cellValue)).max(100_000).optional(),
    datasetId: z.uuid().optional(),
    datasetName: z.string().min(1).max(200).optional(),
    models: z.array(runModelSchema).min(1, "at least one model is required").max(16),
    concurrency: z.int().min(1).max(1024).optional(),
    providerConcurrency: z.record(z.string(), z.int().min(1).max(1024)).optional(),
    maxAttempts: z.int().min(1).max(20).optional(),
    timeoutSeconds: z.number().positive().max(3600).optional(),
    trials: z.int().min(1).max(100).optional(),
    /** false: neither use nor fill the response cache for this run. */
    cache: z.boolean().optional(),
    /** A grader prompt: stored (graderPromptId) or inline (grader). It sees the row and {{output}}. */
    graderPromptId: z.uuid().optional(),
    grader: z.string().min(1, "grader must not be empty").max(1_000_000).optional(),
    /** The model that grades; by default each column's own model grades its cells. */
    graderModel: runModelSchema.omit({ params: true }).optional(),
    /** Stop scheduling before spent + in-flight estimates would pass this many US dollars. */
    budgetUsd: z.number().min(0).max(1_000_000).optional(),
    /** estimate (default with a budget), strict (also skips unpriced models) or off. */
    budgetMode: z.enum(["estimate", "strict", "off"]).optional(),
  })
  .superRefine((body, context) => {
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
export const createPromptSchema = z.object({
  name: z.string().min(1).max(200),
  text: z.string().max(1_000_000).default(""),
  type: z.enum(["generator", "grader"]).default("generator"),
});

/** Body of POST /api/v1/datasets. */
export const createDatasetSchema = z.object({
  name: z.string().min(1).max(200),
  rows: z.array(z.record(z.string(), cellValue)).min(1, "a dataset needs at least one row").max(100_000),
  headers: z.array(z.string()).optional(),
});

/** Body of PUT /api/v1/keys/{provider}: the key is write-only; answers show its last four. */
export const saveProviderKeySchema = z
  .object({
    apiKey: z.string().trim().min(8, "this is too short to be an API key (8 characters at least)").max(4096).optional(),
    baseUrl: z.url({ message: "baseUrl must be a URL such as http://localhost:1234/v1" }).optional().nullable(),
  })
  .refine((body) => body.apiKey !== undefined || body.baseUrl != null, { path: ["apiKey"], message: "give an API key, a base URL, or both" });

/** Path parameters naming a provider. */
export const providerParamsSchema = z.object({
  provider: z.string().regex(/^[a-z0-9-]{1,40}$/, "provider must be a provider id such as openai"),
});

const perMillion = z.number().min(0, "prices cannot be negative").max(100_000).nullable();

/** Body of PUT /api/v1/prices: the caller's price of one model, per million tokens. */
export const savePriceSchema = z.object({
  provider: z.string().min(1).max(40),
  model: z.string().min(1).max(200),
  inputPerMTok: perMillion,
  outputPerMTok: perMillion,
  perImage: z.number().min(0).max(1000).nullable().optional(),
});

/** Query of DELETE /api/v1/prices. */
export const priceKeySchema = z.object({ provider: z.string().min(1), model: z.string().min(1) });

/** Body of PUT /api/v1/limits/{provider}: null lifts a limit. */
export const saveLimitsSchema = z.object({
  maxConcurrency: z.int().min(1).max(1024).nullable(),
  requestsPerMinute: z.int().min(1).max(1_000_000).nullable(),
  tokensPerMinute: z.int().min(1).max(1_000_000_000).nullable(),
});

/** Body of PATCH /api/v1/prompts/{id}: autosave of the text, a rename, or a type change. */
export const updatePromptSchema = z
  .object({
    name: z.string().trim().min(1, "a prompt needs a name").max(200).optional(),
    text: z.string().max(1_000_000).optional(),
    type: z.enum(["generator", "grader"]).optional(),
  })
  .refine((body) => body.name !== undefined || body.text !== undefined || body.type !== undefined, {
    message: "give name, text or type",
    path: ["name"],
  });

/** Body of PATCH /api/v1/runs/{id}/cells/{cellId}: a person's grade (1 pass, 0 fail, null none). */
export const gradeCellSchema = z.object({ manualGrade: z.number().min(0).max(1).nullable() });

/** Body of PATCH /api/v1/workbench: the parts of the workbench setup that changed. */
export const updateWorkbenchSchema = z
  .object({
    activePromptId: z.uuid().nullable().optional(),
    datasetId: z.uuid().nullable().optional(),
    graderPromptId: z.uuid().nullable().optional(),
    columns: z.array(runModelSchema.extend({ params: z.record(z.string(), z.unknown()).default({}) })).max(4).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "give activePromptId, datasetId, graderPromptId or columns",
    path: ["activePromptId"],
  });
