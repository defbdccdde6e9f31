/**
 * A standalone worker: `npm run worker` with DATABASE_URL set claims and executes cells of every
 * user's runs until SIGTERM or SIGINT, then gives back what it holds. Start as many as you like,
 * on as many machines as you like; the database shares the work.
 */
import { loadSecretKey } from "@/lib/auth/secret-box";
import { defaultDataDir, openDatabase } from "@/lib/db/open-database";
import { createDefaultImageProviderRegistry } from "@/lib/engine/image-providers";
import { startWorker } from "@/lib/engine/worker";
import { workerOptionsFromEnv } from "@/lib/engine/worker-options";
import { createDefaultProviderRegistry } from "@/lib/server/default-registry";

async function main(): Promise<void> {
  const env = process.env;
  if (!env.DATABASE_URL) {
    console.error(
      "npm run worker needs DATABASE_URL (a Postgres server). With the embedded database the worker " +
        "already runs inside the server (npm run dev); a second process must not open the same PGlite folder.",
    );
    process.exit(2);
  }
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: env.PARALLAXR_POOL_SIZE ? Number(env.PARALLAXR_POOL_SIZE) : 4 });
  const secretKey = loadSecretKey({ env, dataDir: env.PARALLAXR_DATA_DIR || defaultDataDir });
  const worker = await startWorker({
    db,
    providers: createDefaultProviderRegistry({ db, secretKey, env }),
    imageProviders: createDefaultImageProviderRegistry({ db, secretKey, env }),
    ...workerOptionsFromEnv(env),
  });
  console.log(`[parallaxr worker] ${worker.id} started (pid ${process.pid})`);
  const stop = async (signal: string) => {
    console.log(`[parallaxr worker] ${signal}: finishing calls in flight, then stopping`);
    await worker.stop({ graceMs: 10_000 });
    await db.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  console.error("[parallaxr worker] could not start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
