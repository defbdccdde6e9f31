import type { TextProvider } from "../types";
import { createAiSdkTextProvider } from "./ai-sdk-text-provider";
import type { AdapterOptions } from "./adapter-options";
import { createGuardedFetch } from "./guarded-fetch";
import { loadOnce } from "./load-once";
import { listTableModels, tableContextWindow } from "./table-models";

/**
 * Anthropic's Messages API. Its error types (https://docs.anthropic.com/en/api/errors) have no
 * code for a prompt longer than the context window: that arrives as a plain invalid_request_error.
 */
export function createAnthropicProvider(options: AdapterOptions): TextProvider {
  const anthropic = loadOnce(async () =>
    (await import("@ai-sdk/anthropic")).createAnthropic({
      apiKey: options.apiKey ?? "",
      baseURL: options.baseURL,
      fetch: createGuardedFetch({ ...options, label: "Anthropic" }),
    }),
  );
  return createAiSdkTextProvider({
    id: "anthropic",
    label: "Anthropic",
    apiKey: options.apiKey,
    needsKey: true,
    supportedParams: ["temperature", "maxTokens", "topP", "topK", "stopSequences", "system"],
    errorCodes: {
      auth: ["authentication_error", "permission_error"],
      modelNotFound: ["not_found_error"],
      rateLimited: ["rate_limit_error"],
      server: ["api_error", "overloaded_error"],
    },
    languageModel: async (model) => (await anthropic())(model),
    listModels: async () => listTableModels("anthropic", "Anthropic"),
    contextWindow: tableContextWindow("anthropic"),
  });
}
