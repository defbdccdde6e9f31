import { savedSchema } from "@/lib/api/responses";
import { providerParamsSchema, saveLimitsSchema } from "@/lib/api/schemas";
import { route } from "@/lib/server/route";
import { saveLimits } from "@/lib/services/limits";

export const dynamic = "force-dynamic";

/**
 * Sets the caller's limits for a provider, shared by all of their runs and every worker: most
 * requests at once, per minute, and tokens per minute (null lifts one).
 */
export const PUT = route({ params: providerParamsSchema, body: saveLimitsSchema, output: savedSchema }, ({ caller, params, body, app }) =>
  saveLimits(app, { userId: caller.userId, provider: params.provider, limits: body }),
);
