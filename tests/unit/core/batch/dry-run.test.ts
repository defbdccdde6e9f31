import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planBudget } from "@/lib/core/batch/budget";
import { formatDryRun, planSummary } from "@/lib/core/batch/dry-run";
import { parseMatrix, planJobs } from "@/lib/core/batch/matrix";

const MATRIX = readFileSync(join(__dirname, "fixtures/spec-matrix.yaml"), "utf8");

function inputs(budgetUsd: number | null, budgetMode: "estimate" | "strict" | "off", matrixText = MATRIX) {
  const matrix = parseMatrix(matrixText, "matrix.yaml");
  const prompts = [
    { id: "p-0001", prompt: "ramen", metadata: {} },
    { id: "p-0002", prompt: "sushi", metadata: {} },
  ];
  const plan = planJobs(prompts, matrix);
  const budget = planBudget(plan.jobs, { budgetUsd, mode: budgetMode });
  return {
    promptsFile: "prompts.txt",
    matrixFile: "matrix.yaml",
    promptCount: 2,
    matrix,
    plan,
    budget,
    budgetUsd,
    budgetMode,
    concurrency: 3,
    providerConcurrency: { openai: 1, gemini: 2 },
  };
}

describe("batch --dry-run plan", () => {
  it("prints prompt count, matrix size, jobs, images, cost, the breakdown and warnings", () => {
    expect(formatDryRun(inputs(10, "estimate"))).toBe(
      [
        "Plan (dry run: nothing was written and no image was requested)",
        "Prompts:         2 (prompts.txt)",
        "Matrix:          2 block(s), 1 include(s), 14 combination(s) (matrix.yaml)",
        "Jobs:            28",
        "Images:          28",
        "Estimated cost:  $1.94 (budget $10.00, mode estimate)",
        "Jobs to run:     28",
        "Concurrency:     3 (openai=1,gemini=2)",
        "",
        "Provider / model                 Jobs  Images  Est. cost",
        "openai / gpt-image-1.5             12      12      $1.37",
        "openai / gpt-image-1-mini          12      12      $0.37",
        "gemini / gemini-2.5-flash-image     2       2      $0.08",
        "flux / flux-2-flex                  2       2      $0.12",
        "",
        "Warnings: none",
        "",
      ].join("\n"),
    );
  });

  it("counts skipped jobs and carries the budget's warnings", () => {
    const summary = planSummary(inputs(1, "estimate"));
    expect(summary.jobs_to_run).toBeLessThan(28);
    expect(summary.skipped_for_budget).toBe(28 - summary.jobs_to_run);
    expect(summary.estimated_cost_usd).toBeLessThanOrEqual(1);
    const text = formatDryRun(inputs(1, "estimate"));
    expect(text).toContain(`Jobs to run:     ${summary.jobs_to_run} (skipped: ${summary.skipped_for_budget} over budget, 0 unknown price)`);
    expect(text).toContain(`  - ${summary.skipped_for_budget} job(s) skipped: the estimate would exceed the $1 budget`);
  });

  it("shows unknown prices and provider option warnings", () => {
    const text = formatDryRun(
      inputs(null, "strict", "version: 1\nmatrix:\n  - { provider: openai, model: gpt-image-9, provider_options: { qualty: [high] } }\n"),
    );
    expect(text).toContain("Estimated cost:  $0.00 (no budget, mode strict)");
    expect(text).toContain("openai / gpt-image-9     2       2    unknown");
    expect(text).toContain("  - provider_options.qualty is not an option openai is known to take: passed through as written");
    expect(text).toContain("  - 2 job(s) without a known price (openai/gpt-image-9): skipped in strict mode");
    expect(text).toContain("Jobs to run:     0 (skipped: 0 over budget, 2 unknown price)");
  });
});
