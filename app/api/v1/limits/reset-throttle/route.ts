import { savedSchema } from "@/lib/api/responses";
import { resetThrottleSchema } from "@/lib/api/schemas";
import { resetThrottleOf } from "@/lib/services/limits";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Lifts the engine's throttle of one of the caller's credentials (a provider, or mock/<model>),
 * lowered after 429s; their own limits stay. 404 when it is not throttled.
 */
export const POST = route({ body: resetThrottleSchema, output: savedSchema }, async ({ caller, body, app }) =>
  resetThrottleOf(app, { userId: caller.userId, credential: body.credential }),
);
