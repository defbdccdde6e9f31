import type { Database } from "@/lib/db/database";
import type { Environment } from "@/lib/environment";
import { answerJournalFolder } from "./answer-journal";

/** The worker settings that come from the environment (see .env.example, "Worker"). */
export interface WorkerEnvironmentOptions {
  workerId?: string;
  maxInFlight?: number;
  leaseMs?: number;
  pollMs?: number;
  cacheTtlSeconds?: number;
  /** False when PARALLAXR_CLAIM_AHEAD=0: a sole worker (PGlite) then claims only what it runs. */
  claimAhead?: boolean;
}

/**
 * Reads PARALLAXR_WORKER_ID, PARALLAXR_WORKER_MAX_IN_FLIGHT, PARALLAXR_LEASE_SECONDS,
 * PARALLAXR_POLL_MS and PARALLAXR_CACHE_TTL_HOURS: one reader for the server's in-process worker
 * and `npm run worker`, so a setting means the same in both. Unset ones are left to the worker's
 * defaults; a value that is not a positive number is an error naming the variable.
 */
export function workerOptionsFromEnv(env: Environment = process.env): WorkerEnvironmentOptions {
  const number = (name: string, scale = 1): number | undefined => {
    const text = env[name]?.trim();
    if (!text) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; it is "${text}".`);
    return value * scale;
  };
  return {
    workerId: env.PARALLAXR_WORKER_ID?.trim() || undefined,
    maxInFlight: number("PARALLAXR_WORKER_MAX_IN_FLIGHT"),
    leaseMs: number("PARALLAXR_LEASE_SECONDS", 1000),
    pollMs: number("PARALLAXR_POLL_MS"),
    cacheTtlSeconds: number("PARALLAXR_CACHE_TTL_HOURS", 3600),
    claimAhead: env.PARALLAXR_CLAIM_AHEAD?.trim() === "0" ? false : undefined,
  };
}

/**
 * What a worker does when it is its database's only one (PGlite: one process owns the folder),
 * for the server's worker and the CLI's alike: take back what a dead process left at start, claim
 * ahead unless PARALLAXR_CLAIM_AHEAD=0, and then journal its answers in the data folder. On a
 * Postgres server, none of it.
 */
export function soleWorkerOptions(
  db: Database,
  { dataDir, fromEnv }: { dataDir: string; fromEnv: WorkerEnvironmentOptions },
): { reclaimOnStart: boolean; claimAhead: boolean; journalDir: string | undefined } {
  const sole = db.kind === "pglite";
  const claimAhead = sole && fromEnv.claimAhead !== false;
  return { reclaimOnStart: sole, claimAhead, journalDir: claimAhead ? answerJournalFolder(dataDir) : undefined };
}
