import { describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, waitFor } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

// Mock models are separate credentials (issue: trying mock/flaky throttled every mock model, and a
// following 2,000-cell run of the instant mocks took 42.5 s). Through the real worker and claim.
describe("mock models as separate credentials", () => {
  const mock = createMockProvider();
  const providers = createProviderRegistry([mock]);
  const engine = pgliteEngine(providers);

  const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ n: `${tag}-${i}` }));
  const finish = (runId: string) =>
    waitFor(
      async () => {
        const current = await getRun({ db: engine.db }, { userId: userA, runId });
        return current.status === "completed" ? current : null;
      },
      { timeoutMs: 60_000, what: `run ${runId} to complete` },
    );
  const adaptiveLimits = async () =>
    Object.fromEntries(
      (
        await engine.db.query<{ provider: string; adaptive_limit: number | null }>(
          "select provider, adaptive_limit from provider_limits where user_id = $1 order by provider",
          [userA],
        )
      ).rows.map((row) => [row.provider, row.adaptive_limit]),
    );
  /** Runs n rows of one mock model at concurrency 8 and answers the most calls it had at once. */
  const peakOf = async (model: string, params: Record<string, unknown>, n: number, tag: string) => {
    mock.resetStats();
    const run = await createRun(
      { db: engine.db, providers },
      {
        userId: userA,
        input: { prompt: "cred {{n}}", rows: rows(n, tag), models: [{ provider: "mock", model, params }], concurrency: 8, cache: false },
      },
    );
    const done = await finish(run.id);
    return { done, peak: mock.stats().peakInFlight };
  };

  it("mock/flaky's 429s lower mock/flaky's limit only: an instant mock run after it keeps its full concurrency", async () => {
    // flaky, every call a 429 and one attempt each, so each cell ends rate limited
    const flaky = await peakOf("flaky", { rateLimitRate: 1, retryAfterSeconds: 0.01, latencyMs: 20, jitterMs: 0 }, 16, "f");
    expect(flaky.done.cells.every((cell) => cell.errorCode === "rate_limited")).toBe(true);
    const afterFlaky = await adaptiveLimits();
    expect(afterFlaky["mock/flaky"]).toBeGreaterThanOrEqual(1);
    expect(Object.keys(afterFlaky)).toEqual(["mock/flaky"]);

    // then the instant mock (held 100 ms per call here so its concurrency can be seen): all 8 at once
    const instant = await peakOf("fast", { latencyMs: 100, jitterMs: 0 }, 24, "i");
    expect(instant.done.counts.ok).toBe(24);
    expect(instant.peak).toBe(8);
    const afterInstant = await adaptiveLimits();
    expect(afterInstant["mock/fast"]).toBeUndefined();
    expect(afterInstant.mock).toBeUndefined();
    expect(afterInstant["mock/flaky"]).toBe(afterFlaky["mock/flaky"]);

    // and mock/flaky's own throttle holds its next run to its limit
    await engine.db.query("update provider_limits set adaptive_limit = 2 where user_id = $1 and provider = 'mock/flaky'", [userA]);
    const throttled = await peakOf("flaky", { rateLimitRate: 0, latencyMs: 100, jitterMs: 0 }, 8, "t");
    expect(throttled.done.counts.ok).toBe(8);
    // from 2, each success adds 1 / limit (AIMD): 8 calls never reach 5 at once, where the instant mock had 8
    expect(throttled.peak).toBeGreaterThanOrEqual(2);
    expect(throttled.peak).toBeLessThanOrEqual(4);
  }, 90_000);
});
