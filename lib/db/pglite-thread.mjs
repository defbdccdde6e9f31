// PGlite on its own thread (lib/db/pglite-in-thread.ts starts it): every statement runs here, so
// the thread that serves HTTP and fires the provider calls' timers never waits on Postgres.
//
// Plain JavaScript, loaded by path from the Parallaxr folder, so the server's bundle, the CLI's
// bundle and the tests all start the same file. The main thread's first message says what to open,
// { open: { dataDir, startParams, v8Flags } }: a command starts this thread as the process
// starts (bin/launch.mjs), before it knows the folder, so PGlite's module loads meanwhile. It is
// answered { ready: true } or { ready: false, error } once PGlite has started. Then the main thread
// asks with { id, op, ... } and is answered with { id, result } or { id, error }; NOTIFY payloads
// come as { listener, payload }.
import { readFileSync } from "node:fs";
import v8 from "node:v8";
import { parentPort } from "node:worker_threads";

const opening = new Promise((resolve) => parentPort.once("message", (message) => resolve(message.open)));

// V8's flags for PGlite's WebAssembly (lib/db/open-pglite.ts, pgliteWasmFlags, says which and
// why) are set below, before new PGlite() compiles the module; V8's flags are the process's.
const { PGlite, types } = await import("@electric-sql/pglite");

/**
 * PGlite asks the database which types are arrays of which as it opens (its _initArrayTypes), to
 * parse array columns and serialize array parameters: the first statement of every start, 30-70
 * ms on a cold database. For Postgres' own types the answer is fixed by the Postgres version
 * PGlite ships, so it is read from pglite-array-types.json instead (tests/integration/
 * pglite-array-types.test.ts checks it against a new database). Parallaxr's schema defines no
 * types of its own whose arrays it reads; refreshArrayTypes() still asks the database.
 */
const builtinArrayTypes = JSON.parse(readFileSync(new URL("./pglite-array-types.json", import.meta.url), "utf8"));
class ParallaxrPGlite extends PGlite {
  async _initArrayTypes({ force = false } = {}) {
    if (force) return super._initArrayTypes({ force });
    for (const [oid, typarray] of builtinArrayTypes) {
      this.serializers[typarray] = (value) => types.arraySerializer(value, this.serializers[oid], typarray);
      this.parsers[typarray] = (value) => types.arrayParser(value, this.parsers[oid], typarray);
    }
  }
}

/** The fields of PGlite's DatabaseError worth carrying back: what callers and people read. */
const errorFields = ["code", "detail", "hint", "position", "severity", "schema", "table", "column", "constraint", "where"];

function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = { message: error.message, name: error.name };
  for (const field of errorFields) if (error[field] !== undefined) fields[field] = error[field];
  return fields;
}

/** Ends a transaction's callback without committing it: PGlite rolls back on a rejection. */
class Rollback extends Error {}

const open = await opening;
for (const flag of open.v8Flags ?? []) v8.setFlagsFromString(flag);
const pg = new ParallaxrPGlite(open.dataDir, { startParams: open.startParams });
/** Open transactions by the main thread's id: the PGlite handle and how to end its callback. */
const transactions = new Map();
const listeners = new Map();

function shape(result) {
  return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
}

function openTransaction(txId) {
  return new Promise((started, failed) => {
    let entry;
    const done = pg.transaction(
      (tx) =>
        new Promise((commit, rollback) => {
          entry = { tx, commit, rollback, done };
          transactions.set(txId, entry);
          started(null);
        }),
    );
    done.catch((error) => {
      // BEGIN itself failed, before the callback ran
      if (!entry) failed(error);
    });
  });
}

async function endTransaction(txId, commit) {
  const entry = transactions.get(txId);
  if (!entry) throw new Error(`no open transaction ${txId}`);
  transactions.delete(txId);
  if (commit) {
    entry.commit();
    await entry.done;
  } else {
    entry.rollback(new Rollback());
    await entry.done.catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  }
  return null;
}

async function handle(message) {
  switch (message.op) {
    case "query":
      return shape(await (message.tx ? transactions.get(message.tx).tx : pg).query(message.sql, message.params));
    case "exec":
      await (message.tx ? transactions.get(message.tx).tx : pg).exec(message.sql);
      return null;
    case "batch":
      return pg.transaction(async (tx) => {
        const results = [];
        for (const statement of message.statements) results.push(shape(await tx.query(statement.sql, statement.params)));
        return results;
      });
    case "begin":
      return openTransaction(message.tx);
    case "commit":
      return endTransaction(message.tx, true);
    case "rollback":
      return endTransaction(message.tx, false);
    case "listen": {
      const unlisten = await pg.listen(message.channel, (payload) => parentPort.postMessage({ listener: message.listener, payload }));
      listeners.set(message.listener, unlisten);
      return null;
    }
    case "unlisten": {
      const unlisten = listeners.get(message.listener);
      listeners.delete(message.listener);
      if (unlisten) await unlisten();
      return null;
    }
    case "close":
      await pg.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

parentPort.on("message", (message) => {
  handle(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) => parentPort.postMessage({ id: message.id, error: serializeError(error) }),
  );
});

pg.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: serializeError(error) }),
);
