import type { TextProvider } from "../types";
import type { AdapterOptions } from "./adapter-options";
import { createAiSdkTextProvider } from "./ai-sdk-text-provider";
import { loadOnce } from "./load-once";
import { createGuardedFetch } from "./guarded-fetch";

/**
 * Any server that speaks OpenAI's chat completions: LM Studio, vLLM, llama.cpp's llama-server.
 * The key is optional. llama-server reports a prompt longer than its context as the error type
 * exceed_context_size_error (with n_prompt_tokens and n_ctx); OpenAI-style servers use the code
 * context_length_exceeded.
 */
export function createOpenAICompatibleProvider(options: AdapterOptions): TextProvider {
  const label = `${hostOf(options.baseURL)} (OpenAI-compatible)`;
  const server = loadOnce(async () =>
    (await import("@ai-sdk/openai-compatible")).createOpenAICompatible({
      name: "openai-compatible",
      baseURL: options.baseURL,
      apiKey: options.apiKey ?? undefined,
      // Without it streamed answers carry no token counts.
      includeUsage: true,
      fetch: createGuardedFetch({ ...options, label }),
    }),
  );
  return createAiSdkTextProvider({
    id: "openai-compatible",
    label,
    apiKey: options.apiKey,
    needsKey: false,
    supportedParams: ["temperature", "maxTokens", "topP", "stopSequences", "system", "seed", "frequencyPenalty", "presencePenalty"],
    errorCodes: {
      auth: ["invalid_api_key"],
      modelNotFound: ["model_not_found"],
      contextOverflow: ["context_length_exceeded", "exceed_context_size_error"],
    },
    languageModel: async (model) => (await server()).chatModel(model),
    // No shipped table can know what a self-hosted server runs.
    listModels: async () => [],
    contextWindow: async () => null,
  });
}

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}
