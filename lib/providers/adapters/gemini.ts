import type { TextProvider } from "../types";
import { createAiSdkTextProvider } from "./ai-sdk-text-provider";
import { loadOnce } from "./load-once";
import type { AdapterOptions } from "./adapter-options";
import { createGuardedFetch } from "./guarded-fetch";
import { listTableModels, tableContextWindow } from "./table-models";

/**
 * Google's Gemini API (generativelanguage.googleapis.com). A bad key comes back as 400
 * INVALID_ARGUMENT with the ErrorInfo reason API_KEY_INVALID, not as 401.
 */
export function createGeminiProvider(options: AdapterOptions): TextProvider {
  const google = loadOnce(async () =>
    (await import("@ai-sdk/google")).createGoogleGenerativeAI({
      apiKey: options.apiKey ?? "",
      baseURL: options.baseURL,
      fetch: createGuardedFetch({ ...options, label: "Gemini" }),
    }),
  );
  return createAiSdkTextProvider({
    id: "gemini",
    label: "Gemini",
    apiKey: options.apiKey,
    needsKey: true,
    supportedParams: ["temperature", "maxTokens", "topP", "topK", "stopSequences", "system", "seed", "frequencyPenalty", "presencePenalty"],
    errorCodes: {
      auth: ["API_KEY_INVALID", "UNAUTHENTICATED", "PERMISSION_DENIED"],
      modelNotFound: ["NOT_FOUND"],
      rateLimited: ["RESOURCE_EXHAUSTED"],
      server: ["INTERNAL", "UNAVAILABLE"],
    },
    languageModel: async (model) => (await google())(model),
    listModels: async () => listTableModels("gemini", "Gemini"),
    contextWindow: tableContextWindow("gemini"),
  });
}
