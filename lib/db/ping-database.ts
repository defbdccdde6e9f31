import type { Queryable } from "./database";

/** Resolves when the database answers a trivial statement; rejects with the driver's error when it does not. */
export async function pingDatabase(db: Queryable): Promise<void> {
  await db.query("select 1");
}
