import type { TextProvider } from "../types";
import { createAiSdkTextProvider } from "./ai-sdk-text-provider";
import { loadOnce } from "./load-once";
import type { AdapterOptions } from "./adapter-options";
import { createGuardedFetch } from "./guarded-fetch";
import { listTableModels, tableContextWindow } from "./table-models";

/**
 * Groq's OpenAI-compatible chat completions. Groq's API reference lists frequency_penalty and
 * presence_penalty as not yet supported, so they are warned about rather than sent.
 */
export function createGroqProvider(options: AdapterOptions): TextProvider {
  const groq = loadOnce(async () =>
    (await import("@ai-sdk/groq")).createGroq({
      apiKey: options.apiKey ?? "",
      baseURL: options.baseURL,
      fetch: createGuardedFetch({ ...options, label: "Groq" }),
    }),
  );
  return createAiSdkTextProvider({
    id: "groq",
    label: "Groq",
    apiKey: options.apiKey,
    needsKey: true,
    supportedParams: ["temperature", "maxTokens", "topP", "stopSequences", "system", "seed"],
    errorCodes: {
      auth: ["invalid_api_key"],
      modelNotFound: ["model_not_found"],
      contextOverflow: ["context_length_exceeded"],
      rateLimited: ["rate_limit_exceeded"],
    },
    languageModel: async (model) => (await groq())(model),
    listModels: async () => listTableModels("groq", "Groq"),
    contextWindow: tableContextWindow("groq"),
  });
}
