import { readAccessConfig, type AccessConfig } from "@/lib/auth/access-config";
import { loadSecretKey } from "@/lib/auth/secret-box";
import type { Database } from "@/lib/db/database";
import { databaseConfigFromEnv, defaultDataDir, openDatabase } from "@/lib/db/open-database";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createDefaultProviderRegistry } from "@/lib/providers/default-registry";
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
  const worker =
    env.PARALLAXR_WORKER === "off"
      ? null
      : await startWorker({
          db,
          providers,
          maxInFlight: env.PARALLAXR_WORKER_MAX_IN_FLIGHT ? Number(env.PARALLAXR_WORKER_MAX_IN_FLIGHT) : undefined,
          leaseMs: env.PARALLAXR_LEASE_SECONDS ? Number(env.PARALLAXR_LEASE_SECONDS) * 1000 : undefined,
          cacheTtlSeconds: env.PARALLAXR_CACHE_TTL_HOURS ? Number(env.PARALLAXR_CACHE_TTL_HOURS) * 3600 : undefined,
          reclaimOnStart: db.kind === "pglite",
        });
  const shutdown = async () => {
    await worker?.stop({ graceMs: 3_000 }).catch(() => {});
    await notifications.close().catch(() => {});
    await db.close().catch(() => {});
  };
  process.once("SIGTERM", () => void shutdown().finally(() => process.exit(0)));
  process.once("SIGINT", () => void shutdown().finally(() => process.exit(0)));
  return { db, providers, notifications, worker, secretKey, access };
}
