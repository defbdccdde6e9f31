import { releaseFolderLock, takeFolderLock } from "./data-folder-lock";
import { makeFolderPrivate, restrictNewFiles } from "./private-folder";
import type { Database, Executor, QueryResult } from "./database";

/**
 * Opens PGlite in dataDir (in memory when dataDir is "memory://").
 * One process per folder: two processes on one PGlite folder silently lose writes.
 */
export async function openPglite({ dataDir }: { dataDir: string }): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const inMemory = dataDir.startsWith("memory://");
  if (!inMemory) {
    takeFolderLock(dataDir);
    restrictNewFiles();
  }
  const pg = new PGlite(inMemory ? undefined : dataDir);
  try {
    await pg.waitReady;
  } catch (error) {
    if (!inMemory) releaseFolderLock(dataDir);
    throw error;
  }
  if (!inMemory) makeFolderPrivate(dataDir);

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
      if (!inMemory) {
        makeFolderPrivate(dataDir);
        releaseFolderLock(dataDir);
      }
    },
  };
}
