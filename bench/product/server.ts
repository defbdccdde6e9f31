// The production server under measurement: `npm start`'s scripts/serve.mjs (Next in its process)
// serving the existing build on its own port,
// in its own process group, with a fresh data folder (PGlite) or a fresh database on the Postgres
// server, and the event-loop probe (loop-probe.mjs) loaded into every Node process it starts.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, lstatSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { buildState } from "../../scripts/build-check.mjs";

export type BackendName = "pglite" | "postgres";

export interface ProductServer {
  backend: BackendName;
  url: string;
  dataDir: string;
  /** postgres://… of the fresh database, or null on PGlite. */
  databaseUrl: string | null;
  log: string;
  /** Sum of VmRSS (MB) over every process of the server's group. */
  rssMb(): number;
  /** The event-loop stats of each probed process since the last call (the first call only resets). */
  loopStats(): Promise<LoopStats[]>;
  /** Bytes the data lives in: the data folder (PGlite) or pg_database_size (Postgres). */
  storageBytes(): Promise<number>;
  /** PGlite: the part of storageBytes that is the write-ahead log (pg_wal); 0 on Postgres, whose database size leaves it out. */
  walBytes(): number;
  /** Postgres: the bytes of run_cells and response_cache, their TOAST and each of their indexes; null on PGlite (the server holds its folder). */
  relationBytes(): Promise<{ name: string; bytes: number }[] | null>;
  /** Stops the server (SIGTERM to the group, SIGKILL after 10 s); keeps the data until dispose(). */
  stop(): Promise<void>;
  /** Removes the data folder and drops the database. */
  dispose(): Promise<void>;
}

export interface LoopStats {
  pid: number;
  argv: string[];
  count: number;
  maxMs: number;
  p99Ms: number;
  p50Ms: number;
  meanMs: number;
  /** With PARALLAXR_BENCH_STATEMENTS=1: time in PGlite's synchronous calls, statements by kind. */
  pgliteMs?: number;
  statements?: { kind: string; count: number; ms: number }[];
  /** process.memoryUsage() of the probed thread, in MB. */
  memoryMb?: Record<string, number>;
}

export const postgresAdminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export async function startProductServer(options: {
  root: string;
  backend: BackendName;
  port: number;
  countStatements?: boolean;
}): Promise<ProductServer> {
  const { root, backend, port } = options;
  // serve.mjs would build a missing or stale build itself, for minutes, inside the measurement
  const { state } = buildState({ root });
  if (state !== "current") {
    throw new SetupError(
      `${state === "missing" ? "No production build" : "The production build is older than the sources"} in ${path.join(root, ".next")}: ` +
        "run `npm run build` first (under the build lock if others share the checkout).",
    );
  }
  const taken = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) }).then(
    () => true,
    () => false,
  );
  if (taken)
    throw new SetupError(`Something answers on port ${port} already (another bench or server?): stop it, or set PORT to a free port.`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-product-"));
  const loopDir = path.join(dataDir, "bench-loop-stats");
  mkdirSync(loopDir);
  const pgliteDir = path.join(dataDir, "data");
  let databaseUrl: string | null = null;
  let dbName: string | null = null;
  if (backend === "postgres") {
    dbName = `parallaxr_bench_product_${process.pid}_${Date.now().toString(36)}`;
    await withClient(postgresAdminUrl, (client) => client.query(`create database ${dbName}`));
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const log = path.join(dataDir, "server.log");
  const out = openSync(log, "a");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
    PARALLAXR_DATA_DIR: pgliteDir,
    PARALLAXR_BENCH_LOOP_STATS: loopDir,
    PARALLAXR_BENCH_STATEMENTS: options.countStatements ? "1" : "0",
    NODE_OPTIONS: [process.env.NODE_OPTIONS ?? "", `--import ${pathToFileURL(path.join(import.meta.dirname, "loop-probe.mjs")).href}`]
      .join(" ")
      .trim(),
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "start"], {
    cwd: root,
    env,
    detached: true, // its own process group: RSS is summed over it and stop() ends exactly it
    stdio: ["ignore", out, out],
  });
  const pgid = child.pid!;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let alive = true;
  void exited.then(() => (alive = false));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!alive) throw new SetupError(`The server exited before it answered; its log: ${log}\n${tail(log)}`);
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new SetupError(`The server did not answer ${url}/api/v1/health within 90 s; its log: ${log}`);
    await delay(200);
  }

  const groupPids = (): number[] => {
    const pids: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        if (Number(fields[2]) === pgid) pids.push(Number(entry));
      } catch {
        // gone
      }
    }
    return pids;
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (!alive) return;
    try {
      process.kill(-pgid, "SIGTERM");
    } catch {
      return;
    }
    const killTimer = setTimeout(() => {
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {
        // gone
      }
    }, 10_000);
    await exited;
    // the group's other processes (if any) end with it
    for (let i = 0; i < 100 && groupPids().length > 0; i++) await delay(100);
    clearTimeout(killTimer);
  };
  return {
    backend,
    url,
    dataDir: pgliteDir,
    databaseUrl,
    log,
    rssMb() {
      let kb = 0;
      for (const pid of groupPids()) {
        try {
          const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
          if (match) kb += Number(match[1]);
        } catch {
          // gone
        }
      }
      return kb / 1024;
    },
    async loopStats() {
      const probed = groupPids().filter((pid) => existsSync(path.join(loopDir, `loop-${pid}.json`)));
      const before = new Map(probed.map((pid) => [pid, readSnapshot(loopDir, pid)?.seq ?? -1]));
      for (const pid of probed) process.kill(pid, "SIGUSR2");
      const results: LoopStats[] = [];
      for (const pid of probed) {
        const waitUntil = Date.now() + 5_000;
        let snapshot = readSnapshot(loopDir, pid);
        while ((snapshot?.seq ?? -1) <= before.get(pid)! && Date.now() < waitUntil) {
          await delay(20);
          snapshot = readSnapshot(loopDir, pid);
        }
        if (snapshot && snapshot.seq > before.get(pid)!) results.push(snapshot);
      }
      return results;
    },
    walBytes: () => (backend === "pglite" ? folderBytes(path.join(pgliteDir, "pglite", "pg_wal")) : 0),
    async storageBytes() {
      if (backend === "pglite") return folderBytes(pgliteDir);
      return withClient(databaseUrl!, async (client) =>
        Number((await client.query("select pg_database_size(current_database()) as n")).rows[0].n),
      );
    },
    async relationBytes() {
      if (backend === "pglite") return null;
      return withClient(databaseUrl!, async (client) => {
        const { rows } = await client.query(
          `select c.relname as name, pg_relation_size(c.oid) + coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0) as bytes
             from pg_class c left join pg_index i on i.indexrelid = c.oid
            where c.relname in ('run_cells', 'response_cache') or i.indrelid in ('run_cells'::regclass, 'response_cache'::regclass)
            order by bytes desc`,
        );
        return rows.map((row) => ({ name: String(row.name), bytes: Number(row.bytes) }));
      });
    },
    stop,
    async dispose() {
      await stop();
      const keep = process.env.KEEP === "1";
      if (dbName && !keep)
        await withClient(postgresAdminUrl, (client) => client.query(`drop database if exists ${dbName} with (force)`)).catch(() => {});
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export class SetupError extends Error {}

function readSnapshot(dir: string, pid: number): (LoopStats & { seq: number }) | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, `loop-${pid}.json`), "utf8"));
  } catch {
    return null;
  }
}

/** Allocated bytes of every file under folder (what the disk holds, not the files' lengths). */
export function folderBytes(folder: string): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full);
      else total += stat.blocks * 512;
    }
  };
  if (existsSync(folder) && statSync(folder).isDirectory()) walk(folder);
  return total;
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-15).join("\n");
  } catch {
    return "";
  }
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
