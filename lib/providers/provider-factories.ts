import type { AdapterOptions } from "./adapters/adapter-options";
import { createAnthropicProvider } from "./adapters/anthropic";
import { createGeminiProvider } from "./adapters/gemini";
import { createGroqProvider } from "./adapters/groq";
import { createOllamaProvider } from "./adapters/ollama";
import { createOpenAIProvider } from "./adapters/openai";
import { createOpenAICompatibleProvider } from "./adapters/openai-compatible";
import { createOpenRouterProvider } from "./adapters/openrouter";
import { checkBaseUrl } from "./base-url-policy";
import { ProviderError } from "./provider-error";
import type { TextProvider } from "./types";

/** A user's (or the environment's) settings for one provider. */
export interface ProviderCredentials {
  apiKey: string | null;
  baseURL: string | null;
  /**
   * False where the server may not call private addresses (see base-url-policy): the adapter then
   * also refuses a host that resolves to one. Unset means allowed.
   */
  allowPrivateAddresses?: boolean;
  /**
   * True when nobody chose these: no saved entry and no environment variable, only the provider's
   * default address (a local Ollama nobody set up). Such a provider that does not answer is not
   * set up, rather than broken.
   */
  implicit?: boolean;
}

/** How to make a provider's adapter, and what it needs. */
export interface ProviderFactory {
  id: string;
  label: string;
  needsKey: boolean;
  defaultBaseURL: string | null;
  /** The environment variable that holds the key, if any. */
  envKey: string | null;
  /** Further environment variables that hold the key when envKey is unset. */
  envKeyAliases?: string[];
  create(credentials: ProviderCredentials, options?: { fetch?: typeof fetch }): TextProvider;
}

/** The vendor adapters, by provider id. */
export const providerFactories: Record<string, ProviderFactory> = {
  openai: vendor(
    { id: "openai", label: "OpenAI", needsKey: true, defaultBaseURL: "https://api.openai.com/v1", envKey: "OPENAI_API_KEY" },
    createOpenAIProvider,
  ),
  anthropic: vendor(
    { id: "anthropic", label: "Anthropic", needsKey: true, defaultBaseURL: "https://api.anthropic.com/v1", envKey: "ANTHROPIC_API_KEY" },
    createAnthropicProvider,
  ),
  openrouter: vendor(
    { id: "openrouter", label: "OpenRouter", needsKey: true, defaultBaseURL: "https://openrouter.ai/api/v1", envKey: "OPENROUTER_API_KEY" },
    createOpenRouterProvider,
  ),
  groq: vendor(
    { id: "groq", label: "Groq", needsKey: true, defaultBaseURL: "https://api.groq.com/openai/v1", envKey: "GROQ_API_KEY" },
    createGroqProvider,
  ),
  gemini: vendor(
    {
      id: "gemini",
      label: "Gemini",
      needsKey: true,
      defaultBaseURL: "https://generativelanguage.googleapis.com/v1beta",
      envKey: "GOOGLE_GENERATIVE_AI_API_KEY",
      envKeyAliases: ["GEMINI_API_KEY"],
    },
    createGeminiProvider,
  ),
  ollama: vendor(
    // The base URL comes from OLLAMA_BASE_URL (<PROVIDER>_BASE_URL) where the credentials are read.
    { id: "ollama", label: "Ollama", needsKey: false, defaultBaseURL: "http://localhost:11434", envKey: null },
    createOllamaProvider,
  ),
  "openai-compatible": vendor(
    {
      id: "openai-compatible",
      label: "OpenAI-compatible (LM Studio, vLLM, llama.cpp)",
      needsKey: false,
      defaultBaseURL: null,
      envKey: null,
    },
    createOpenAICompatibleProvider,
  ),
};

function vendor(spec: Omit<ProviderFactory, "create">, build: (options: AdapterOptions) => TextProvider): ProviderFactory {
  return {
    ...spec,
    create: (credentials, options) =>
      build({
        apiKey: key(credentials),
        baseURL: baseURL(credentials, spec),
        fetch: options?.fetch,
        allowPrivateAddresses: credentials.allowPrivateAddresses,
      }),
  };
}

function key(credentials: ProviderCredentials): string | null {
  const value = credentials.apiKey?.trim();
  return value ? value : null;
}

function baseURL(credentials: ProviderCredentials, spec: Omit<ProviderFactory, "create">): string {
  const value = credentials.baseURL?.trim() || spec.defaultBaseURL;
  if (!value) {
    throw new ProviderError({
      code: "bad_request",
      message: `${spec.label} needs a base URL, e.g. http://localhost:1234/v1 for LM Studio or http://localhost:8080/v1 for llama.cpp.`,
    });
  }
  // Whoever chose the URL (a stored key, the environment, a test), no adapter sends to file:,
  // data: or a URL with credentials in it. Private addresses are the credential source's call.
  const verdict = checkBaseUrl(value, { allowPrivate: true });
  if (!verdict.ok) throw new ProviderError({ code: "bad_request", message: `${spec.label}'s base URL is refused: ${verdict.message}` });
  return value.trim().replace(/\/+$/, "");
}
