import type { TextProvider } from "../types";
import { createAiSdkTextProvider } from "./ai-sdk-text-provider";
import { loadOnce } from "./load-once";
import type { AdapterOptions } from "./adapter-options";
import { createGuardedFetch } from "./guarded-fetch";
import { listTableModels, tableContextWindow } from "./table-models";

/** OpenAI's chat completions API (not /v1/responses, which `createOpenAI(...)(model)` would call). */
export function createOpenAIProvider(options: AdapterOptions): TextProvider {
  const openai = loadOnce(async () =>
    (await import("@ai-sdk/openai")).createOpenAI({
      apiKey: options.apiKey ?? "",
      baseURL: options.baseURL,
      fetch: createGuardedFetch({ ...options, label: "OpenAI" }),
    }),
  );
  return createAiSdkTextProvider({
    id: "openai",
    label: "OpenAI",
    apiKey: options.apiKey,
    needsKey: true,
    supportedParams: ["temperature", "maxTokens", "topP", "stopSequences", "system", "seed", "frequencyPenalty", "presencePenalty"],
    errorCodes: {
      auth: ["invalid_api_key"],
      modelNotFound: ["model_not_found"],
      contextOverflow: ["context_length_exceeded"],
      rateLimited: ["rate_limit_exceeded"],
      quotaExhausted: ["insufficient_quota"],
      server: ["server_error"],
    },
    languageModel: async (model) => (await openai()).chat(model),
    listModels: async () => listTableModels("openai", "OpenAI"),
    contextWindow: tableContextWindow("openai"),
  });
}
