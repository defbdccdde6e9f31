import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { clearResponseCache } from "@/lib/db/cache/response-cache";

/** Clears userId's response cache: their next runs call the models again. Answers how many answers were forgotten. */
export async function clearCache({ db }: { db: Database }, { userId }: { userId: string }): Promise<{ deleted: number }> {
  return { deleted: await asUser(db, userId, (tx) => clearResponseCache(tx)) };
}
