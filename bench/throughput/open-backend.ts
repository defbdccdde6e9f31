// A database to measure on: PGlite in a temporary folder, or a fresh database on the Postgres server.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Database } from "@/lib/db/database";
import { openDatabase } from "@/lib/db/open-database";
import { type BackendName, poolSize, serverUrl } from "./settings";
import { countStatements, StatementCounter } from "./statement-counter";

export interface Backend {
  name: BackendName;
  db: Database;
  /** The same database, every statement counted and timed into counter. */
  counted: Database;
  counter: StatementCounter;
  detail: string;
  /** When the run reached a final status, or its status at timeoutMs when it did not. */
  waitForEnd(runId: string, timeoutMs: number): Promise<{ status: string; at: number; timedOut: boolean }>;
  close(): Promise<void>;
}

export async function openBackend(name: BackendName): Promise<Backend> {
  let db: Database;
  let detail: string;
  let cleanup: () => Promise<void>;
  if (name === "pglite") {
    // A folder on disk, as the embedded default (.data/pglite) uses, not memory://.
    const folder = mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-"));
    const opening = performance.now();
    db = await openDatabase({ dataDir: folder });
    detail = `PGlite in ${folder} (opened and migrated in ${Math.round(performance.now() - opening)} ms)`;
    cleanup = async () => {
      await db.close();
      rmSync(folder, { recursive: true, force: true });
    };
  } else {
    const databaseName = `parallaxr_bench_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
    await administer(`create database ${databaseName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    try {
      db = await openDatabase({ databaseUrl: url.toString(), poolSize });
    } catch (error) {
      await administer(`drop database if exists ${databaseName} with (force)`);
      throw error;
    }
    const version = (await db.query<{ server_version: string }>("show server_version")).rows[0].server_version;
    const settings = (
      await db.query<{ name: string; setting: string }>(
        "select name, setting from pg_settings where name in ('synchronous_commit', 'fsync', 'shared_buffers') order by name",
      )
    ).rows.map((row) => `${row.name}=${row.setting}`);
    detail = `Postgres ${version} at ${url.host}, database ${databaseName}, pool ${poolSize} (${settings.join(", ")})`;
    cleanup = async () => {
      await db.close();
      await administer(`drop database if exists ${databaseName} with (force)`);
    };
  }

  // Runs end by a NOTIFY on parallaxr_runs; the status is kept by run id, since a 0 ms run may
  // end before createRun has even returned its id.
  const ends = new Map<string, { status: string; at: number }>();
  const waiters = new Map<string, () => void>();
  const unlisten = await db.listen("parallaxr_runs", (payload) => {
    const at = performance.now();
    const { runId, status } = JSON.parse(payload) as { runId: string; status: string };
    if (!["completed", "failed", "cancelled"].includes(status) || ends.has(runId)) return;
    ends.set(runId, { status, at });
    waiters.get(runId)?.();
  });
  const counter = new StatementCounter();

  return {
    name,
    db,
    counted: countStatements(db, counter),
    counter,
    detail,
    async waitForEnd(runId, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      // The notification is the clock; a cheap poll every 500 ms only guards against a lost one.
      while (!ends.has(runId)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 500);
          waiters.set(runId, () => {
            clearTimeout(timer);
            resolve();
          });
        });
        waiters.delete(runId);
        if (ends.has(runId)) break;
        const row = (await db.query<{ status: string }>("select status from runs where id = $1", [runId])).rows[0];
        if (row && ["completed", "failed", "cancelled"].includes(row.status) && !ends.has(runId)) {
          console.warn(`[${name}] run ${runId} ended without a notification; wall time is up to 500 ms late`);
          ends.set(runId, { status: row.status, at: performance.now() });
        }
        if (performance.now() > deadline) return { status: row?.status ?? "missing", at: performance.now(), timedOut: true };
      }
      return { ...ends.get(runId)!, timedOut: false };
    },
    async close() {
      await unlisten();
      await cleanup();
    },
  };
}

async function administer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
