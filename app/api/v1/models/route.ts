import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** The models the column picker offers. */
export const GET = route({}, async ({ app }) => ({ models: await app.providers.listModels() }));
