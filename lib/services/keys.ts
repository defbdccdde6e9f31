import type { z } from "zod";
import type { KeyTestResult } from "@/lib/api/responses";
import type { saveProviderKeySchema } from "@/lib/api/schemas";
import type { AccessConfig } from "@/lib/auth/access-config";
import { lastFour, sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import {
  deleteProviderKey as deleteProviderKeyRow,
  getProviderKeySummary,
  listProviderKeys as listProviderKeyRows,
  updateProviderBaseUrl,
  upsertProviderKey,
  type ProviderKeySummary,
} from "@/lib/db/keys/provider-keys";
import { InvalidInputError, NotFoundError } from "@/lib/engine/errors";
import { checkBaseUrl, sameBaseUrl } from "@/lib/providers/base-url-policy";
import { isProviderError } from "@/lib/providers/provider-error";
import type { ProviderRegistry } from "@/lib/providers/registry";

/** userId's stored keys (provider, last four characters and base URL, never the key), and every provider. */
export async function listProviderKeys(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  { userId }: { userId: string },
): Promise<{ keys: ProviderKeySummary[]; providers: ReturnType<ProviderRegistry["list"]> }> {
  return { keys: await asUser(db, userId, (tx) => listProviderKeyRows(tx)), providers: providers.list() };
}

/**
 * Stores userId's key for a provider, sealed with AES-256-GCM, with the base URL it is for;
 * answers the summary only. A key is bound to that URL (none: the provider's default): a base URL
 * alone never moves a stored key, it is refused unless it is the key's own, so a key goes to a new
 * address only when someone who has it enters it again. A base URL alone does store or change a
 * keyless entry, for servers that need no key (Ollama, an OpenAI-compatible server). Every URL
 * passes the base URL policy (http(s), no credentials, private addresses only where allowed).
 */
export async function saveProviderKey(
  {
    db,
    providers,
    secretKey,
    access,
  }: { db: Database; providers: ProviderRegistry; secretKey: Buffer; access: Pick<AccessConfig, "allowPrivateBaseUrls"> },
  { userId, provider: providerId, key }: { userId: string; provider: string; key: z.infer<typeof saveProviderKeySchema> },
): Promise<ProviderKeySummary> {
  const provider = providers.list().find((entry) => entry.id === providerId);
  if (!provider) throw new InvalidInputError(`Unknown provider "${providerId}".`, "provider");
  const { apiKey } = key;
  const baseUrl = key.baseUrl == null ? null : checkedBaseUrl(key.baseUrl, access.allowPrivateBaseUrls);
  // The address the key will be sent to, checked too: Ollama's default is this machine.
  if (baseUrl === null && provider.defaultBaseUrl !== null) checkedBaseUrl(provider.defaultBaseUrl, access.allowPrivateBaseUrls);

  const summary = await asUser(db, userId, async (tx) => {
    if (apiKey === undefined) {
      const current = await getProviderKeySummary(tx, { provider: providerId });
      if (current && current.last4 !== "") {
        const boundTo = current.baseUrl ?? provider.defaultBaseUrl;
        if (sameBaseUrl(current.baseUrl ?? provider.defaultBaseUrl, baseUrl ?? provider.defaultBaseUrl)) return current;
        throw new InvalidInputError(
          `The stored ${provider.label} key is bound to the base URL it was saved with (${boundTo ?? "none"}): paste the key again to use it with another base URL. A saved key is never sent to a new address without being entered again.`,
          "baseUrl",
        );
      }
      if (current) {
        const updated = await updateProviderBaseUrl(tx, { provider: providerId, baseUrl });
        if (updated) return updated;
      }
      if (provider.needsKey) throw new InvalidInputError(`${providerId} needs an API key: paste one to save.`, "apiKey");
    } else if (baseUrl === null && provider.defaultBaseUrl === null) {
      throw new InvalidInputError(`${provider.label} has no default address: give the base URL of the server this key is for.`, "baseUrl");
    }
    const secret = apiKey ?? "";
    return upsertProviderKey(tx, {
      provider: providerId,
      sealed: sealSecret(secretKey, secret),
      last4: apiKey ? lastFour(apiKey) : "",
      baseUrl,
    });
  });
  // after the commit, so no call in between can remember the old key again
  providers.forgetCredentials({ provider: providerId, userId });
  return summary;
}

/** Forgets userId's key for a provider. */
export async function deleteProviderKey(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  { userId, provider }: { userId: string; provider: string },
): Promise<{ deleted: true }> {
  const deleted = await asUser(db, userId, (tx) => deleteProviderKeyRow(tx, { provider }));
  providers.forgetCredentials({ provider, userId });
  if (!deleted) throw new NotFoundError(`No ${provider} key is stored.`);
  return { deleted: true };
}

/**
 * Tries userId's credentials for a provider with a minimal real call (one token). Answers
 * {ok: true, latencyMs} or {ok: false, code, message}; the message never holds the key.
 */
export async function testProviderKey(
  { providers }: { providers: ProviderRegistry },
  { userId, provider: providerId, model }: { userId: string; provider: string; model: string },
): Promise<KeyTestResult> {
  const started = performance.now();
  try {
    const provider = await providers.resolve({ provider: providerId, userId });
    await provider.generate({
      model,
      prompt: "Say OK.",
      params: { maxTokens: 1 },
      variables: {},
      signal: AbortSignal.timeout(20_000),
    });
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    if (!isProviderError(error)) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

/** The base URL as stored (normalised), or a 400 naming the rule it breaks. */
function checkedBaseUrl(url: string, allowPrivate: boolean): string {
  const verdict = checkBaseUrl(url, { allowPrivate });
  if (!verdict.ok) throw new InvalidInputError(`baseUrl: ${verdict.message}`, "baseUrl");
  return verdict.url;
}
