import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { openPglite } from "@/lib/db/open-pglite";

const folder = mkdtempSync(path.join(tmpdir(), "parallaxr-pglite-thread-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a TypeScript script of this test in a process of its own, from the project folder. */
function runScript(script: string, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: process.cwd(),
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, PARALLAXR_ROOT: process.cwd() },
  });
}

let db: Database | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
  delete process.env.PARALLAXR_PGLITE_THREAD;
});

/** How many times a 5 ms interval fires on this thread while fn runs. */
async function ticksDuring(fn: () => Promise<unknown>): Promise<number> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  try {
    // let the interval arm before the statement is sent
    await new Promise((resolve) => setTimeout(resolve, 20));
    ticks = 0;
    await fn();
    return ticks;
  } finally {
    clearInterval(timer);
  }
}

// A statement that keeps Postgres busy for a good part of a second.
const slowStatement = "select count(*) from generate_series(1, 1000000) a where a % 7 = 3";

describe("PGlite on its own thread", () => {
  it("keeps this thread free while a long statement runs; on this thread (PARALLAXR_PGLITE_THREAD=0) nothing else runs meanwhile", async () => {
    db = await openPglite({ dataDir: "memory://" });
    const threaded = await ticksDuring(() => db!.query(slowStatement));
    await db.close();

    process.env.PARALLAXR_PGLITE_THREAD = "0";
    db = await openPglite({ dataDir: "memory://" });
    const inline = await ticksDuring(() => db!.query(slowStatement));

    // the interval fires all through the statement when PGlite runs elsewhere, and never when it does not
    expect(threaded).toBeGreaterThanOrEqual(5);
    expect(inline).toBeLessThanOrEqual(1);
  }, 120_000);

  it("answers statements, rolls a failed transaction back and commits a good one, carrying Postgres' error code and the caller's stack", async () => {
    db = await openPglite({ dataDir: "memory://" });
    await db.exec("create table t (id int primary key, note text)");
    await db.transaction(async (tx) => {
      await tx.query("insert into t values ($1, $2)", [1, "kept"]);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t values ($1, $2)", [2, "rolled back"]);
        await tx.query("insert into t values ($1, $2)", [1, "a duplicate"]);
      }),
    ).rejects.toMatchObject({ code: "23505", constraint: "t_pkey" });
    const error = await db.query("select * from missing_table").catch((caught: Error) => caught);
    expect(error).toMatchObject({ code: "42P01", message: 'relation "missing_table" does not exist' });
    expect((error as Error).stack).toContain("pglite-thread.test.ts");

    const { rows, rowCount } = await db.query<{ id: number; note: string; at: Date; doc: unknown }>(
      "select id, note, now() as at, $1::jsonb as doc from t",
      [{ nested: [1, "two"] }],
    );
    // a SELECT counts its rows, as node-postgres does
    expect(rowCount).toBe(1);
    expect(rows[0]).toMatchObject({ id: 1, note: "kept", doc: { nested: [1, "two"] } });
    expect(rows[0].at).toBeInstanceOf(Date);
    const update = await db.query("update t set note = 'changed'");
    expect(update.rowCount).toBe(1);
  }, 60_000);

  it("a statement outside a transaction waits for an open transaction, as on one connection", async () => {
    db = await openPglite({ dataDir: "memory://" });
    await db.exec("create table t (id int)");
    const order: string[] = [];
    let outside: Promise<unknown> | null = null;
    await db.transaction(async (tx) => {
      await tx.query("insert into t values (1)");
      outside = db!.query("select count(*)::int as n from t").then((result) => order.push(`outside saw ${result.rows[0].n}`));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query("insert into t values (2)");
      order.push("transaction done");
    });
    await outside;
    expect(order).toEqual(["transaction done", "outside saw 2"]);
  }, 60_000);

  it("delivers NOTIFY payloads to listeners until they unlisten", async () => {
    db = await openPglite({ dataDir: "memory://" });
    const heard: string[] = [];
    const unlisten = await db.listen("run_events", (payload) => heard.push(payload));
    await db.query("select pg_notify('run_events', 'first')");
    await expect.poll(() => heard).toEqual(["first"]);
    await unlisten();
    await db.query("select pg_notify('run_events', 'second')");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual(["first"]);
  }, 60_000);

  it("a process waits for its statements' answers, then exits without closing the database", () => {
    const script = path.join(folder, "exits.mts");
    writeFileSync(
      script,
      `import { openPglite } from ${JSON.stringify(path.resolve("lib/db/open-pglite.ts"))};
const db = await openPglite({ dataDir: ${JSON.stringify(path.join(folder, "exits"))} });
await db.exec("create table t (id int)");
setTimeout(() => db.query("insert into t select generate_series(1, 1000)").then(() => db.query("select count(*)::int as n from t")).then((r) => console.log("rows", r.rows[0].n)), 10);
`,
    );
    const child = runScript(script);
    expect(child.stderr).toBe("");
    expect(child.stdout.trim()).toBe("rows 1000");
    expect(child.status).toBe(0);
  }, 90_000);

  it("a statement asked while the database closes is refused at once, and the process ends with its own exit code", () => {
    // A worker's last statements can race its command's close. Their answers used to come after
    // close's and unreference the thread while its end was awaited: the event loop emptied and the
    // command exited 13 (an unsettled top-level await) instead of its own code, about one run in three.
    const script = path.join(folder, "closes.mts");
    writeFileSync(
      script,
      `import { openPglite } from ${JSON.stringify(path.resolve("lib/db/open-pglite.ts"))};
const db = await openPglite({ dataDir: process.argv[2] });
await db.query("select 1");
const closing = db.close();
const late = db.query("select 1").then(() => "answered", (error) => error.message);
await closing;
console.log("late:", await late);
process.exitCode = 7;
`,
    );
    for (let run = 0; run < 2; run++) {
      const child = runScript(script, path.join(folder, `closes-${run}`));
      expect(child.stderr).toBe("");
      expect(child.stdout.trim()).toBe("late: the database is closed");
      expect(child.status).toBe(7);
    }
  }, 120_000);
});
