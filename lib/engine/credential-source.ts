import type { Environment } from "@/lib/environment";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { openSecret } from "@/lib/auth/secret-box";
import type { Database } from "@/lib/db/database";
import { getSealedProviderKey } from "@/lib/db/keys/provider-keys";
import { checkBaseUrl, sameBaseUrl } from "@/lib/providers/base-url-policy";
import type { ProviderCredentials } from "@/lib/providers/provider-factories";
import { ProviderError } from "@/lib/providers/provider-error";
import type { CredentialSource } from "@/lib/providers/registry";

/**
 * Credentials from the user's stored key (decrypted here, in the worker, and nowhere else), or
 * for the local single user from the environment (.env) when none is stored.
 *
 * A stored key goes only to the base URL it was saved with: its own, or the provider's default
 * when it was saved without one. <PROVIDER>_BASE_URL applies to the environment's key and to
 * keyless entries; it never redirects a stored key (a changed .env, or one shared between
 * servers, would otherwise send every user's key to a new address without anyone entering it).
 * Every URL, stored or from the environment, passes the base URL policy here, at call time: a
 * shared server refuses private addresses unless PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1.
 */
export function createCredentialSource({
  db,
  secretKey,
  env = process.env,
}: {
  db: Database;
  secretKey: Buffer;
  env?: Environment;
}): CredentialSource {
  const { allowPrivateBaseUrls } = readAccessConfig(env);
  // Every call of a vendor model asks for its credentials: keep what was found for a few seconds
  // so a run does not query and decrypt the key per cell. Misses are not kept, so a key just
  // added applies at once; a key saved or removed through this server applies at once (forget), through another
  // process within credentialTtlMs.
  const found = new Map<string, { credentials: Awaited<ReturnType<CredentialSource>>; at: number }>();
  const source: CredentialSource = async (input) => {
    const cacheKey = `${input.userId}|${input.provider}`;
    const hit = found.get(cacheKey);
    if (hit && Date.now() - hit.at < credentialTtlMs) return hit.credentials;
    const credentials = await lookUp(input);
    if (found.size > 10_000) found.clear();
    found.set(cacheKey, { credentials, at: Date.now() });
    return credentials;
  };
  source.forget = ({ userId, provider }) => found.delete(`${userId}|${provider}`);
  return source;

  async function lookUp({ provider, userId, factory }: Parameters<CredentialSource>[0]): ReturnType<CredentialSource> {
    const stored = await getSealedProviderKey(db, { userId, provider });
    const envBaseUrlName = `${provider.toUpperCase().replaceAll("-", "_")}_BASE_URL`;
    const envBaseUrl = env[envBaseUrlName] || null;
    if (stored) {
      // an entry saved with a base URL only (Ollama, an OpenAI-compatible server) holds no key
      const apiKey = openSecret(secretKey, stored.sealed) || null;
      if (stored.baseUrl) return checked({ apiKey, baseURL: stored.baseUrl }, "stored");
      if (!apiKey) return checked({ apiKey, baseURL: envBaseUrl ?? factory.defaultBaseURL }, envBaseUrl ? envBaseUrlName : "default");
      // A key saved without a base URL was saved for the default one.
      if (!factory.defaultBaseURL) {
        throw new ProviderError({
          code: "bad_request",
          message: `The stored ${factory.label} key was saved without a base URL, and ${factory.label} has no default: save the key again with its server's base URL in Settings -> Keys.`,
        });
      }
      if (envBaseUrl && !sameBaseUrl(envBaseUrl, factory.defaultBaseURL)) {
        throw new ProviderError({
          code: "bad_request",
          message:
            `The stored ${factory.label} key was saved for ${factory.defaultBaseURL}, but ${envBaseUrlName} names another address. ` +
            `A stored key is only sent to the base URL it was saved with: save the key again with that base URL in Settings -> Keys, or unset ${envBaseUrlName}.`,
        });
      }
      return checked({ apiKey, baseURL: factory.defaultBaseURL }, "default");
    }
    const envNames = [factory.envKey, ...(factory.envKeyAliases ?? [])].filter((name): name is string => Boolean(name));
    const envKey = userId === localUserId ? (envNames.map((name) => env[name]).find(Boolean) ?? null) : null;
    if (factory.needsKey && !envKey) {
      throw new ProviderError({
        code: "auth",
        message: `No ${factory.label} key: add one in Settings -> Keys${factory.envKey ? `, or set ${factory.envKey} in .env` : ""}.`,
      });
    }
    const credentials = checked({ apiKey: envKey, baseURL: envBaseUrl ?? factory.defaultBaseURL }, envBaseUrl ? envBaseUrlName : "default");
    return envBaseUrl || envKey ? credentials : { ...credentials, implicit: true };

    /** The credentials, once their URL passes the policy; `from` names where the URL came from, for the message. */
    function checked(credentials: { apiKey: string | null; baseURL: string | null }, from: string): ProviderCredentials {
      if (credentials.baseURL) {
        const verdict = checkBaseUrl(credentials.baseURL, { allowPrivate: allowPrivateBaseUrls });
        if (!verdict.ok) {
          const where = from === "stored" ? "The saved base URL" : from === "default" ? "The default base URL" : `The base URL in ${from}`;
          throw new ProviderError({ code: "bad_request", message: `${factory.label}: ${where} is refused. ${verdict.message}` });
        }
      }
      return { ...credentials, allowPrivateAddresses: allowPrivateBaseUrls };
    }
  }
}

const credentialTtlMs = 5_000;
