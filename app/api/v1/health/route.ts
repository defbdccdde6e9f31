import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** Ready when the database is open and migrated. Public: anyone who reaches the server may ask. */
export const GET = route({ public: true }, async ({ app }) => {
  await app.db.query("select 1");
  return { ok: true, database: app.db.kind, worker: app.worker ? "in-process" : "off" };
});
