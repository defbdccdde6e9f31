import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openPglite } from "@/lib/db/open-pglite";
import { createWalCheckpointer } from "@/lib/db/wal-checkpoints";
import { createServerTestDatabase, postgresServerAvailable } from "../helpers/databases";

// PGlite runs Postgres in single-user mode, where nothing checkpoints as the write-ahead log
// grows: without the worker's checkpoints, pg_wal kept every byte ever written until the process
// closed. These write ~120 MB of log into a data folder, as ~10,000 cells of long answers would.
const MB = 2 ** 20;

function walBytes(folder: string): number {
  const dir = path.join(folder, "pg_wal");
  return readdirSync(dir)
    .filter((name) => /^[0-9A-F]{24}$/.test(name))
    .reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);
}

async function writeLog(db: Database, batch: number): Promise<void> {
  // 8,000 rows of ~1.3 KB: ~12 MB of write-ahead log
  await db.exec(`insert into filler select g + ${batch * 8000}, repeat(md5(g::text), 40) from generate_series(1, 8000) g`);
}

describe("checkpoints of the embedded database", () => {
  let folder: string | null = null;
  let db: Database | null = null;
  afterEach(async () => {
    await db?.close();
    db = null;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = null;
  });

  async function open(): Promise<{ db: Database; folder: string }> {
    folder = mkdtempSync(path.join(os.tmpdir(), "parallaxr-wal-"));
    db = await openPglite({ dataDir: folder });
    await db.exec("create table filler (id int primary key, v text)");
    return { db, folder };
  }

  it("without checkpoints the log only grows", async () => {
    const { db, folder } = await open();
    const start = walBytes(folder);
    for (let batch = 0; batch < 10; batch++) await writeLog(db, batch);
    expect(walBytes(folder) - start).toBeGreaterThan(96 * MB);
  });

  it("checks every few batches, as the worker's sweep does, and the log stays within max_wal_size", async () => {
    const { db, folder } = await open();
    const checkpointer = createWalCheckpointer(db);
    let checkpoints = 0;
    let largest = 0;
    for (let batch = 0; batch < 10; batch++) {
      await writeLog(db, batch);
      if (await checkpointer.checkIfDue()) checkpoints++;
      largest = Math.max(largest, walBytes(folder));
    }
    expect(checkpoints).toBeGreaterThanOrEqual(2);
    expect(largest).toBeLessThanOrEqual(80 * MB);
    // right after one, nothing is due
    await db.exec("checkpoint");
    expect(await checkpointer.checkIfDue()).toBe(false);
  });

  const lastVacuum = async (db: Database, table: string) =>
    (await db.query<{ at: Date | null }>("select last_vacuum as at from pg_stat_user_tables where relname = $1", [table])).rows[0]?.at ??
    null;
  const pages = async (db: Database, table: string) =>
    (await db.query<{ n: number }>("select (pg_relation_size($1::regclass) / 8192)::int as n", [table])).rows[0].n;

  it("vacuums the rewritten tables before a checkpoint, and their dead rows' space goes to new rows", async () => {
    const { db } = await open();
    const checkpointer = createWalCheckpointer(db, { vacuumTables: ["filler", "not_a_table"] });
    // ~12 MB of rows, every one rewritten twice (as a cell is claimed, then answered): ~36 MB of log
    await writeLog(db, 0);
    await db.exec("update filler set v = v || 'a'");
    await db.exec("update filler set v = v || 'b'");
    expect(await lastVacuum(db, "filler")).toBeNull();
    expect(await checkpointer.checkIfDue()).toBe(true);
    expect(await lastVacuum(db, "filler")).not.toBeNull();
    // rewriting every row once more fits in the space the dead versions left
    const before = await pages(db, "filler");
    await db.exec("update filler set v = v || 'c'");
    expect(await pages(db, "filler")).toBeLessThanOrEqual(before);
  });

  it("vacuums a table larger than the log written since its last vacuum only later", async () => {
    const { db } = await open();
    const checkpointer = createWalCheckpointer(db, { vacuumTables: ["filler"] });
    for (let batch = 0; batch < 6; batch++) await writeLog(db, batch); // ~62 MB of rows
    expect(await checkpointer.checkIfDue()).toBe(true);
    const first = await lastVacuum(db, "filler");
    expect(first).not.toBeNull();
    // ~40 MB of log elsewhere: a checkpoint is due, a vacuum of the 62 MB table is not
    await db.exec("create table other (id int primary key, v text)");
    for (let batch = 0; batch < 3; batch++)
      await db.exec(`insert into other select g + ${batch * 8000}, repeat(md5(g::text), 40) from generate_series(1, 8000) g`);
    expect(await checkpointer.checkIfDue()).toBe(true);
    expect(await lastVacuum(db, "filler")).toEqual(first);
  });

  it("leaves a Postgres server to its own checkpointer", async () => {
    if (!(await postgresServerAvailable())) return;
    const server = await createServerTestDatabase();
    try {
      const checkpointer = createWalCheckpointer(server.db, { afterBytes: 0 });
      expect(await checkpointer.checkIfDue()).toBe(false);
    } finally {
      await server.drop();
    }
  });
});
