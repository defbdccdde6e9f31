/** The vendor SDK each provider's adapter loads on its first call (the adapters in this folder). */
const sdkOf: Record<string, () => Promise<unknown>> = {
  openai: () => import("@ai-sdk/openai"),
  anthropic: () => import("@ai-sdk/anthropic"),
  gemini: () => import("@ai-sdk/google"),
  groq: () => import("@ai-sdk/groq"),
  openrouter: () => import("@ai-sdk/openai-compatible"),
  "openai-compatible": () => import("@ai-sdk/openai-compatible"),
};

/**
 * Starts loading the SDKs of the providers a command is about to call, while it waits for its
 * database: the first call then finds its SDK loaded (50-90 ms of `parallaxr run`'s start on the
 * bench machine) instead of loading it on the critical path. A provider with none, or a failed
 * load, is left to the first call, which reports it.
 */
export function preloadProviderSdks(providers: Iterable<string>): void {
  const named = new Set(providers);
  for (const provider of named) sdkOf[provider]?.().catch(() => {});
  // Node loads fetch's implementation (undici, with its HTTP/1 and HTTP/2 clients) on first use:
  // 40-80 ms of the first call's way out on the bench machine. Headers is part of it.
  if ([...named].some((provider) => provider !== "mock")) void new Headers();
}
