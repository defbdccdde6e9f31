import { keyListSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { listProviderKeys } from "@/lib/services/keys";

export const dynamic = "force-dynamic";

/** The caller's stored keys: provider, last four characters and base URL, never the key. */
export const GET = route({ output: keyListSchema }, ({ caller, app }) => listProviderKeys(app, { userId: caller.userId }));
