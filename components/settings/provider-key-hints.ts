/** What the keys page shows for one provider: input hints and the model a key test calls. */
export type ProviderKeyHints = {
  /** What a key looks like, as the key input's placeholder. */
  keyPlaceholder: string;
  /**
   * Set when the provider takes a base URL: the URL it uses when none is given. Every vendor
   * takes one, entered with the key (a key is only ever sent to the URL it was saved with).
   */
  baseUrlPlaceholder?: string;
  /** A cheap model that every account can call, to try a key with; empty when none is known. */
  testModel: string;
};

// Test models are each vendor's cheapest current chat model, so a test costs a fraction of a cent.
const HINTS: Record<string, ProviderKeyHints> = {
  openai: { keyPlaceholder: "sk-…", baseUrlPlaceholder: "https://api.openai.com/v1", testModel: "gpt-4o-mini" },
  anthropic: { keyPlaceholder: "sk-ant-…", baseUrlPlaceholder: "https://api.anthropic.com/v1", testModel: "claude-3-5-haiku-latest" },
  openrouter: {
    keyPlaceholder: "sk-or-…",
    baseUrlPlaceholder: "https://openrouter.ai/api/v1",
    testModel: "openai/gpt-4o-mini",
  },
  groq: { keyPlaceholder: "gsk_…", baseUrlPlaceholder: "https://api.groq.com/openai/v1", testModel: "llama-3.1-8b-instant" },
  gemini: {
    keyPlaceholder: "AIza…",
    baseUrlPlaceholder: "https://generativelanguage.googleapis.com/v1beta",
    testModel: "gemini-2.0-flash",
  },
  // Image models only (batch runs): no text model to test a key with.
  flux: { keyPlaceholder: "Black Forest Labs API key", baseUrlPlaceholder: "https://api.bfl.ai", testModel: "" },
  ollama: { keyPlaceholder: "Only behind a proxy", baseUrlPlaceholder: "http://localhost:11434", testModel: "llama3.2" },
  "openai-compatible": {
    keyPlaceholder: "If the server asks for one",
    baseUrlPlaceholder: "http://localhost:1234/v1",
    testModel: "",
  },
};

/** The hints for a provider; an unknown provider gets a plain key input and no test model. */
export function providerKeyHints(provider: string): ProviderKeyHints {
  return HINTS[provider] ?? { keyPlaceholder: "", testModel: "" };
}

/**
 * True for providers that belong on the keys page: those that need a key, and those that take a
 * base URL (Ollama, OpenAI-compatible servers). The mock and local GGUF models need neither.
 */
export function hasKeySettings(provider: { id: string; needsKey: boolean }): boolean {
  return provider.needsKey || providerKeyHints(provider.id).baseUrlPlaceholder !== undefined;
}
