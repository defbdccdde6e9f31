import { describe, expect, it } from "vitest";
import { workerOptionsFromEnv } from "@/lib/engine/worker-options";

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
