import type { Database, Executor, QueryResult, Queryable, Statement } from "./database";

// One statement: set_config('role', ..., true) is SET LOCAL ROLE, checked the same way.
const becomeUser = `select set_config('request.jwt.claim.sub', $1, true),
        set_config('request.jwt.claims', json_build_object('sub', $1::text, 'role', 'authenticated')::text, true),
        set_config('role', 'authenticated', true)`;

/**
 * Runs fn in a transaction as the authenticated user userId, so Row Level Security applies to
 * every statement in it: the same claims Supabase sets (request.jwt.claim.sub and
 * request.jwt.claims) and the authenticated role, for the rest of the transaction.
 */
export function asUser<T>(db: Database, userId: string, fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(becomeUser, [userId]);
    return fn(tx);
  });
}

/**
 * asUser for statements that do not wait on each other's results: fn asks for all of them before
 * its first await, and they go to the database together, in one transaction (db.batch), with the
 * user's claims first. For what reads often while a run's calls come back (the events stream): on
 * PGlite an asUser transaction holds the one connection across a turn of the busy server thread
 * per statement, and the worker's saves and claims wait behind it. A statement fn asks for after
 * the others were sent is refused (use asUser for statements that depend on earlier results).
 */
export async function readAsUser<T>(db: Database, userId: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const asked: Array<Statement & { resolve: (result: QueryResult<unknown>) => void; reject: (error: unknown) => void }> = [];
  let sent = false;
  const tx: Queryable = {
    query<Row>(sql: string, params?: unknown[]) {
      if (sent) return Promise.reject(new Error(`readAsUser: a statement asked for after the others were sent: ${sql.slice(0, 60)}`));
      return new Promise<QueryResult<Row>>((resolve, reject) =>
        asked.push({ sql, params, resolve: resolve as (result: QueryResult<unknown>) => void, reject }),
      );
    },
  };
  const answer = fn(tx);
  sent = true;
  // its rejection is the caller's, below; not an unhandled one while the batch is on its way
  answer.catch(() => {});
  try {
    const results = await db.batch([{ sql: becomeUser, params: [userId] }, ...asked.map(({ sql, params }) => ({ sql, params }))]);
    asked.forEach((statement, index) => statement.resolve(results[index + 1]));
  } catch (error) {
    for (const statement of asked) statement.reject(error);
  }
  return answer;
}
