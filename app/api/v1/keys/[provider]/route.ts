import { providerParamsSchema, saveProviderKeySchema } from "@/lib/api/schemas";
import { lastFour, sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import { deleteProviderKey, upsertProviderKey } from "@/lib/db/keys/provider-keys";
import { route } from "@/lib/server/route";
import { HttpError } from "@/lib/server/http-errors";

export const dynamic = "force-dynamic";

/** Stores the caller's key for a provider, sealed with AES-256-GCM; answers its summary only. */
export const PUT = route({ params: providerParamsSchema, body: saveProviderKeySchema }, async ({ caller, params, body, app }) => {
  if (!app.providers.has(params.provider)) throw new HttpError("bad_request", `Unknown provider "${params.provider}".`, "provider");
  const sealed = sealSecret(app.secretKey, body.apiKey);
  return asUser(app.db, caller.userId, (tx) =>
    upsertProviderKey(tx, { provider: params.provider, sealed, last4: lastFour(body.apiKey), baseUrl: body.baseUrl ?? null }),
  );
});

/** Forgets the caller's key for a provider. */
export const DELETE = route({ params: providerParamsSchema }, async ({ caller, params, app }) => {
  const deleted = await asUser(app.db, caller.userId, (tx) => deleteProviderKey(tx, { provider: params.provider }));
  if (!deleted) throw new HttpError("not_found", `No ${params.provider} key is stored.`);
  return { deleted: true };
});
