import { z } from "zod";
import { revokedTokensSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { revokeToken } from "@/lib/services/tokens";

export const dynamic = "force-dynamic";

const params = z.strictObject({ id: z.string().min(1).max(100) });

/** Revokes one of the caller's tokens, named by its id (or first 8 characters) or its name. */
export const DELETE = route({ params, output: revokedTokensSchema }, ({ caller, params, app }) =>
  revokeToken(app, { userId: caller.userId, idOrName: params.id }),
);
