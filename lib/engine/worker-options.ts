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
  /** False when PARALLAXR_CLAIM_AHEAD=0: the server's worker then claims only what it runs. */
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
 * The worker the app runs in its own process, the web server's and the CLI's: it claims ahead
 * unless PARALLAXR_CLAIM_AHEAD=0 (on a Postgres server too, where the database grants it only
 * while no other worker has a cell of the run running: 0023_claim_ahead_on_a_server.sql). A
 * worker that is its database's only one (PGlite: one process owns the folder) also takes back
 * what a dead process left at start, and journals its answers in the data folder. `npm run worker`
 * processes, started to share runs, do not claim ahead (a worker holding ahead keeps a run to
 * itself).
 */
export function inProcessWorkerOptions(
  db: Database,
  { dataDir, fromEnv }: { dataDir: string; fromEnv: WorkerEnvironmentOptions },
): { reclaimOnStart: boolean; claimAhead: boolean; journalDir: string | undefined } {
  const sole = db.kind === "pglite";
  const claimAhead = fromEnv.claimAhead !== false;
  return { reclaimOnStart: sole, claimAhead, journalDir: sole && claimAhead ? answerJournalFolder(dataDir) : undefined };
}
