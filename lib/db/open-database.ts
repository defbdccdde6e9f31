import type { Environment } from "@/lib/environment";
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "@/lib/project-root";
import type { Database } from "./database";
import { migrate } from "./migrate";

/** Where the embedded database lives unless PARALLAXR_DATA_DIR says otherwise: .data in the Parallaxr folder. */
export const defaultDataDir = path.join(projectRoot(), ".data");

/** How to reach the database: a Postgres URL, or else PGlite in a folder. */
export interface DatabaseConfig {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
}

/** Reads the database settings from the environment (DATABASE_URL, PARALLAXR_DATA_DIR). */
export function databaseConfigFromEnv(env: Environment = process.env): DatabaseConfig {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.PARALLAXR_DATA_DIR || undefined,
    poolSize: env.PARALLAXR_POOL_SIZE ? Number(env.PARALLAXR_POOL_SIZE) : undefined,
  };
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  const dataDir = config.dataDir ?? defaultDataDir;
  if (!config.databaseUrl && !dataDir.startsWith("memory://")) {
    // the data folder holds the database, the key that seals provider keys and the lock: its owner's alone
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
  }
  // each backend's client loads only when it is the one configured
  if (!config.databaseUrl) {
    const { openPglite } = await import("./open-pglite");
    return openPglite({ dataDir: pgliteFolder(dataDir), prepare: async (db) => (await migrate(db)).length > 0 });
  }
  const db = await (await import("./open-postgres")).openPostgres({ url: config.databaseUrl, poolSize: config.poolSize });
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return db;
}

/** The PGlite folder inside a data folder ("memory://" keeps the database in memory, for tests). */
export function pgliteFolder(dataDir: string): string {
  return dataDir.startsWith("memory://") ? dataDir : path.join(dataDir, "pglite");
}
