import { cacheClearedSchema } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import { clearResponseCache } from "@/lib/db/cache/response-cache";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Clears the caller's response cache: the next runs call the models again. */
export const DELETE = route({ output: cacheClearedSchema }, async ({ caller, app }) => ({
  deleted: await asUser(app.db, caller.userId, (tx) => clearResponseCache(tx)),
}));
