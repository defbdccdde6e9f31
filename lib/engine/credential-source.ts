import type { Environment } from "@/lib/environment";
import { localUserId } from "@/lib/auth/local-user";
import { openSecret } from "@/lib/auth/secret-box";
import type { Database } from "@/lib/db/database";
import { getSealedProviderKey } from "@/lib/db/keys/provider-keys";
import { ProviderError } from "@/lib/providers/provider-error";
import type { CredentialSource } from "@/lib/providers/registry";

/**
 * Credentials from the user's stored key (decrypted here, in the worker, and nowhere else), or
 * for the local single user from the environment (.env) when none is stored.
 */
export function createCredentialSource({ db, secretKey, env = process.env }: { db: Database; secretKey: Buffer; env?: Environment }): CredentialSource {
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
    const envBaseUrl = env[`${provider.toUpperCase().replaceAll("-", "_")}_BASE_URL`] || null;
    if (stored) {
      // an entry saved with a base URL only (Ollama, an OpenAI-compatible server) holds no key
      return { apiKey: openSecret(secretKey, stored.sealed) || null, baseURL: stored.baseUrl ?? envBaseUrl ?? factory.defaultBaseURL };
    }
    const envNames = [factory.envKey, ...(factory.envKeyAliases ?? [])].filter((name): name is string => Boolean(name));
    const envKey = userId === localUserId ? envNames.map((name) => env[name]).find(Boolean) ?? null : null;
    if (factory.needsKey && !envKey) {
      throw new ProviderError({
        code: "auth",
        message: `No ${factory.label} key: add one in Settings -> Keys${factory.envKey ? `, or set ${factory.envKey} in .env` : ""}.`,
      });
    }
    return { apiKey: envKey, baseURL: envBaseUrl ?? factory.defaultBaseURL };
  }
}

const credentialTtlMs = 5_000;
