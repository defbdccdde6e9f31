import { limitListSchema } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import { listProviderLimits } from "@/lib/db/limits/provider-limits";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The caller's limits per provider, with the engine's current adaptive limit after 429s. */
export const GET = route({ output: limitListSchema }, async ({ caller, app }) => ({
  limits: await asUser(app.db, caller.userId, (tx) => listProviderLimits(tx)),
}));
