import { readAccessConfig, type AccessConfig } from "@/lib/auth/access-config";
import { loadSecretKey } from "@/lib/auth/secret-box";
import type { Database } from "@/lib/db/database";
import { generateAccessToken } from "@/lib/auth/access-token";
import { localServerUrl } from "@/lib/auth/access-config";
import { announceServerInLock } from "@/lib/db/data-folder-lock";
import { databaseConfigFromEnv, defaultDataDir, openDatabase, pgliteFolder } from "@/lib/db/open-database";
import { createDefaultImageProviderRegistry } from "@/lib/engine/image-providers";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { inProcessWorkerOptions, workerOptionsFromEnv } from "@/lib/engine/worker-options";
import { createDefaultProviderRegistry } from "@/lib/server/default-registry";
import type { ProviderRegistry } from "@/lib/providers/registry";
import { createNotificationHub, type NotificationHub } from "@/lib/realtime/notification-hub";

/** The long-lived parts of a server process, shared by every request. */
export interface AppContext {
  db: Database;
  providers: ProviderRegistry;
  notifications: NotificationHub;
  worker: Worker | null;
  /** Seals and opens stored provider keys; never leaves the server. */
  secretKey: Buffer;
  /** Who may call and from where: the bind host, whether tokens are needed, allowed hosts. */
  access: AccessConfig;
  /** The secret this machine's CLI reads from the PGlite folder's lock to act as the local user; null on a Postgres server. */
  controlToken: string | null;
}

// Next.js may load this module more than once (instrumentation and each route bundle), so the
// one context per process lives on globalThis.
const store = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

/**
 * The process's context, created on first use: opens the database (migrating it), and starts the
 * in-process worker unless PARALLAXR_WORKER=off. A failed start is not cached, so the next
 * request tries again.
 */
export function getAppContext(): Promise<AppContext> {
  store.__parallaxrContext ??= createAppContext().catch((error) => {
    store.__parallaxrContext = undefined;
    throw error;
  });
  return store.__parallaxrContext;
}

async function createAppContext(): Promise<AppContext> {
  const env = process.env;
  const access = readAccessConfig(env);
  const config = databaseConfigFromEnv(env);
  const db = await openDatabase(config);
  const secretKey = loadSecretKey({ env, dataDir: config.dataDir ?? defaultDataDir });
  const providers = createDefaultProviderRegistry({ db, secretKey, env });
  const notifications = await createNotificationHub(db);
  const workerOptions = workerOptionsFromEnv(env);
  const worker =
    env.PARALLAXR_WORKER === "off"
      ? null
      : await startWorker({
          db,
          providers,
          imageProviders: createDefaultImageProviderRegistry({ db, secretKey, env }),
          ...workerOptions,
          // Claims ahead; and on PGlite, whose folder one process owns, it is the only worker.
          ...inProcessWorkerOptions(db, { dataDir: config.dataDir ?? defaultDataDir, fromEnv: workerOptions }),
        });
  const shutdown = async () => {
    await worker?.stop({ graceMs: 3_000 }).catch(() => {});
    await notifications.close().catch(() => {});
    await db.close().catch(() => {});
  };
  process.once("SIGTERM", () => void shutdown().finally(() => process.exit(0)));
  process.once("SIGINT", () => void shutdown().finally(() => process.exit(0)));
  const controlToken = db.kind === "pglite" ? generateAccessToken() : null;
  if (controlToken)
    announceWhenListening({ pgliteFolder: pgliteFolder(config.dataDir ?? defaultDataDir), bindHost: access.bindHost, controlToken });
  return { db, providers, notifications, worker, secretKey, access, controlToken };
}

/**
 * Writes this server's loopback address and control token into the PGlite folder's lock, so
 * `parallaxr` commands on this machine act through the server instead of opening the folder.
 * Next sets PORT once the server listens, which may come after the context is made.
 */
function announceWhenListening({
  pgliteFolder,
  bindHost,
  controlToken,
}: {
  pgliteFolder: string;
  bindHost: string;
  controlToken: string;
}): void {
  if (pgliteFolder.startsWith("memory://")) return;
  const deadline = Date.now() + 120_000;
  const tick = () => {
    const port = process.env.PORT;
    if (port) announceServerInLock(pgliteFolder, { url: localServerUrl(bindHost, port), controlToken });
    else if (Date.now() < deadline) setTimeout(tick, 100).unref();
  };
  tick();
}
