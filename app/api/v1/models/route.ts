import { modelCatalogSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { listModelCatalog } from "@/lib/services/models";

export const dynamic = "force-dynamic";

/**
 * The models the column picker offers the caller: the mock and local models, and the models of
 * every vendor the caller has a key for, each with its price per million tokens when known (the
 * caller's own, else a vendor's live list, else the shipped reference); providers lists every
 * provider and whether it is configured, unavailable says which vendors could not be asked and why.
 * Prices read from a vendor's list (OpenRouter's) are recorded so that runs are priced by them.
 */
export const GET = route({ output: modelCatalogSchema }, ({ caller, app }) => listModelCatalog(app, { userId: caller.userId }));
