import { healthSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";
import { getHealth } from "@/lib/services/health";

export const dynamic = "force-dynamic";

/** Ready when the database is open and migrated. Public: anyone who reaches the server may ask. */
export const GET = route({ output: healthSchema, public: true }, ({ app }) => getHealth(app));
