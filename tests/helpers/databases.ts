import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { Database, Executor, QueryResult } from "@/lib/db/database";
import { migrate, migrationsDir } from "@/lib/db/migrate";
import { openDatabase } from "@/lib/db/open-database";
import { openPostgres } from "@/lib/db/open-postgres";
import { runStatements } from "@/lib/db/run-statements";

/** The Postgres server tests use; override with TEST_DATABASE_URL. */
export const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

let serverReachable: Promise<boolean> | null = null;

/**
 * Whether the Postgres server answers. Under CI it must: a missing server is a failure there,
 * not a skip. Elsewhere the suites that need it print a notice and skip.
 */
export function postgresServerAvailable(): Promise<boolean> {
  serverReachable ??= (async () => {
    const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch (error) {
      if (process.env.CI) throw new Error(`CI needs the Postgres server at ${serverUrl}: ${(error as Error).message}`);
      console.warn(`[tests] Postgres server not reachable at ${serverUrl}; its suites are skipped.`);
      return false;
    }
  })();
  return serverReachable;
}

/** A database of its own for one test file, migrated; drop() removes it. */
export interface TestDatabase {
  db: Database;
  /** For other processes (workers) to connect to the same database; null for PGlite. */
  url: string | null;
  drop(): Promise<void>;
}

/** A fresh in-memory PGlite. */
export async function createPgliteTestDatabase(): Promise<TestDatabase> {
  const db = await openDatabase({ dataDir: "memory://" });
  return { db, url: null, drop: () => db.close() };
}

/**
 * A fresh database on the Postgres server, named for this test file, migrated. With
 * `migrated: false` it is opened as it was created, for a test that migrates it step by step;
 * with `migratedBefore: "0023"`, migrated by the migrations whose names sort before that, for a
 * test of upgrading a database that holds data.
 */
export async function createServerTestDatabase({
  migrated = true,
  migratedBefore,
}: { migrated?: boolean; migratedBefore?: string } = {}): Promise<TestDatabase> {
  if (migratedBefore !== undefined) {
    const test = await createServerTestDatabase({ migrated: false });
    const before = mkdtempSync(path.join(os.tmpdir(), "parallaxr-migrations-"));
    try {
      for (const file of readdirSync(migrationsDir).filter((file) => file < migratedBefore)) {
        cpSync(path.join(migrationsDir, file), path.join(before, file));
      }
      await migrate(test.db, { dir: before });
    } catch (error) {
      await test.drop();
      throw error;
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
    return test;
  }
  const name = `parallaxr_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = migrated
    ? await openDatabase({ databaseUrl: url.toString(), poolSize: 8 })
    : await openPostgres({ url: url.toString(), poolSize: 8 });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * Both backends, for describe.each: PGlite always, the Postgres server when it is running (null
 * otherwise: the tests skip).
 */
export const testBackends: Array<[string, () => Promise<TestDatabase | null>]> = [
  ["PGlite", createPgliteTestDatabase],
  ["the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null)],
];

/** Polls condition until it returns a truthy value or timeoutMs passes. Never a fixed sleep. */
export async function waitFor<T>(
  condition: () => Promise<T> | T,
  { timeoutMs = 30_000, intervalMs = 25, what = "condition" } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The single local user of the embedded default, and a second user for RLS tests. */
export const userA = "00000000-0000-4000-8000-00000000000a";
export const userB = "00000000-0000-4000-8000-00000000000b";

/**
 * db, but every statement run inside one of its transactions goes through query, which may fail
 * it, hold it, or pass it on with tx.query(sql, params); a batch's statements too. Statements outside
 * transactions pass as they are.
 */
export function withTransactionQueries(
  db: Database,
  query: (tx: Executor, sql: string, params?: unknown[]) => Promise<QueryResult<unknown>>,
): Database {
  const wrap = (tx: Executor): Executor => ({
    query: <Row>(sql: string, params?: unknown[]) => query(tx, sql, params) as Promise<QueryResult<Row>>,
    exec: (sql) => tx.exec(sql),
  });
  return {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    batch: (statements) => db.transaction((tx) => runStatements(wrap(tx), statements)),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    close: () => db.close(),
  };
}
