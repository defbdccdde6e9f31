import path from "node:path";
import { projectRoot } from "@/lib/project-root";
import type { Database, Executor, QueryResult } from "./database";

/** What the thread's PGlite answers: the statements of lib/db/database.ts, run over messages. */
export interface PgliteConnection extends Executor {
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  batch: Database["batch"];
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /**
   * Where the statement was asked for, so an error points at the caller rather than the thread.
   * Its stack is formatted only when the statement fails (formatting it for every statement cost
   * a fifth of a millisecond each).
   */
  origin: Error;
}

type Answer = { id: number; result?: unknown; error?: Record<string, unknown> & { message: string } };

/**
 * Where bin/launch.mjs leaves the database thread it started as a command began (a thread of
 * lib/db/pglite-thread.mjs waiting to be told what to open): the first open in the process takes it.
 */
const prestartedThread = Symbol.for("parallaxr.pgliteThread");

function takePrestartedThread(): import("node:worker_threads").Worker | null {
  const holder = globalThis as { [prestartedThread]?: import("node:worker_threads").Worker };
  const worker = holder[prestartedThread] ?? null;
  delete holder[prestartedThread];
  return worker;
}

/**
 * Starts PGlite on a worker thread (lib/db/pglite-thread.mjs) and resolves once it is ready.
 * The thread keeps the process alive only while a statement is waiting for its answer, as PGlite
 * on the main thread did: a process whose work is done exits without closing the database.
 */
export async function startPgliteThread(
  dataDir: string | undefined,
  startParams: string[],
  { v8Flags = [] }: { v8Flags?: string[] } = {},
): Promise<PgliteConnection> {
  // Loaded past the server bundler: Turbopack bundles the entry of a `new Worker(...)` it can see,
  // and this entry is a file of the Parallaxr folder, run as it is.
  const { Worker } = (await import(
    /* turbopackIgnore: true */ /* webpackIgnore: true */ "node:worker_threads"
  )) as typeof import("node:worker_threads");
  const worker =
    takePrestartedThread() ??
    new Worker(path.join(projectRoot(), "lib", "db", "pglite-thread.mjs"), {
      // the thread runs plain JavaScript: no TypeScript loader, whatever started this process
      execArgv: [],
    });
  worker.postMessage({ open: { dataDir, startParams, v8Flags } });
  const pending = new Map<number, Pending>();
  const listeners = new Map<number, (payload: string) => void>();
  let nextId = 1;
  let failure: Error | null = null;

  // From close() on, the thread stays referenced until it has exited: an answer that comes after
  // close's (a statement asked just before it) must not unreference it while its end is awaited,
  // or the event loop can empty first and a command exits 13 (an unsettled top-level await).
  let closing = false;
  const settle = () => {
    if (pending.size === 0 && !closing) worker.unref();
  };
  const failAll = (error: Error) => {
    failure = error;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };

  await new Promise<void>((ready, failed) => {
    const onMessage = (message: { ready?: boolean; error?: { message: string } }) => {
      if (message.ready === undefined) return;
      worker.off("message", onMessage);
      worker.off("error", failed);
      if (message.ready) ready();
      else failed(Object.assign(new Error(message.error?.message ?? "PGlite failed to start"), message.error));
    };
    worker.on("message", onMessage);
    worker.once("error", failed);
  }).catch(async (error) => {
    await worker.terminate();
    throw error;
  });

  worker.on("message", (message: Answer & { listener?: number; payload?: string }) => {
    if (message.listener !== undefined) {
      listeners.get(message.listener)?.(message.payload ?? "");
      return;
    }
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    settle();
    if (message.error) {
      const { message: text, ...fields } = message.error;
      const error = Object.assign(new Error(text), fields);
      const stack = entry.origin.stack?.split("\n").slice(2).join("\n");
      if (stack) error.stack = `${error.name}: ${text}\n${stack}`;
      entry.reject(error);
    } else {
      entry.resolve(message.result);
    }
  });
  worker.on("error", (error) => failAll(error));
  worker.on("exit", (code) => failAll(new Error(`the database thread stopped (exit ${code})`)));
  worker.unref();

  function ask<T>(request: Record<string, unknown>): Promise<T> {
    if (failure) return Promise.reject(failure);
    if (closing) return Promise.reject(new Error("the database is closed"));
    const id = nextId++;
    const origin = new Error();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, origin });
      if (pending.size === 1) worker.ref();
      worker.postMessage({ id, ...request });
    });
  }

  const executor = (tx?: number): Executor => ({
    query<Row>(sql: string, params?: unknown[]) {
      return ask<QueryResult<Row>>({ op: "query", sql, params, tx });
    },
    async exec(sql: string) {
      await ask({ op: "exec", sql, tx });
    },
  });

  let nextTransaction = 1;
  let nextListener = 1;
  return {
    ...executor(),
    async transaction(fn) {
      const tx = nextTransaction++;
      await ask({ op: "begin", tx });
      let result;
      try {
        result = await fn(executor(tx));
      } catch (error) {
        await ask({ op: "rollback", tx }).catch(() => {});
        throw error;
      }
      await ask({ op: "commit", tx });
      return result;
    },
    batch: (statements) => ask({ op: "batch", statements }),
    async listen(channel, onPayload) {
      const listener = nextListener++;
      listeners.set(listener, onPayload);
      await ask({ op: "listen", channel, listener });
      return async () => {
        listeners.delete(listener);
        await ask({ op: "unlisten", listener }).catch(() => {});
      };
    },
    async close() {
      // Statements asked from now on are refused here rather than sent after the close.
      const closed = ask({ op: "close" });
      closing = true;
      worker.ref();
      try {
        await closed;
      } finally {
        await worker.terminate();
      }
    },
  };
}
