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
  return async ({ provider, userId, factory }) => {
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
  };
}
