import { keyListSchema } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import { listProviderKeys } from "@/lib/db/keys/provider-keys";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The caller's stored keys: provider, last four characters and base URL, never the key. */
export const GET = route({ output: keyListSchema }, async ({ caller, app }) => ({
  keys: await asUser(app.db, caller.userId, (tx) => listProviderKeys(tx)),
  providers: app.providers.list(),
}));
