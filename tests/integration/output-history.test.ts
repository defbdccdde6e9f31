import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { averageOutputTokens, OUTPUT_HISTORY } from "@/lib/db/pricing/pricing";
import { createRun, estimateRun } from "@/lib/engine/create-run";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, userA, userB, type TestDatabase } from "../helpers/databases";

// A plan estimates a model's output tokens from its recent answers: the latest runs' columns of
// that model, not every cell ever answered (that read the whole cells table on every new run).
describe("the output estimate from a model's history", () => {
  const providers = createProviderRegistry([createMockProvider()]);
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
  });
  afterAll(async () => {
    await test?.drop();
  });

  /** A run of the model whose cells are answered with tokensOut tokens each (as a worker would have saved them). */
  async function answeredRun(userId: string, model: string, rows: number, tokensOut: number, createdAt: string): Promise<string> {
    const run = await createRun(
      { db: test.db, providers },
      {
        userId,
        input: {
          prompt: "Say {{n}}",
          rows: Array.from({ length: rows }, (_, n) => ({ n: String(n) })),
          models: [{ provider: "mock", model }],
          cache: false,
        },
      },
    );
    await test.db.query("update runs set status = 'completed', created_at = $2 where id = $1", [run.id, createdAt]);
    await test.db.query("update run_cells set status = 'ok', tokens_out = $2, finished_at = now() where run_id = $1", [run.id, tokensOut]);
    return run.id;
  }

  it("averages the model's latest columns only, and only the caller's", async () => {
    // long ago: long answers; lately: short ones
    await answeredRun(userA, "echo", 50, 1_000, "2026-01-01T00:00:00Z");
    for (let i = 0; i < OUTPUT_HISTORY.columns; i++)
      await answeredRun(userA, "echo", 2, 100, `2026-06-01T00:${String(i).padStart(2, "0")}:00Z`);
    // another model's and another user's answers do not count
    await answeredRun(userA, "fast", 5, 7, "2026-07-01T00:00:00Z");
    await answeredRun(userB, "echo", 5, 9_000, "2026-07-01T00:00:00Z");

    const average = await asUser(test.db, userA, (tx) => averageOutputTokens(tx, { provider: "mock", model: "echo" }));
    expect(average).toBe(100);
    const plan = await estimateRun(
      { db: test.db, providers },
      { userId: userA, input: { prompt: "Say {{n}}", rows: [{ n: "1" }, { n: "2" }], models: [{ provider: "mock", model: "echo" }] } },
    );
    expect(plan.models[0]).toMatchObject({ outputTokensSource: "history", outputTokens: 200 });
    // a model with no answers yet has no history
    await expect(asUser(test.db, userA, (tx) => averageOutputTokens(tx, { provider: "mock", model: "slow" }))).resolves.toBeNull();
  });

  it("looks at a bounded number of each column's cells", async () => {
    await answeredRun(userA, "mock", 10, 40, "2026-08-01T00:00:00Z");
    // the latest run was cancelled before its first cells ran: only its later rows have answers
    const rows = OUTPUT_HISTORY.cellsLookedAt + 100;
    const latest = await answeredRun(userA, "mock", rows, 5_000, "2026-09-01T00:00:00Z");
    await test.db.query("update run_cells set status = 'cancelled', tokens_out = null where run_id = $1 and row_index < $2", [
      latest,
      OUTPUT_HISTORY.cellsLookedAt,
    ]);
    const average = await asUser(test.db, userA, (tx) => averageOutputTokens(tx, { provider: "mock", model: "mock" }));
    expect(average).toBe(40);
  });
});
