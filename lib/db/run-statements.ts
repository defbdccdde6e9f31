import type { QueryResult, Queryable, Statement } from "./database";

/** Runs statements one after another on tx (an open transaction): what db.batch does once it holds one. */
export async function runStatements(tx: Queryable, statements: readonly Statement[]): Promise<QueryResult<Record<string, unknown>>[]> {
  const results: QueryResult<Record<string, unknown>>[] = [];
  for (const { sql, params } of statements) results.push(await tx.query(sql, params));
  return results;
}
