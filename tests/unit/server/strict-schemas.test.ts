import { describe, expect, it } from "vitest";
import { createDatasetSchema, createRunSchema, saveLimitsSchema, updateWorkbenchSchema } from "@/lib/api/schemas";

const run = { prompt: "Hi {{x}}", rows: [{ x: "1" }], models: [{ provider: "mock", model: "echo", params: { temperature: 0.2 } }] };

function messageOf(result: { success: boolean; error?: { issues: Array<{ message: string; path: PropertyKey[] }> } }): string {
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0];
  return `${issue.path.join(".")}: ${issue.message}`;
}

describe("strict API schemas", () => {
  it("take what the browser sends", () => {
    expect(
      createRunSchema.safeParse({
        promptId: crypto.randomUUID(),
        datasetId: crypto.randomUUID(),
        models: [{ provider: "mock", model: "echo" }],
        graderPromptId: crypto.randomUUID(),
        budgetUsd: 1,
        budgetMode: "estimate",
      }).success,
    ).toBe(true);
    expect(createRunSchema.safeParse(run).success).toBe(true);
    expect(createDatasetSchema.safeParse({ name: "a.csv", headers: ["x"], rows: [{ x: "1" }] }).success).toBe(true);
    expect(updateWorkbenchSchema.safeParse({ columns: [{ provider: "mock", model: "echo", params: {} }] }).success).toBe(true);
  });

  it("refuse an unknown envelope field by name, with the field it resembles", () => {
    const message = messageOf(createRunSchema.safeParse({ ...run, budget_usd: 0.01 }));
    expect(message).toContain('unknown field "budget_usd"');
    expect(message).toContain('did you mean "budgetUsd"');
    expect(messageOf(createRunSchema.safeParse({ ...run, models: [{ provider: "mock", model: "echo", temperature: 1 }] }))).toContain(
      'models.0: unknown field "temperature"',
    );
    expect(messageOf(createRunSchema.safeParse({ ...run, graderModel: { provider: "mock", model: "echo", params: {} } }))).toContain(
      'unknown field "params"',
    );
    expect(
      messageOf(saveLimitsSchema.safeParse({ maxConcurrency: 1, requestsPerMinute: null, tokensPerMinute: null, provider: "mock" })),
    ).toContain('unknown field "provider"');
    expect(messageOf(updateWorkbenchSchema.safeParse({ columns: [], extra: 1 }))).toContain('unknown field "extra"');
  });

  it("keep model params free-form but at most 10 levels deep and 64 KB", () => {
    expect(
      createRunSchema.safeParse({ ...run, models: [{ provider: "mock", model: "echo", params: { anything: { vendor: ["option"] } } }] })
        .success,
    ).toBe(true);
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 200_000; level++) deep = { a: deep };
    expect(messageOf(createRunSchema.safeParse({ ...run, models: [{ provider: "mock", model: "echo", params: deep }] }))).toContain(
      "deeper than 10 levels",
    );
    const big = { text: "x".repeat(70_000) };
    expect(messageOf(createRunSchema.safeParse({ ...run, models: [{ provider: "mock", model: "echo", params: big }] }))).toContain(
      "65,536",
    );
  });

  it("bound rows: 1,000 columns, column names and cell values", () => {
    const wide = Object.fromEntries(Array.from({ length: 1_001 }, (_, index) => [`c${index}`, "v"]));
    expect(messageOf(createDatasetSchema.safeParse({ name: "wide.csv", rows: [wide] }))).toContain("1,000 columns");
    expect(
      createDatasetSchema.safeParse({
        name: "h.csv",
        headers: Array.from({ length: 1_001 }, (_, index) => `c${index}`),
        rows: [{ c0: "1" }],
      }).success,
    ).toBe(false);
    expect(createDatasetSchema.safeParse({ name: "k.csv", rows: [{ ["k".repeat(1_001)]: "1" }] }).success).toBe(false);
    expect(createDatasetSchema.safeParse({ name: "v.csv", rows: [{ k: "v".repeat(1_000_001) }] }).success).toBe(false);
  });
});
