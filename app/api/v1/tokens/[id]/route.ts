import { z } from "zod";
import { revokedTokensSchema } from "@/lib/api/responses";
import { revokeUserAccessToken } from "@/lib/auth/access-tokens";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const params = z.strictObject({ id: z.string().min(1).max(100) });

/** Revokes one of the caller's tokens, named by its id (or first 8 characters) or its name. */
export const DELETE = route({ params, output: revokedTokensSchema }, async ({ caller, params, app }) => {
  const revoked = await revokeUserAccessToken(app.db, { userId: caller.userId, idOrName: params.id });
  if (revoked.length === 0) throw new HttpError("not_found", `No live token of yours has the id or name "${params.id}".`);
  return { revoked };
});
