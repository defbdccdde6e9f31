/**
 * A worker process for the batch crash tests: opens the database of DATABASE_URL, or the PGlite
 * data folder BATCH_DATA_DIR (it must be the folder's only process), and runs batch jobs with the
 * production image providers (createDefaultImageProviderRegistry; MOCK_IMAGE_CALL_LOG counts the
 * mock's answered calls) until SIGTERM, or until it is killed.
 */
import { randomBytes } from "node:crypto";
import { openDatabase } from "@/lib/db/open-database";
import { createDefaultImageProviderRegistry } from "@/lib/engine/image-providers";
import { startWorker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";

async function main(): Promise<void> {
  const env = process.env;
  const db = env.DATABASE_URL
    ? await openDatabase({ databaseUrl: env.DATABASE_URL, poolSize: 4 })
    : await openDatabase({ dataDir: env.BATCH_DATA_DIR });
  const worker = await startWorker({
    db,
    providers: createProviderRegistry([createMockProvider()]),
    imageProviders: createDefaultImageProviderRegistry({ db, secretKey: randomBytes(32), env }),
    pollMs: 20,
    leaseMs: Number(env.BATCH_LEASE_MS ?? 30_000),
    reclaimOnStart: db.kind === "pglite",
  });
  console.log(`ready ${process.pid}`);
  process.once("SIGTERM", () => {
    void worker
      .stop({ graceMs: 2_000 })
      .then(() => db.close())
      .finally(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
