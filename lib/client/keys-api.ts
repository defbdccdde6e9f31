// Typed fetch helpers for the provider keys of Settings -> Keys. A key travels to the server in
// one PUT and never comes back: every answer holds its last four characters at most.
import type { KeyProvider, KeyTestResult, ProviderKeySummary } from "@/lib/api/responses";
import type { SaveProviderKeyRequest, TestProviderKeyRequest } from "@/lib/api/schemas";
import { requestJson } from "./api";

export type { KeyProvider, KeyTestResult, ProviderKeySummary };

/** The caller's stored keys and every provider the server offers. */
export function listKeys(): Promise<{ keys: ProviderKeySummary[]; providers: KeyProvider[] }> {
  return requestJson("/api/v1/keys");
}

/**
 * Stores (or replaces) the key for a provider, bound to baseUrl (null: the provider's default).
 * apiKey may be left out for providers that need none (Ollama, an OpenAI-compatible server),
 * which take a base URL only; a stored key is never moved to another base URL without it.
 */
export function saveKey({ provider, apiKey, baseUrl }: { provider: string } & SaveProviderKeyRequest): Promise<ProviderKeySummary> {
  const body: SaveProviderKeyRequest = { apiKey, baseUrl };
  return requestJson(keyPath(provider), { method: "PUT", body: JSON.stringify(body) });
}

/** Forgets the key for a provider. */
export function deleteKey({ provider }: { provider: string }): Promise<{ deleted: true }> {
  return requestJson(keyPath(provider), { method: "DELETE" });
}

/** Makes one minimal real call to the provider with the stored credentials. */
export function testKey({ provider, model }: { provider: string } & TestProviderKeyRequest): Promise<KeyTestResult> {
  const body: TestProviderKeyRequest = { model };
  return requestJson(`${keyPath(provider)}/test`, { method: "POST", body: JSON.stringify(body) });
}

function keyPath(provider: string): string {
  return `/api/v1/keys/${encodeURIComponent(provider)}`;
}
