import { existsSync } from "node:fs";
import path from "node:path";
import { releaseFolderLock, takeFolderLock } from "./data-folder-lock";
import { makeFolderPrivate, restrictNewFiles } from "./private-folder";
import type { Database, Executor, QueryResult } from "./database";
import { startPgliteThread, type PgliteConnection } from "./pglite-in-thread";
import { runStatements } from "./run-statements";

/**
 * Postgres settings PGlite starts with, beside its own. shared_buffers: PGlite zeroes the whole
 * buffer pool as it starts, on the thread that opens it; at Postgres' 128MB that was most of a
 * second of every start and 128 MB of resident memory before the first statement. Pages beyond
 * the pool are read from the folder's files, which the OS caches. PARALLAXR_PGLITE_SHARED_BUFFERS
 * sets another size (bench/README.md has the measurements behind the default).
 */
export function pgliteStartParams(env: NodeJS.ProcessEnv = process.env): string[] {
  const sharedBuffers = env.PARALLAXR_PGLITE_SHARED_BUFFERS || "16MB";
  return [
    // PGlite's defaults (PGlite.defaultStartParams), which startParams replaces rather than extends
    "--single",
    "-F",
    "-O",
    "-j",
    ...["-c", "search_path=public", "-c", "exit_on_error=false", "-c", "log_checkpoints=false"],
    ...["-c", "max_worker_processes=0", "-c", "max_parallel_workers=0", "-c", "max_parallel_workers_per_gather=0"],
    ...["-c", "io_method=sync", "-c", "max_parallel_maintenance_workers=0"],
    ...["-c", `shared_buffers=${sharedBuffers}`],
    // The write-ahead log's files are recycled at a checkpoint, down to what these keep. Nothing in
    // PGlite checkpoints on its own; the worker does as the log grows (lib/db/wal-checkpoints.ts),
    // and with these pg_wal stays at 32-64MB (Postgres' defaults, 80MB-1GB, kept 96MB or more).
    ...["-c", "max_wal_size=64MB", "-c", "min_wal_size=32MB"],
  ];
}

/** V8 compiles WebAssembly with Liftoff alone, and never tiers a function up to TurboFan. */
const BASELINE_ONLY = ["--liftoff-only", "--no-wasm-tier-up", "--no-wasm-dynamic-tiering"] as const;

/**
 * The V8 flags PGlite's WebAssembly is compiled with: lib/db/pglite-thread.mjs sets them before
 * PGlite compiles its module (V8's flags are the process's).
 *
 * By default only V8's baseline compiler (Liftoff) compiles it. V8 otherwise optimizes every hot
 * function again with TurboFan on background threads; for Postgres' large functions that work
 * takes ~100 MB of native memory which glibc keeps in the threads' arenas for as long as the
 * process runs, and on 2 cores it competes with the statements themselves. On the product bench
 * (bench/README.md, "PGlite's WebAssembly unoptimized") a server held 290 MB after starting
 * instead of 400, and 500 instead of 580-600 MB during a 10,000-cell run; cells/s was the same or
 * higher and the share of ideal within the noise (the shared harness showed 64 wide a few points
 * lower), and 100,000-cell runs were created faster through the API. Single bulk statements
 * (bench:size: creating or cancelling 200,000 cells in one) take 5-30% longer.
 *
 * The flags are set after V8 started, when it no longer works out what a flag implies: Node 24's
 * V8 still optimized PGlite's hot functions after --liftoff-only alone (a server held ~430 MB after
 * start; ~330 MB with all three, Node 20 ~265 MB), so the two tiering flags it implies are turned
 * off by name too (tests/unit/db/pglite-wasm-flags.test.ts checks the effect on the Node that runs it).
 *
 * PARALLAXR_PGLITE_OPTIMIZE=1 lets V8 optimize as it does by default, after
 * PARALLAXR_PGLITE_TIERING_BUDGET of work per function when that is set (V8's own is 1,800,000;
 * the CLI sets 1,000,000,000 so that a short command does not wait for optimizations, cli/parallaxr.ts).
 */
export function pgliteWasmFlags(env: Record<string, string | undefined> = process.env): string[] {
  if (env.PARALLAXR_PGLITE_OPTIMIZE?.trim() !== "1") return [...BASELINE_ONLY];
  const budget = env.PARALLAXR_PGLITE_TIERING_BUDGET?.trim() ?? "";
  return /^[1-9]\d{0,9}$/.test(budget) ? [`--wasm-tiering-budget=${budget}`] : [];
}

/**
 * Opens PGlite in dataDir (in memory when dataDir is "memory://").
 * One process per folder: two processes on one PGlite folder silently lose writes.
 *
 * PGlite runs on a worker thread of this process (lib/db/pglite-thread.mjs), so its statements
 * never hold up the thread that serves requests and times provider calls; the folder's lock is
 * this process's as before, and nothing listens on a port. PARALLAXR_PGLITE_THREAD=0 runs it on
 * the calling thread instead (for the benchmarks' before and after).
 */
export async function openPglite({
  dataDir,
  prepare,
}: {
  dataDir: string;
  /**
   * Runs on the new database before it is handed out (the migrations); resolving true means it
   * changed the schema. Creating a database and migrating it grow PGlite's memory by a few hundred
   * MB that WebAssembly never gives back, so on a thread the database is then opened afresh
   * (the folder's lock held throughout) and the thread that did that work ends, with its memory.
   */
  prepare?: (db: Database) => Promise<boolean>;
}): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  const onThisThread = process.env.PARALLAXR_PGLITE_THREAD === "0";
  // Whether every file created from now on is private already (the umask); if not, the folder is
  // walked again once open and at close.
  let newFilesPrivate = false;
  if (!inMemory) {
    takeFolderLock(dataDir);
    newFilesPrivate = restrictNewFiles();
  }
  const folder = inMemory ? undefined : dataDir;
  // A new database's files come from PGlite's own archive with its modes (0666), set after the
  // umask: the folder is walked once it is made. An existing one is walked while PGlite starts.
  const walkWhileStarting = newFilesPrivate && existsSync(path.join(dataDir, "PG_VERSION"));
  const connect = () =>
    onThisThread ? openOnThisThread(folder) : startPgliteThread(folder, pgliteStartParams(), { v8Flags: pgliteWasmFlags() });
  let connection: PgliteConnection | null = null;
  const db: Database = {
    kind: "pglite",
    query: (sql, params) => connection!.query(sql, params),
    exec: (sql) => connection!.exec(sql),
    transaction: (fn) => connection!.transaction(fn),
    batch: (statements) => connection!.batch(statements),
    listen: (channel, onPayload) => connection!.listen(channel, onPayload),
    async close() {
      await connection?.close();
      if (!inMemory) {
        if (!newFilesPrivate) makeFolderPrivate(dataDir);
        releaseFolderLock(dataDir);
      }
    },
  };
  try {
    const connecting = connect();
    try {
      // Files an earlier process left readable are fixed while PGlite starts (on its own thread).
      if (walkWhileStarting) makeFolderPrivate(dataDir);
    } finally {
      connection = await connecting;
    }
    if (prepare && (await prepare(db)) && !onThisThread && !inMemory) {
      await connection.close();
      connection = null;
      connection = await connect();
    }
  } catch (error) {
    await connection?.close().catch(() => {});
    if (!inMemory) releaseFolderLock(dataDir);
    throw error;
  }
  if (!inMemory && !walkWhileStarting) makeFolderPrivate(dataDir);
  return db;
}

/** PGlite on the calling thread. */
async function openOnThisThread(dataDir: string | undefined): Promise<PgliteConnection> {
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = new PGlite(dataDir, { startParams: pgliteStartParams() });
  await pg.waitReady;
  const wrap = (target: { query: typeof pg.query; exec: typeof pg.exec }): Executor => ({
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await target.query<Row>(sql, params as unknown[]);
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    batch: (statements) => pg.transaction((tx) => runStatements(wrap(tx), statements)),
    async listen(channel, onPayload) {
      const unlisten = await pg.listen(channel, onPayload);
      return async () => {
        await unlisten();
      };
    },
    close: () => pg.close(),
  };
}
