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
  if ([...named].some((provider) => Object.hasOwn(sdkOf, provider))) void warmUpSdk().catch(() => {});
}

/** A chat completion in the OpenAI-compatible wire format, the warm-up's canned answer. */
const cannedAnswer = JSON.stringify({
  id: "warm-up",
  object: "chat.completion",
  created: 0,
  model: "warm-up",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

/**
 * Asks an AI SDK model once, as the adapters ask theirs (generateAnswer), with a fetch that answers
 * from memory: the SDK's first call builds and compiles its answer schemas (zod), ~20 ms on the
 * bench machine, which the command's first real call would otherwise spend after its claim.
 * Nothing goes out: the model's fetch is the canned one, and its base URL a name that never
 * resolves (.invalid).
 */
export async function warmUpSdk(): Promise<void> {
  const [{ generateAnswer }, { createOpenAICompatible }] = await Promise.all([
    import("./ai-sdk-text-provider"),
    import("@ai-sdk/openai-compatible"),
  ]);
  const model = createOpenAICompatible({
    name: "warm-up",
    baseURL: "http://warm-up.invalid/v1",
    fetch: async () => new Response(cannedAnswer, { headers: { "content-type": "application/json" } }),
  }).chatModel("warm-up");
  await generateAnswer(model, { system: undefined, prompt: "warm-up" });
}
