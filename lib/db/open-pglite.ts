import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Database, Executor, QueryResult } from "./database";

/**
 * Opens PGlite in dataDir (in memory when dataDir is "memory://").
 * One process per folder: two processes on one PGlite folder silently lose writes.
 */
export async function openPglite({ dataDir }: { dataDir: string }): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const inMemory = dataDir.startsWith("memory://");
  const lockFile = inMemory ? null : `${path.resolve(dataDir)}.pid`;
  if (lockFile) {
    mkdirSync(path.dirname(lockFile), { recursive: true });
    takeFolderLock(lockFile, dataDir);
  }
  const pg = new PGlite(inMemory ? undefined : dataDir);
  try {
    await pg.waitReady;
  } catch (error) {
    if (lockFile) rmSync(lockFile, { force: true });
    throw error;
  }

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
      if (lockFile) rmSync(lockFile, { force: true });
    },
  };
}

// Two processes on one PGlite folder silently lose writes, so the folder is claimed with a pid
// file; a file left by a process that has ended is taken over.
function takeFolderLock(lockFile: string, dataDir: string): void {
  let holder: number | null = null;
  try {
    holder = Number(readFileSync(lockFile, "utf8").trim()) || null;
  } catch {
    holder = null;
  }
  if (holder && holder !== process.pid && processIsAlive(holder)) {
    throw new Error(
      `The database folder ${dataDir} is in use by process ${holder}. Stop that process (the server, ` +
        "a worker or the CLI), or point PARALLAXR_DATA_DIR at another folder.",
    );
  }
  writeFileSync(lockFile, String(process.pid));
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
