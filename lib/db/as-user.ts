import type { Database, Executor } from "./database";

/**
 * Runs fn in a transaction as the authenticated user userId, so Row Level Security applies to
 * every statement in it: the same claims Supabase sets (request.jwt.claim.sub and
 * request.jwt.claims) and the authenticated role, for the rest of the transaction.
 */
export function asUser<T>(db: Database, userId: string, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // One statement: set_config('role', ..., true) is SET LOCAL ROLE, checked the same way.
    await tx.query(
      `select set_config('request.jwt.claim.sub', $1, true),
              set_config('request.jwt.claims', json_build_object('sub', $1::text, 'role', 'authenticated')::text, true),
              set_config('role', 'authenticated', true)`,
      [userId],
    );
    return fn(tx);
  });
}
