import { savedSchema } from "@/lib/api/responses";
import { providerParamsSchema, saveLimitsSchema } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { saveProviderLimits } from "@/lib/db/limits/provider-limits";
import { HttpError } from "@/lib/server/http-errors";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Sets the caller's limits for a provider, shared by all of their runs and every worker: most
 * requests at once, per minute, and tokens per minute (null lifts one).
 */
export const PUT = route(
  { params: providerParamsSchema, body: saveLimitsSchema, output: savedSchema },
  async ({ caller, params, body, app }) => {
    if (!app.providers.has(params.provider)) throw new HttpError("bad_request", `Unknown provider "${params.provider}".`, "provider");
    await asUser(app.db, caller.userId, (tx) => saveProviderLimits(tx, { provider: params.provider, ...body }));
    return { saved: true as const };
  },
);
