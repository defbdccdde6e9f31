// Typed fetch helpers for the provider keys of Settings -> Keys. A key travels to the server in
// one PUT and never comes back: every answer holds its last four characters at most.
import { requestJson } from "./api";

/**
 * A stored key as the server shows it: never the key itself. last4 is empty for an entry saved
 * with a base URL only; baseUrl is the only address the key is sent to (null: the default one).
 */
export type ProviderKeySummary = { provider: string; last4: string; baseUrl: string | null; updatedAt: string };

/** A provider the server knows, as `GET /api/v1/keys` lists it, with the base URL a key saved without one goes to. */
export type KeyProvider = { id: string; label: string; needsKey: boolean; defaultBaseUrl?: string | null };

/** What a key test answered: the call worked (and how long it took), or why it did not. */
export type KeyTestResult = { ok: true; latencyMs: number } | { ok: false; code: string; message: string };

/** The caller's stored keys and every provider the server offers. */
export function listKeys(): Promise<{ keys: ProviderKeySummary[]; providers: KeyProvider[] }> {
  return requestJson("/api/v1/keys");
}

/**
 * Stores (or replaces) the key for a provider, bound to baseUrl (null: the provider's default).
 * apiKey may be left out for providers that need none (Ollama, an OpenAI-compatible server),
 * which take a base URL only; a stored key is never moved to another base URL without it.
 */
export function saveKey({
  provider,
  apiKey,
  baseUrl,
}: {
  provider: string;
  apiKey?: string;
  baseUrl?: string | null;
}): Promise<ProviderKeySummary> {
  return requestJson(keyPath(provider), { method: "PUT", body: JSON.stringify({ apiKey, baseUrl }) });
}

/** Forgets the key for a provider. */
export function deleteKey({ provider }: { provider: string }): Promise<{ deleted: true }> {
  return requestJson(keyPath(provider), { method: "DELETE" });
}

/** Makes one minimal real call to the provider with the stored credentials. */
export function testKey({ provider, model }: { provider: string; model: string }): Promise<KeyTestResult> {
  return requestJson(`${keyPath(provider)}/test`, { method: "POST", body: JSON.stringify({ model }) });
}

function keyPath(provider: string): string {
  return `/api/v1/keys/${encodeURIComponent(provider)}`;
}

