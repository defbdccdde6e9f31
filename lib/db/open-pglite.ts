import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Database, Executor, QueryResult } from "./database";

/**
 * Opens PGlite in dataDir (in memory when dataDir is "memory://").
 * One process per folder: two processes on one PGlite folder silently lose writes.
 */
export async function openPglite({ dataDir }: { dataDir: string }): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  if (!dataDir.startsWith("memory://")) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const pg = new PGlite(dataDir.startsWith("memory://") ? undefined : dataDir);
  await pg.waitReady;

  const wrap = (target: { query: typeof pg.query; exec: typeof pg.exec }): Executor => ({
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });

  return {
    kind: "pglite",
    ...wrap(pg),
    transaction(fn) {
      return pg.transaction((tx) => fn(wrap(tx)));
    },
    async listen(channel, onPayload) {
      const unlisten = await pg.listen(channel, onPayload);
      return async () => {
        await unlisten();
      };
    },
    async close() {
      await pg.close();
    },
  };
}
