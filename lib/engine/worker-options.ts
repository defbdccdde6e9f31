import type { Environment } from "@/lib/environment";

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
