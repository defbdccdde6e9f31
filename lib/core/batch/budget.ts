/**
 * Cost estimates and budget modes of an image batch run (spec: image-batch-runs.md, "Budget and
 * Costing"). A job's estimate is the reference price of one image (provider, model, size,
 * quality) times n. Modes:
 * - estimate (the default): jobs run in order until the next job's estimate would take the total
 *   over the budget; from there on every job is skipped for budget. An unknown price is a warning
 *   and the job runs, counted as 0.
 * - strict: a job without a known price is skipped; otherwise as estimate, the total counting a
 *   finished job's actual cost where its receipt gave one (an overrun halts new jobs).
 * - off: nothing is skipped; estimates are still computed where a price is known.
 */
import reference from "@/lib/core/batch/pricing-reference.json";
import type { BatchJob, BudgetMode, JobParams } from "@/lib/core/batch/matrix";

export interface PriceEntry {
  provider: string;
  model: string;
  size: string;
  quality: string;
  usd: number;
}

export interface PriceTable {
  date: string;
  prices: PriceEntry[];
}

export const PRICING_REFERENCE: PriceTable = reference;

/** The quality a job asks for: provider_options.quality, else a top-level quality, else none. */
function qualityOf(params: JobParams): string | null {
  const q = params.provider_options.quality ?? params.quality;
  return typeof q === "string" ? q : null;
}

/**
 * The price of one image, most specific entry first (an override table before the reference);
 * null when no entry matches.
 */
export function pricePerImage(params: JobParams, tables: readonly PriceTable[] = [PRICING_REFERENCE]): number | null {
  const size = typeof params.size === "string" ? params.size : null;
  const quality = qualityOf(params);
  for (const table of tables) {
    let best: { score: number; usd: number } | null = null;
    for (const p of table.prices) {
      if (p.provider !== params.provider) continue;
      const fits = (want: string, have: string | null) => want === "*" || want === have;
      if (!fits(p.model, params.model) || !fits(p.size, size) || !fits(p.quality, quality)) continue;
      const score = (p.model === "*" ? 0 : 4) + (p.size === "*" ? 0 : 2) + (p.quality === "*" ? 0 : 1);
      if (!best || score > best.score) best = { score, usd: p.usd };
    }
    if (best) return best.usd;
  }
  return null;
}

/** The estimate of a job in USD, null when its price is unknown. */
export function estimateJob(params: JobParams, tables?: readonly PriceTable[]): number | null {
  const price = pricePerImage(params, tables);
  const n = typeof params.n === "number" && params.n > 0 ? params.n : 1;
  return price === null ? null : roundUsd(price * n);
}

export const roundUsd = (usd: number) => Math.round(usd * 1e6) / 1e6;

export type SkipReason = "budget" | "unknown_price";

export interface BudgetDecision {
  job_id: string;
  estimated_cost_usd: number | null;
  run: boolean;
  skip_reason: SkipReason | null;
  warnings: string[];
}

export interface BudgetPlan {
  decisions: BudgetDecision[];
  /** Sum of the estimates of the jobs that will run (unknown prices as 0). */
  estimated_cost_usd: number;
  /** Sum of every job's known estimate, run or skipped. */
  estimated_total_usd: number;
  unknown_price_jobs: number;
  warnings: string[];
}

export interface BudgetOptions {
  budgetUsd: number | null;
  mode: BudgetMode;
  /** Spent before these jobs (a resumed run's finished jobs). */
  alreadySpentUsd?: number;
  tables?: readonly PriceTable[];
}

function describeJob(params: JobParams): string {
  const q = qualityOf(params);
  return `${params.provider}/${params.model}${typeof params.size === "string" ? ` ${params.size}` : ""}${q ? ` ${q}` : ""}`;
}

/** Which jobs run and which are skipped for budget or an unknown price, and why. */
export function planBudget(jobs: readonly BatchJob[], options: BudgetOptions): BudgetPlan {
  const { mode, budgetUsd } = options;
  let spent = options.alreadySpentUsd ?? 0;
  let stopped = false;
  let estimatedTotal = 0;
  let runTotal = 0;
  let unknown = 0;
  const unknownKinds = new Set<string>();
  const decisions = jobs.map((job): BudgetDecision => {
    const estimate = estimateJob(job.params, options.tables);
    const warnings: string[] = [];
    if (estimate === null) {
      unknown++;
      unknownKinds.add(describeJob(job.params));
      warnings.push(
        mode === "strict"
          ? `no known price for ${describeJob(job.params)}: skipped (budget mode strict)`
          : `no known price for ${describeJob(job.params)}: cost not estimated`,
      );
    } else estimatedTotal += estimate;
    const decide = (run: boolean, reason: SkipReason | null): BudgetDecision => {
      if (run) runTotal += estimate ?? 0;
      return { job_id: job.job_id, estimated_cost_usd: estimate, run, skip_reason: reason, warnings };
    };
    if (mode === "off") return decide(true, null);
    if (mode === "strict" && estimate === null) return decide(false, "unknown_price");
    if (budgetUsd === null) return decide(true, null);
    if (stopped || spent + (estimate ?? 0) > budgetUsd + 1e-9) {
      stopped = true;
      warnings.push(`skipped: the estimate would exceed the $${budgetUsd} budget`);
      return decide(false, "budget");
    }
    spent += estimate ?? 0;
    return decide(true, null);
  });
  const warnings: string[] = [];
  if (unknown > 0) {
    warnings.push(
      `${unknown} job(s) without a known price (${[...unknownKinds].join(", ")})` +
        (mode === "strict" ? ": skipped in strict mode" : ": not counted in the estimate"),
    );
  }
  const overBudget = decisions.filter((d) => d.skip_reason === "budget").length;
  if (overBudget > 0) warnings.push(`${overBudget} job(s) skipped: the estimate would exceed the $${budgetUsd} budget`);
  return {
    decisions,
    estimated_cost_usd: roundUsd(runTotal),
    estimated_total_usd: roundUsd(estimatedTotal),
    unknown_price_jobs: unknown,
    warnings,
  };
}

export interface LedgerEntry {
  estimated_cost_usd: number | null;
  actual_cost_usd: number | null;
}

/**
 * While running: whether the next job may start, given the jobs already started or finished.
 * estimate counts estimates; strict counts a finished job's actual cost where known.
 */
export function mayStart(
  next: LedgerEntry,
  started: readonly LedgerEntry[],
  budgetUsd: number | null,
  mode: BudgetMode,
): { run: boolean; skip_reason: SkipReason | null } {
  if (mode === "off") return { run: true, skip_reason: null };
  if (mode === "strict" && next.estimated_cost_usd === null) return { run: false, skip_reason: "unknown_price" };
  if (budgetUsd === null) return { run: true, skip_reason: null };
  const spent = started.reduce(
    (sum, e) => sum + ((mode === "strict" ? (e.actual_cost_usd ?? e.estimated_cost_usd) : e.estimated_cost_usd) ?? 0),
    0,
  );
  if (spent + (next.estimated_cost_usd ?? 0) > budgetUsd + 1e-9) return { run: false, skip_reason: "budget" };
  return { run: true, skip_reason: null };
}
