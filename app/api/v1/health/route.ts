import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Ready when the database is open and migrated. */
export const GET = route({}, async ({ app }) => {
  await app.db.query("select 1");
  return { ok: true, database: app.db.kind, worker: app.worker ? "in-process" : "off" };
});
