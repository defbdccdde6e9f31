import { deletedSchema, providerKeySummarySchema } from "@/lib/api/responses";
import { providerParamsSchema, saveProviderKeySchema } from "@/lib/api/schemas";
import { lastFour, sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import { deleteProviderKey, getProviderKeySummary, updateProviderBaseUrl, upsertProviderKey } from "@/lib/db/keys/provider-keys";
import { checkBaseUrl, sameBaseUrl } from "@/lib/providers/base-url-policy";
import { route } from "@/lib/server/route";
import { HttpError } from "@/lib/server/http-errors";

export const dynamic = "force-dynamic";

/**
 * Stores the caller's key for a provider, sealed with AES-256-GCM, with the base URL it is for;
 * answers the summary only. A key is bound to that URL (none: the provider's default): a base URL
 * alone never moves a stored key, it is refused unless it is the key's own, so a key goes to a new
 * address only when someone who has it enters it again. A base URL alone does store or change a
 * keyless entry, for servers that need no key (Ollama, an OpenAI-compatible server). Every URL
 * passes the base URL policy (http(s), no credentials, private addresses only where allowed).
 */
export const PUT = route(
  { params: providerParamsSchema, body: saveProviderKeySchema, output: providerKeySummarySchema },
  async ({ caller, params, body, app }) => {
    const provider = app.providers.list().find((entry) => entry.id === params.provider);
    if (!provider) throw new HttpError("bad_request", `Unknown provider "${params.provider}".`, "provider");
    const { apiKey } = body;
    const baseUrl = body.baseUrl == null ? null : checkedBaseUrl(body.baseUrl, app.access.allowPrivateBaseUrls);
    // The address the key will be sent to, checked too: Ollama's default is this machine.
    if (baseUrl === null && provider.defaultBaseUrl !== null) checkedBaseUrl(provider.defaultBaseUrl, app.access.allowPrivateBaseUrls);

    const summary = await asUser(app.db, caller.userId, async (tx) => {
      if (apiKey === undefined) {
        const current = await getProviderKeySummary(tx, { provider: params.provider });
        if (current && current.last4 !== "") {
          const boundTo = current.baseUrl ?? provider.defaultBaseUrl;
          if (sameBaseUrl(current.baseUrl ?? provider.defaultBaseUrl, baseUrl ?? provider.defaultBaseUrl)) return current;
          throw new HttpError(
            "bad_request",
            `The stored ${provider.label} key is bound to the base URL it was saved with (${boundTo ?? "none"}): paste the key again to use it with another base URL. A saved key is never sent to a new address without being entered again.`,
            "baseUrl",
          );
        }
        if (current) {
          const updated = await updateProviderBaseUrl(tx, { provider: params.provider, baseUrl });
          if (updated) return updated;
        }
        if (provider.needsKey) throw new HttpError("bad_request", `${params.provider} needs an API key: paste one to save.`, "apiKey");
      } else if (baseUrl === null && provider.defaultBaseUrl === null) {
        throw new HttpError(
          "bad_request",
          `${provider.label} has no default address: give the base URL of the server this key is for.`,
          "baseUrl",
        );
      }
      const secret = apiKey ?? "";
      return upsertProviderKey(tx, {
        provider: params.provider,
        sealed: sealSecret(app.secretKey, secret),
        last4: apiKey ? lastFour(apiKey) : "",
        baseUrl,
      });
    });
    // after the commit, so no call in between can remember the old key again
    app.providers.forgetCredentials({ provider: params.provider, userId: caller.userId });
    return summary;
  },
);

/** Forgets the caller's key for a provider. */
export const DELETE = route({ params: providerParamsSchema, output: deletedSchema }, async ({ caller, params, app }) => {
  const deleted = await asUser(app.db, caller.userId, (tx) => deleteProviderKey(tx, { provider: params.provider }));
  app.providers.forgetCredentials({ provider: params.provider, userId: caller.userId });
  if (!deleted) throw new HttpError("not_found", `No ${params.provider} key is stored.`);
  return { deleted: true as const };
});

/** The base URL as stored (normalised), or a 400 naming the rule it breaks. */
function checkedBaseUrl(url: string, allowPrivate: boolean): string {
  const verdict = checkBaseUrl(url, { allowPrivate });
  if (!verdict.ok) throw new HttpError("bad_request", `baseUrl: ${verdict.message}`, "baseUrl");
  return verdict.url;
}
