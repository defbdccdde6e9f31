import { deletedSchema, providerKeySummarySchema } from "@/lib/api/responses";
import { providerParamsSchema, saveProviderKeySchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { deleteProviderKey, saveProviderKey } from "@/lib/services/keys";

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
  ({ caller, params, body, app }) => saveProviderKey(app, { userId: caller.userId, provider: params.provider, key: body }),
);

/** Forgets the caller's key for a provider. */
export const DELETE = route({ params: providerParamsSchema, output: deletedSchema }, ({ caller, params, app }) =>
  deleteProviderKey(app, { userId: caller.userId, provider: params.provider }),
);
