import { loadSecretKey } from "@/lib/auth/secret-box";
import type { Database } from "@/lib/db/database";
import { databaseConfigFromEnv, defaultDataDir } from "@/lib/db/open-database";
import { createDefaultImageProviderRegistry } from "@/lib/engine/image-providers";
import { startWorker } from "@/lib/engine/worker";
import { inProcessWorkerOptions, workerOptionsFromEnv } from "@/lib/engine/worker-options";
import { createDefaultProviderRegistry } from "@/lib/server/default-registry";
import type { DataTarget } from "./data-target";
import { preferDotenv } from "./experiments/dotenv-credentials";

/** The database a command runs on, with a worker in this process executing its cells. */
export interface LocalEngine {
  db: Database;
  /** Stops the worker (calls in flight get 2 s to finish and be saved), then closes the database. */
  close(): Promise<void>;
  /** How many times the worker has written results so far. */
  saves(): number;
  /**
   * Resolves once the worker has written results more than `seen` times, or after timeoutMs: a
   * follower reads when there is something new instead of polling the database.
   */
  savedSince(seen: number, timeoutMs: number): Promise<void>;
  /** Resolves once the worker has started a call, or after timeoutMs. */
  callStarted(timeoutMs: number): Promise<void>;
}

/**
 * Opens the target's database and starts a worker on it that calls the models with ./.env's keys
 * before the saved ones: what `run`, `eval`, `matrix` and `batch-run` do when no server holds the
 * data folder. images adds the image models (batch runs).
 */
export async function startLocalEngine(
  target: Extract<DataTarget, { kind: "database" }>,
  {
    dotenv,
    concurrency,
    onWarning,
    images = false,
    prepare,
  }: {
    dotenv: Record<string, string>;
    concurrency: number;
    onWarning: (message: string) => void;
    images?: boolean;
    /** Runs on the database before the worker starts (nothing is claimed or put right before it ends). */
    prepare?: (db: Database) => Promise<void>;
  },
): Promise<LocalEngine> {
  const db = await target.open();
  const env = process.env;
  let saves = 0;
  const waiting = new Set<() => void>();
  let callStarted!: () => void;
  const firstCall = new Promise<void>((resolve) => (callStarted = resolve));
  const dataDir = databaseConfigFromEnv(env).dataDir ?? defaultDataDir;
  try {
    await prepare?.(db);
    const secretKey = loadSecretKey({ env, dataDir });
    const fromEnv = workerOptionsFromEnv(env);
    const wrapCredentials = preferDotenv(dotenv);
    const worker = await startWorker({
      db,
      providers: createDefaultProviderRegistry({ db, secretKey, env, wrapCredentials }),
      // the keyless mock (tuned from the environment) and the vendors, ./.env's keys first
      imageProviders: images ? createDefaultImageProviderRegistry({ db, secretKey, env, wrapCredentials }) : undefined,
      // New runs and re-queued cells arrive as notices; the poll is the fallback for a lost one.
      pollMs: 250,
      maxInFlight: Math.max(16, concurrency),
      // One process owns a PGlite folder: a cell left running by a process that died (SIGKILL) is
      // nobody's, and is queued again at once instead of after its lease runs out. On a Postgres
      // server it comes back when its lease ends: PARALLAXR_LEASE_SECONDS, as for every worker.
      ...inProcessWorkerOptions(db, { dataDir, fromEnv }),
      leaseMs: fromEnv.leaseMs,
      onError: (error) => onWarning(`worker: ${(error as Error).message}`),
      onCallStarted: () => callStarted(),
      onSaved: () => {
        saves++;
        for (const wake of waiting) wake();
      },
    });
    return {
      db,
      close: async () => {
        await worker.stop({ graceMs: 2_000 });
        await db.close();
      },
      saves: () => saves,
      callStarted: (timeoutMs) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          void firstCall.then(() => {
            clearTimeout(timer);
            resolve();
          });
        }),
      savedSince: (seen, timeoutMs) =>
        new Promise<void>((resolve) => {
          if (saves > seen) return resolve();
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, timeoutMs);
          waiting.add(wake);
        }),
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
