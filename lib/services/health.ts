import type { Database } from "@/lib/db/database";
import { pingDatabase } from "@/lib/db/ping-database";
import type { Worker } from "@/lib/engine/worker";

/** Ready when the database answers (it is open and migrated): which database, and whether a worker runs in this process. */
export async function getHealth({
  db,
  worker,
}: {
  db: Database;
  worker: Worker | null;
}): Promise<{ ok: true; database: Database["kind"]; worker: "in-process" | "off" }> {
  await pingDatabase(db);
  return { ok: true, database: db.kind, worker: worker ? "in-process" : "off" };
}
