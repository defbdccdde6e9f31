import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { inProcessWorkerOptions, workerOptionsFromEnv } from "@/lib/engine/worker-options";

describe("workerOptionsFromEnv", () => {
  it("reads every worker setting, in the worker's units", () => {
    expect(
      workerOptionsFromEnv({
        PARALLAXR_WORKER_ID: "w1",
        PARALLAXR_WORKER_MAX_IN_FLIGHT: "64",
        PARALLAXR_LEASE_SECONDS: "30",
        PARALLAXR_POLL_MS: "100",
        PARALLAXR_CACHE_TTL_HOURS: "2",
      }),
    ).toEqual({ workerId: "w1", maxInFlight: 64, leaseMs: 30_000, pollMs: 100, cacheTtlSeconds: 7_200 });
  });

  it("leaves unset ones to the worker's defaults", () => {
    expect(workerOptionsFromEnv({})).toEqual({
      workerId: undefined,
      maxInFlight: undefined,
      leaseMs: undefined,
      pollMs: undefined,
      cacheTtlSeconds: undefined,
    });
  });

  it("refuses a value that is not a positive number, naming the variable", () => {
    expect(() => workerOptionsFromEnv({ PARALLAXR_POLL_MS: "fast" })).toThrow('PARALLAXR_POLL_MS must be a positive number; it is "fast".');
    expect(() => workerOptionsFromEnv({ PARALLAXR_LEASE_SECONDS: "0" })).toThrow("PARALLAXR_LEASE_SECONDS");
  });
});

describe("inProcessWorkerOptions", () => {
  const on = (kind: Database["kind"]) => ({ kind }) as Database;

  it("claims ahead on both backends; only PGlite's worker, alone on its folder, reclaims and journals", () => {
    expect(inProcessWorkerOptions(on("pglite"), { dataDir: "/data", fromEnv: {} })).toEqual({
      reclaimOnStart: true,
      claimAhead: true,
      journalDir: expect.stringMatching(/^\/data\//),
    });
    expect(inProcessWorkerOptions(on("postgres"), { dataDir: "/data", fromEnv: {} })).toEqual({
      reclaimOnStart: false,
      claimAhead: true,
      journalDir: undefined,
    });
  });

  it("claims only what it runs with PARALLAXR_CLAIM_AHEAD=0", () => {
    const fromEnv = workerOptionsFromEnv({ PARALLAXR_CLAIM_AHEAD: "0" });
    expect(inProcessWorkerOptions(on("postgres"), { dataDir: "/data", fromEnv }).claimAhead).toBe(false);
    expect(inProcessWorkerOptions(on("pglite"), { dataDir: "/data", fromEnv })).toEqual({
      reclaimOnStart: true,
      claimAhead: false,
      journalDir: undefined,
    });
  });
});
