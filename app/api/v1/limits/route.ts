import { limitListSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { listLimits } from "@/lib/services/limits";

export const dynamic = "force-dynamic";

/** The caller's limits per provider, with the engine's current adaptive limit after 429s. */
export const GET = route({ output: limitListSchema }, ({ caller, app }) => listLimits(app, { userId: caller.userId }));
