import { healthSchema } from "@/lib/api/responses";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Ready when the database is open and migrated. Public: anyone who reaches the server may ask. */
export const GET = route({ output: healthSchema, public: true }, async ({ app }) => {
  await app.db.query("select 1");
  return { ok: true, database: app.db.kind, worker: app.worker ? ("in-process" as const) : ("off" as const) };
});
