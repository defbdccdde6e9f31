import { keyTestResultSchema } from "@/lib/api/responses";
import { providerParamsSchema, testProviderKeySchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { testProviderKey } from "@/lib/services/keys";

export const dynamic = "force-dynamic";

/**
 * Tries the caller's credentials for a provider with a minimal real call (one token). Answers
 * {ok: true, latencyMs} or {ok: false, code, message}; the message never holds the key.
 */
export const POST = route(
  { params: providerParamsSchema, body: testProviderKeySchema, output: keyTestResultSchema },
  ({ caller, params, body, app }) => testProviderKey(app, { userId: caller.userId, provider: params.provider, model: body.model }),
);
