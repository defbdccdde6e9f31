import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * The models the column picker offers the caller: the mock and local models, and the models of
 * every vendor the caller has a key for; providers lists every provider and whether it is
 * configured, unavailable says which vendors could not be asked and why.
 */
export const GET = route({}, async ({ caller, app }) => app.providers.listModelsFor(caller.userId));
