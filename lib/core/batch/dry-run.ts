/**
 * The plan of an image batch run as `--dry-run` prints it (spec: image-batch-runs.md, "Review
 * Plan" and `--dry-run`): prompt count, matrix size, jobs, images, estimated cost, a provider and
 * model breakdown, and the warnings. `planSummary` is the same plan as data, for the API.
 */
import type { BudgetPlan } from "@/lib/core/batch/budget";
import type { BudgetMode, MatrixDefinition, Plan } from "@/lib/core/batch/matrix";

export interface PlanInputs {
  promptsFile: string;
  matrixFile: string;
  promptCount: number;
  matrix: MatrixDefinition;
  plan: Plan;
  budget: BudgetPlan;
  budgetUsd: number | null;
  budgetMode: BudgetMode;
  concurrency: number;
  providerConcurrency: Record<string, number>;
}

export interface BreakdownRow {
  provider: string;
  model: string;
  jobs: number;
  images: number;
  /** Known estimates of these jobs; null when none of them has a known price. */
  estimated_cost_usd: number | null;
  unknown_price_jobs: number;
}

export interface PlanSummary {
  prompt_count: number;
  matrix_blocks: number;
  include_entries: number;
  combinations: number;
  jobs: number;
  images: number;
  jobs_to_run: number;
  skipped_for_budget: number;
  skipped_unknown_price: number;
  estimated_cost_usd: number;
  breakdown: BreakdownRow[];
  warnings: string[];
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

export function planSummary(input: PlanInputs): PlanSummary {
  const { plan, budget } = input;
  const rows = new Map<string, BreakdownRow>();
  plan.jobs.forEach((job, i) => {
    const key = `${job.params.provider}\u0000${job.params.model}`;
    const row = rows.get(key) ?? {
      provider: job.params.provider,
      model: job.params.model,
      jobs: 0,
      images: 0,
      estimated_cost_usd: null,
      unknown_price_jobs: 0,
    };
    row.jobs++;
    row.images += job.params.n;
    const estimate = budget.decisions[i]?.estimated_cost_usd ?? null;
    if (estimate === null) row.unknown_price_jobs++;
    else row.estimated_cost_usd = round((row.estimated_cost_usd ?? 0) + estimate);
    rows.set(key, row);
  });
  const skipped = (reason: string) => budget.decisions.filter((d) => d.skip_reason === reason).length;
  return {
    prompt_count: input.promptCount,
    matrix_blocks: input.matrix.matrix.length,
    include_entries: input.matrix.include.length,
    combinations: plan.combinations,
    jobs: plan.jobs.length,
    images: plan.jobs.reduce((n, j) => n + j.params.n, 0),
    jobs_to_run: budget.decisions.filter((d) => d.run).length,
    skipped_for_budget: skipped("budget"),
    skipped_unknown_price: skipped("unknown_price"),
    estimated_cost_usd: budget.estimated_cost_usd,
    breakdown: [...rows.values()],
    warnings: [...plan.warnings, ...budget.warnings],
  };
}

export const usd = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 4 : 2)}`;

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c < 1 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** The plan as text: one fact a line, then the breakdown table and the warnings. */
export function formatDryRun(input: PlanInputs): string {
  const s = planSummary(input);
  const budget =
    input.budgetMode === "off"
      ? "budget mode off"
      : input.budgetUsd === null
        ? `no budget, mode ${input.budgetMode}`
        : `budget ${usd(input.budgetUsd)}, mode ${input.budgetMode}`;
  const perProvider = Object.entries(input.providerConcurrency)
    .map(([p, n]) => `${p}=${n}`)
    .join(",");
  const lines = [
    "Plan (dry run: nothing was written and no image was requested)",
    `Prompts:         ${s.prompt_count} (${input.promptsFile})`,
    `Matrix:          ${s.matrix_blocks} block(s), ${s.include_entries} include(s), ${s.combinations} combination(s) (${input.matrixFile})`,
    `Jobs:            ${s.jobs}`,
    `Images:          ${s.images}`,
    `Estimated cost:  ${usd(s.estimated_cost_usd)} (${budget})`,
    `Jobs to run:     ${s.jobs_to_run}` +
      (s.skipped_for_budget || s.skipped_unknown_price
        ? ` (skipped: ${s.skipped_for_budget} over budget, ${s.skipped_unknown_price} unknown price)`
        : ""),
    `Concurrency:     ${input.concurrency}${perProvider ? ` (${perProvider})` : ""}`,
    "",
    ...table(
      ["Provider / model", "Jobs", "Images", "Est. cost"],
      s.breakdown.map((r) => [
        `${r.provider} / ${r.model}`,
        String(r.jobs),
        String(r.images),
        r.estimated_cost_usd === null ? "unknown" : usd(r.estimated_cost_usd) + (r.unknown_price_jobs ? "+?" : ""),
      ]),
    ),
    "",
    s.warnings.length === 0 ? "Warnings: none" : "Warnings:",
    ...s.warnings.map((w) => `  - ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}
