import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { estimateJob, mayStart, planBudget, pricePerImage, PRICING_REFERENCE } from "@/lib/core/batch/budget";
import { parseMatrix, planJobs, type BatchJob, type JobParams } from "@/lib/core/batch/matrix";

const job = (n: number, params: Partial<JobParams>): BatchJob => ({
  job_id: `j-${String(n).padStart(6, "0")}`,
  prompt_id: "p-0001",
  prompt: "ramen",
  params: { provider: "openai", model: "gpt-image-1.5", n: 1, provider_options: {}, ...params } as JobParams,
});

// 0.133, unknown (no quality), 0.2, 0.039 x 2 images, 0.133
const JOBS = [
  job(1, { size: "1024x1024", provider_options: { quality: "high" } }),
  job(2, { size: "1024x1024" }),
  job(3, { size: "1024x1536", provider_options: { quality: "high" } }),
  job(4, { provider: "gemini", model: "gemini-2.5-flash-image", size: "4:5", n: 2 }),
  job(5, { size: "1024x1024", provider_options: { quality: "high" } }),
];

const summary = (plan: ReturnType<typeof planBudget>) => plan.decisions.map((d) => [d.job_id, d.run, d.skip_reason]);

describe("batch budget", () => {
  it("ships a dated reference with its sources", () => {
    expect(PRICING_REFERENCE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const raw = JSON.parse(readFileSync(join(process.cwd(), "lib/core/batch/pricing-reference.json"), "utf8"));
    expect(raw.sources.length).toBeGreaterThan(0);
  });

  it("prices per image by model, size and quality, times n", () => {
    expect(pricePerImage(JOBS[0].params)).toBe(0.133);
    expect(estimateJob(JOBS[1].params)).toBeNull();
    expect(estimateJob(JOBS[3].params)).toBe(0.078);
    expect(estimateJob({ provider: "mock", model: "anything", n: 4, provider_options: {} })).toBe(0);
    const override = [{ date: "2026-02-01", prices: [{ provider: "openai", model: "gpt-image-1.5", size: "*", quality: "*", usd: 1 }] }];
    expect(estimateJob(JOBS[1].params, [...override, PRICING_REFERENCE])).toBe(1);
  });

  it("estimates the spec's example matrix", () => {
    const def = parseMatrix(readFileSync(join(__dirname, "fixtures/spec-matrix.yaml"), "utf8"), "matrix.yaml");
    const { jobs } = planJobs([{ id: "p-0001", prompt: "ramen", metadata: {} }], def);
    const plan = planBudget(jobs, { budgetUsd: 10, mode: "estimate" });
    expect(plan.estimated_cost_usd).toBe(0.969);
    expect(plan.decisions.every((d) => d.run)).toBe(true);
    expect(plan.decisions[1].estimated_cost_usd).toBe(0.133);
  });

  it("estimate: unknown price runs with a warning, scheduling stops once the estimate would exceed", () => {
    const plan = planBudget(JOBS, { budgetUsd: 0.4, mode: "estimate" });
    expect(summary(plan)).toEqual([
      ["j-000001", true, null],
      ["j-000002", true, null],
      ["j-000003", true, null],
      ["j-000004", false, "budget"],
      ["j-000005", false, "budget"],
    ]);
    expect(plan.estimated_cost_usd).toBe(0.333);
    expect(plan.decisions[1].warnings).toEqual(["no known price for openai/gpt-image-1.5 1024x1024: cost not estimated"]);
    expect(plan.warnings).toEqual([
      "1 job(s) without a known price (openai/gpt-image-1.5 1024x1024): not counted in the estimate",
      "2 job(s) skipped: the estimate would exceed the $0.4 budget",
    ]);
  });

  it("strict: unknown prices are skipped, an overrun halts new jobs", () => {
    const plan = planBudget(JOBS, { budgetUsd: 0.4, mode: "strict" });
    expect(summary(plan)).toEqual([
      ["j-000001", true, null],
      ["j-000002", false, "unknown_price"],
      ["j-000003", true, null],
      ["j-000004", false, "budget"],
      ["j-000005", false, "budget"],
    ]);
    const noBudget = planBudget(JOBS, { budgetUsd: null, mode: "strict" });
    expect(summary(noBudget).filter(([, run]) => !run)).toEqual([["j-000002", false, "unknown_price"]]);
  });

  it("off: everything runs, estimates still computed", () => {
    const plan = planBudget(JOBS, { budgetUsd: 0.01, mode: "off" });
    expect(plan.decisions.every((d) => d.run && d.skip_reason === null)).toBe(true);
    expect(plan.estimated_cost_usd).toBe(0.544);
    expect(plan.decisions[1].estimated_cost_usd).toBeNull();
  });

  it("a resumed run counts what was spent before", () => {
    const plan = planBudget(JOBS.slice(2), { budgetUsd: 0.4, mode: "estimate", alreadySpentUsd: 0.133 });
    expect(summary(plan)).toEqual([
      ["j-000003", true, null],
      ["j-000004", false, "budget"],
      ["j-000005", false, "budget"],
    ]);
    const more = planBudget(JOBS.slice(2), { budgetUsd: 1, mode: "estimate", alreadySpentUsd: 0.133 });
    expect(more.decisions.every((d) => d.run)).toBe(true);
  });

  it("while running: strict counts actual costs, estimate counts estimates", () => {
    const started = [{ estimated_cost_usd: 0.1, actual_cost_usd: 0.35 }];
    const next = { estimated_cost_usd: 0.1, actual_cost_usd: null };
    expect(mayStart(next, started, 0.4, "estimate")).toEqual({ run: true, skip_reason: null });
    expect(mayStart(next, started, 0.4, "strict")).toEqual({ run: false, skip_reason: "budget" });
    expect(mayStart(next, started, 0.4, "off")).toEqual({ run: true, skip_reason: null });
    expect(mayStart({ estimated_cost_usd: null, actual_cost_usd: null }, [], null, "strict")).toEqual({
      run: false,
      skip_reason: "unknown_price",
    });
  });
});
