import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import { asUser } from "@/lib/db/as-user";
import { createRun, estimateRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { createPgliteTestDatabase, userA, userB, waitFor, type TestDatabase } from "../helpers/databases";

const userC = "00000000-0000-4000-8000-00000000000c";
const userD = "00000000-0000-4000-8000-00000000000d";

describe("credential limits, AIMD, budgets and plans", () => {
  let test: TestDatabase;
  let workers: Worker[];
  const mock = createMockProvider();
  // a provider with a tokenizer of its own: one token per word
  const worded: TextProvider = {
    id: "worded",
    kind: "text",
    listModels: async () => [],
    countTokens: async (_model, text) => text.split(/\s+/).filter(Boolean).length,
    generate: async () => ({ text: "ok", tokensIn: 1, tokensOut: 1, tokensEstimated: false, finishReason: "stop", warnings: [] }),
  };
  const providers = createProviderRegistry([mock, worded]);

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    // two workers: the limits must hold across them
    workers = [await startWorker({ db: test.db, providers, pollMs: 20 }), await startWorker({ db: test.db, providers, pollMs: 20 })];
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await test.drop();
  });

  const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ n: `${tag}-${i}` }));
  const finish = (userId: string, runId: string) =>
    waitFor(
      async () => {
        const current = await getRun({ db: test.db }, { userId, runId });
        return current.status === "completed" ? current : null;
      },
      { timeoutMs: 60_000, what: `run ${runId} to complete` },
    );

  it("a user's max concurrency for a provider holds over all of their runs and both workers", async () => {
    await asUser(test.db, userA, (tx) => tx.query("insert into provider_limits (provider, max_concurrency) values ('mock', 3)"));
    mock.resetStats();
    const input = (tag: string): CreateRunInput => ({
      prompt: "limit {{n}}",
      rows: rows(20, tag),
      models: [{ provider: "mock", model: "echo", params: { latencyMs: 25, jitterMs: 10 } }],
      concurrency: 8,
    });
    const [one, two] = await Promise.all([
      createRun({ db: test.db, providers }, { userId: userA, input: input("x") }),
      createRun({ db: test.db, providers }, { userId: userA, input: input("y") }),
    ]);
    await finish(userA, one.id);
    await finish(userA, two.id);
    expect(mock.stats().peakInFlight).toBe(3);
  });

  it("on 429s lowers the credential's concurrency, and raises it again after successes", async () => {
    // A known cap and one-cell runs make every step exact: each run saves exactly one result.
    await asUser(test.db, userB, (tx) => tx.query("insert into provider_limits (provider, max_concurrency) values ('mock', 8)"));
    const adaptiveLimit = async () =>
      (
        await test.db.query<{ adaptive_limit: number | null }>(
          "select adaptive_limit from provider_limits where user_id = $1 and provider = 'mock/fast'",
          [userB],
        )
      ).rows[0]?.adaptive_limit ?? null;
    // one attempt: the 429 is the cell's final result, so no success can raise the limit in between
    const throttledCell = async (tag: string) => {
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userB,
          input: {
            prompt: "aimd {{n}}",
            rows: rows(1, tag),
            models: [{ provider: "mock", model: "fast", params: { rateLimitRate: 1, retryAfterSeconds: 0.01 } }],
            maxAttempts: 1,
            cache: false,
          },
        },
      );
      const done = await finish(userB, run.id);
      expect(done.cells.map((cell) => [cell.status, cell.errorCode])).toEqual([["error", "rate_limited"]]);
    };
    const succeedingCells = async (n: number, tag: string) => {
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userB,
          input: {
            prompt: "recover {{n}}",
            rows: rows(n, tag),
            models: [{ provider: "mock", model: "fast" }],
            concurrency: 16,
            cache: false,
          },
        },
      );
      const done = await finish(userB, run.id);
      expect(done.counts.ok).toBe(n);
    };
    expect(await adaptiveLimit()).toBeNull();

    // the first 429 halves the user's cap
    await throttledCell("a");
    expect(await adaptiveLimit()).toBe(4);
    // a later 429 (more than a second after the last decrease) halves the lowered limit, not the cap
    await test.db.query(
      "update provider_limits set decreased_at = now() - interval '2 seconds' where user_id = $1 and provider = 'mock/fast'",
      [userB],
    );
    await throttledCell("b");
    expect(await adaptiveLimit()).toBe(2);

    // additive increase: each success adds 1 / limit
    await succeedingCells(1, "r");
    expect(await adaptiveLimit()).toBe(2.5);
    // enough successes reach the cap, and the throttle is lifted
    await succeedingCells(200, "s");
    expect(await adaptiveLimit()).toBeNull();
  });

  it("a dry run plans tokens and cost per model and writes nothing", async () => {
    await asUser(test.db, userC, (tx) =>
      tx.query("insert into pricing (provider, model, input_per_mtok, output_per_mtok) values ('mock', 'echo', 1000, 2000)"),
    );
    const before = (await test.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n;
    await expect(
      estimateRun(
        { db: test.db, providers },
        {
          userId: userC,
          input: {
            prompt: "Plan {{n}}", // "Plan c-0" renders to 8 characters: 2 tokens
            rows: rows(10, "c"),
            models: [
              { provider: "mock", model: "echo", params: { maxTokens: 100 } },
              { provider: "nobody", model: "unknown" },
            ],
          },
        },
      ),
    ).rejects.toThrow('Unknown provider "nobody".'); // refused before any planning

    const good = await estimateRun(
      { db: test.db, providers },
      {
        userId: userC,
        input: {
          prompt: "Plan {{n}}",
          rows: rows(10, "c"),
          models: [
            { provider: "mock", model: "echo", params: { maxTokens: 100 } },
            { provider: "mock", model: "fast" },
          ],
        },
      },
    );
    expect(good.cells).toBe(20);
    expect(good.models[0]).toMatchObject({
      provider: "mock",
      model: "echo",
      cells: 10,
      inputTokens: 20,
      outputTokens: 1000,
      outputTokensSource: "maxTokens",
      priced: true,
    });
    // 20 tokens in at $1000/M + 1000 out at $2000/M
    expect(good.models[0].costUsd).toBeCloseTo(0.02 + 2, 10);
    // mock/fast: no maxTokens and no history, but free by the reference: the cost is still known
    expect(good.models[1]).toMatchObject({ outputTokensSource: "unknown", costUsd: 0, priced: true });
    expect(good.totalIsLowerBound).toBe(false);

    // a priced model whose output is unknown: the input's cost is the floor, and the total says so
    const floor = await estimateRun(
      { db: test.db, providers },
      {
        userId: userC,
        input: { prompt: "Plan {{n}}", rows: rows(10, "c"), models: [{ provider: "mock", model: "echo" }] },
      },
    );
    expect(floor.models[0]).toMatchObject({ outputTokensSource: "unknown", costUsd: null, costPerCellUsd: null });
    expect(floor.models[0].lowerBoundUsd).toBeCloseTo((20 * 1000) / 1e6, 10);
    expect(floor).toMatchObject({ totalIsLowerBound: true });
    expect(floor.totalCostUsd).toBeCloseTo(0.02, 10);
    expect((await test.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n).toBe(before);
  });

  it("a budget stops scheduling within one in-flight batch of the cap and says why", async () => {
    // one run first, so the model has an output history to estimate from
    const history = await createRun(
      { db: test.db, providers },
      {
        userId: userC,
        input: {
          prompt: "Budget {{n}}",
          rows: rows(5, "h"),
          models: [{ provider: "mock", model: "echo", params: { latencyMs: 5, jitterMs: 0 } }],
        },
      },
    );
    const done = await finish(userC, history.id);
    const perCell = done.cells.reduce((sum, cell) => sum + (cell.costUsd ?? 0), 0) / done.cells.length;
    expect(perCell).toBeGreaterThan(0);

    const budget = perCell * 10.5;
    const concurrency = 4;
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userC,
        input: {
          prompt: "Budget {{n}}",
          rows: rows(60, "b"),
          models: [{ provider: "mock", model: "echo", params: { latencyMs: 20, jitterMs: 0 } }],
          concurrency,
          budgetUsd: budget,
          cache: false,
        },
      },
    );
    expect(run.plan.models[0].outputTokensSource).toBe("history");
    const finished = await finish(userC, run.id);
    expect(finished.spentUsd).toBeLessThanOrEqual(budget + concurrency * perCell * 1.05);
    expect(finished.counts.ok).toBeGreaterThanOrEqual(9);
    expect(finished.counts.skipped).toBeGreaterThan(0);
    expect(finished.counts.ok + finished.counts.skipped).toBe(60);
    const skipped = finished.cells.find((cell) => cell.status === "skipped")!;
    expect(skipped.error).toMatch(/budget of \$[\d.]+ would be exceeded/);
  });

  it("strict mode skips models it cannot price, before any call, and runs the ones it can", async () => {
    mock.resetStats();
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userD,
        input: {
          prompt: "Strict {{n}}",
          rows: rows(5, "s"),
          // worded has no price anywhere; the mock is free by the reference
          models: [
            { provider: "worded", model: "w" },
            { provider: "mock", model: "fast" },
          ],
          budgetUsd: 1,
          budgetMode: "strict",
        },
      },
    );
    const finished = await finish(userD, run.id);
    const unpriced = finished.cells.filter((cell) => cell.column === 0);
    expect(unpriced.map((cell) => cell.status)).toEqual(Array(5).fill("skipped"));
    for (const cell of unpriced) expect(cell.error).toMatch(/budget mode strict/);
    expect(finished.cells.filter((cell) => cell.column === 1).map((cell) => cell.status)).toEqual(Array(5).fill("ok"));
    expect(mock.stats().calls).toBe(5);
  });

  it("plans input tokens with the model's own tokenizer where its provider has one", async () => {
    const plan = await estimateRun(
      { db: test.db, providers },
      {
        userId: userD,
        input: {
          prompt: "Count the words in {{n}} please",
          rows: [{ n: "one two" }, { n: "three" }],
          models: [
            { provider: "worded", model: "w" },
            { provider: "mock", model: "fast" },
          ],
        },
      },
    );
    expect(plan.models[0]).toMatchObject({ inputTokens: 7 + 6, inputTokensMethod: "tokenizer" });
    expect(plan.models[1].inputTokensMethod).toBe("estimate");
  });
});
