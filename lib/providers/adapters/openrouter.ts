import type { MetadataExtractor } from "@ai-sdk/openai-compatible";
import { ProviderError } from "../provider-error";
import type { ModelInfo, TextProvider } from "../types";
import type { AdapterOptions } from "./adapter-options";
import { createAiSdkTextProvider } from "./ai-sdk-text-provider";
import { loadOnce } from "./load-once";
import { createGuardedFetch } from "./guarded-fetch";
import type { ErrorContext } from "./classify-error";
import { METADATA_TIMEOUT_MS, readJsonBody, sendRequest } from "./send-request";

interface OpenRouterModel {
  id: string;
  name: string | null;
  contextLength: number | null;
  /** From pricing.prompt / pricing.completion (dollars per token), per million tokens. */
  price: { inputPerMTok: number | null; outputPerMTok: number | null } | null;
}

/**
 * OpenRouter over its OpenAI-compatible chat completions. Its errors carry the HTTP status as a
 * number in error.code (https://openrouter.ai/docs/api/reference/errors-and-debugging); errors
 * from the upstream model can also arrive inside a 200 stream, where the same shape is read.
 */
export function createOpenRouterProvider(options: AdapterOptions): TextProvider {
  // Chat and the model list alike: capped, no redirects (see createGuardedFetch).
  const fetch = createGuardedFetch({ ...options, label: "OpenRouter" });
  const openrouter = loadOnce(async () =>
    (await import("@ai-sdk/openai-compatible")).createOpenAICompatible({
      name: "openrouter",
      baseURL: options.baseURL,
      apiKey: options.apiKey ?? undefined,
      // Without it streamed answers carry no token counts.
      includeUsage: true,
      // OpenRouter's app attribution header; harmless elsewhere.
      headers: { "X-Title": "Parallaxr" },
      metadataExtractor: costExtractor,
      fetch,
    }),
  );

  let models: Promise<OpenRouterModel[]> | null = null;
  // One /models request per adapter instance; a failed one is not remembered.
  const loadModels = () => {
    models ??= fetchModels({ ...options, fetch }).catch((error: unknown) => {
      models = null;
      throw error;
    });
    return models;
  };

  return createAiSdkTextProvider({
    id: "openrouter",
    label: "OpenRouter",
    apiKey: options.apiKey,
    needsKey: true,
    supportedParams: ["temperature", "maxTokens", "topP", "stopSequences", "system", "seed", "frequencyPenalty", "presencePenalty"],
    errorCodes: {
      // Passed through from OpenAI-style upstreams.
      contextOverflow: ["context_length_exceeded"],
      modelNotFound: ["model_not_found"],
    },
    languageModel: async (model) => (await openrouter()).chatModel(model),
    costUsd: (metadata) => {
      const cost = metadata?.openrouter?.cost;
      return typeof cost === "number" && Number.isFinite(cost) ? cost : null;
    },
    async listModels(): Promise<ModelInfo[]> {
      return (await loadModels()).map((model) => ({
        provider: "openrouter",
        model: model.id,
        label: `OpenRouter / ${model.name ?? model.id}`,
        contextWindow: model.contextLength,
        price: model.price,
      }));
    },
    async contextWindow(model) {
      return (await loadModels()).find((entry) => entry.id === model)?.contextLength ?? null;
    },
  });
}

async function fetchModels(options: AdapterOptions): Promise<OpenRouterModel[]> {
  const context: ErrorContext = { provider: "OpenRouter", model: "(model list)", apiKey: options.apiKey };
  const response = await sendRequest({
    url: `${options.baseURL.replace(/\/+$/, "")}/models`,
    headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    fetch: options.fetch,
    signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
    context,
  });
  const body = await readJsonBody(response, context);
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    throw new ProviderError({ code: "server", message: "OpenRouter's model list has no data array." });
  }
  return data.flatMap((entry): OpenRouterModel[] => {
    if (typeof entry !== "object" || entry === null || typeof entry.id !== "string") return [];
    const contextLength = positiveInteger(entry.context_length) ?? positiveInteger(entry.top_provider?.context_length);
    const input = perMillion(entry.pricing?.prompt);
    const output = perMillion(entry.pricing?.completion);
    const price = input == null && output == null ? null : { inputPerMTok: input, outputPerMTok: output };
    return [{ id: entry.id, name: typeof entry.name === "string" ? entry.name : null, contextLength, price }];
  });
}

// OpenRouter lists prices as strings of dollars per token ("0.00000015"); we keep dollars per
// million tokens, rounded off the float noise of the multiplication.
function perMillion(value: unknown): number | null {
  const perToken = typeof value === "string" ? Number(value) : typeof value === "number" ? value : Number.NaN;
  return Number.isFinite(perToken) && perToken >= 0 ? Math.round(perToken * 1e6 * 1e6) / 1e6 : null;
}

function positiveInteger(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
}

/** OpenRouter reports what a call cost in usage.cost (US dollars), in the answer or the last chunk. */
const costExtractor: MetadataExtractor = {
  extractMetadata: async ({ parsedBody }) => costMetadata(parsedBody),
  createStreamExtractor() {
    let metadata: ReturnType<typeof costMetadata>;
    return {
      processChunk(chunk) {
        metadata = costMetadata(chunk) ?? metadata;
      },
      buildMetadata: () => metadata,
    };
  },
};

function costMetadata(body: unknown): { openrouter: { cost: number } } | undefined {
  const cost = (body as { usage?: { cost?: unknown } } | null)?.usage?.cost;
  return typeof cost === "number" ? { openrouter: { cost } } : undefined;
}
