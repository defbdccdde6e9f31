import { providerParamsSchema, saveProviderKeySchema } from "@/lib/api/schemas";
import { lastFour, sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import { deleteProviderKey, updateProviderBaseUrl, upsertProviderKey } from "@/lib/db/keys/provider-keys";
import { route } from "@/lib/server/route";
import { HttpError } from "@/lib/server/http-errors";

export const dynamic = "force-dynamic";

/**
 * Stores the caller's key for a provider, sealed with AES-256-GCM, and/or its base URL; answers
 * the summary only. A base URL alone changes the URL of the stored key, or stores a keyless
 * entry for servers that need none (Ollama, an OpenAI-compatible server).
 */
export const PUT = route({ params: providerParamsSchema, body: saveProviderKeySchema }, async ({ caller, params, body, app }) => {
  if (!app.providers.has(params.provider)) throw new HttpError("bad_request", `Unknown provider "${params.provider}".`, "provider");
  const { apiKey, baseUrl = null } = body;
  const summary = await asUser(app.db, caller.userId, async (tx) => {
    if (apiKey === undefined) {
      const updated = await updateProviderBaseUrl(tx, { provider: params.provider, baseUrl });
      if (updated) return updated;
      const needsKey = app.providers.list().find((provider) => provider.id === params.provider)?.needsKey ?? true;
      if (needsKey) throw new HttpError("bad_request", `${params.provider} needs an API key: paste one to save.`, "apiKey");
    }
    const secret = apiKey ?? "";
    return upsertProviderKey(tx, { provider: params.provider, sealed: sealSecret(app.secretKey, secret), last4: apiKey ? lastFour(apiKey) : "", baseUrl });
  });
  // after the commit, so no call in between can remember the old key again
  app.providers.forgetCredentials({ provider: params.provider, userId: caller.userId });
  return summary;
});

/** Forgets the caller's key for a provider. */
export const DELETE = route({ params: providerParamsSchema }, async ({ caller, params, app }) => {
  const deleted = await asUser(app.db, caller.userId, (tx) => deleteProviderKey(tx, { provider: params.provider }));
  app.providers.forgetCredentials({ provider: params.provider, userId: caller.userId });
  if (!deleted) throw new HttpError("not_found", `No ${params.provider} key is stored.`);
  return { deleted: true };
});
