import { cacheClearedSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { clearCache } from "@/lib/services/cache";

export const dynamic = "force-dynamic";

/** Clears the caller's response cache: the next runs call the models again. */
export const DELETE = route({ output: cacheClearedSchema }, ({ caller, app }) => clearCache(app, { userId: caller.userId }));
