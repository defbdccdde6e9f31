import type { CreateEvalInput, EvalDetail, EvalSummary } from "@/lib/api/evals";
import { hashText } from "@/lib/core/cache-key";
import { summarizeEvalRun, type EvalResult, type EvalRun } from "@/lib/core/eval/eval-run";
import { metricThresholds } from "@/lib/core/eval/pass-rule";
import { compareEvalRuns } from "@/lib/core/eval/stats/compare-eval-runs";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import type { EvalPlan } from "@/lib/db/evals/eval-plan";
import { getEvalPlan } from "@/lib/db/evals/get-eval-plan";
import { getEvalSummary } from "@/lib/db/evals/get-eval-summary";
import { listEvalCells, type EvalCell } from "@/lib/db/evals/list-eval-cells";
import { createEval as createEvalRun } from "@/lib/engine/create-eval";
import { InvalidInputError, NotFoundError } from "@/lib/engine/errors";
import type { RunLimits } from "@/lib/engine/run-limits";
import { reportCharts } from "@/lib/formats/eval-exports/charts/report-charts";
import { COMPARISON_FILE_NAME, comparisonToMarkdown, needsComparison } from "@/lib/formats/eval-exports/comparison-markdown";
import { evalRunToCsv } from "@/lib/formats/eval-exports/eval-run-csv";
import { evalRunToHtml } from "@/lib/formats/eval-exports/eval-run-html";
import { evalRunToJson } from "@/lib/formats/eval-exports/eval-run-json";
import { evalRunsToJunit } from "@/lib/formats/eval-exports/eval-run-junit";
import { evalRunToMarkdown } from "@/lib/formats/eval-exports/eval-run-markdown";
import { evalExportFileName, type EvalExportFormat } from "@/lib/formats/eval-exports/export-file-name";

/** Creates an eval run of userId's from its config and prompt files. */
export async function createEval(
  deps: { db: Database; limits?: RunLimits },
  { userId, input }: { userId: string; input: CreateEvalInput },
): Promise<{ eval: EvalSummary }> {
  return { eval: await createEvalRun(deps, { userId, input }) };
}

/** One eval run of userId's: its summary and an EvalRun per prompt x model, each with the results finished so far. */
export async function getEval({ db }: { db: Database }, { userId, evalId }: { userId: string; evalId: string }): Promise<EvalDetail> {
  return asUser(db, userId, async (tx) => {
    const summary = await getEvalSummary(tx, { id: evalId });
    const stored = await getEvalPlan(tx, { runId: evalId });
    if (!summary || !stored) throw new NotFoundError(`Eval ${evalId} not found.`);
    const cells = await listEvalCells(tx, { runId: evalId });
    return { eval: summary, runs: buildEvalRuns(evalId, stored, cells) };
  });
}

/** A file an eval run is exported as. */
export interface EvalFile {
  filename: string;
  text: string;
  contentType: string;
}

const CONTENT_TYPES: Record<EvalExportFormat, string> = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  junit: "application/xml; charset=utf-8",
};

/**
 * One export of an eval run, as the spec names and writes it: JSON, CSV, Markdown or HTML of one
 * EvalRun (run, its run_id, required when the eval made several), or JUnit XML of every EvalRun
 * (or of run alone). Written from the stored cells, so the same run always gives the same file.
 */
export async function evalExport(
  deps: { db: Database },
  { userId, evalId, format, run = null }: { userId: string; evalId: string; format: EvalExportFormat; run?: string | null },
): Promise<EvalFile> {
  const { runs } = await getEval(deps, { userId, evalId });
  const chosen = run === null ? null : runs.find((candidate) => candidate.run_id === run);
  if (run !== null && !chosen) {
    throw new NotFoundError(
      `Eval ${evalId} has no EvalRun ${run}; its runs are ${runs.map((candidate) => candidate.run_id).join(", ")}.`,
      "run",
    );
  }
  const at = new Date(runs[0]?.started_at ?? Date.now());
  if (format === "junit") {
    const covered = chosen ? [chosen] : runs;
    const name = chosen ?? {
      prompt_name: covered.length === 1 ? covered[0].prompt_name : "eval",
      run_id: evalId.replaceAll("-", "").slice(0, 8),
    };
    return { filename: evalExportFileName(name, format, at), text: evalRunsToJunit(covered), contentType: CONTENT_TYPES.junit };
  }
  const one = chosen ?? (runs.length === 1 ? runs[0] : null);
  if (!one) {
    throw new InvalidInputError(
      `This eval made ${runs.length} EvalRuns (one per prompt x model); name one with ?run=: ${runs.map((candidate) => `${candidate.run_id} (${candidate.prompt_name} on ${candidate.model})`).join(", ")}.`,
      "run",
    );
  }
  const text =
    format === "json"
      ? evalRunToJson(one)
      : format === "csv"
        ? evalRunToCsv(one)
        : format === "markdown"
          ? evalRunToMarkdown(one)
          : // The charts show every EvalRun of the eval, so one run's report shows where it stands.
            evalRunToHtml(one, { charts: reportCharts(runs) });
  return { filename: evalExportFileName(one, format, at), text, contentType: CONTENT_TYPES[format] };
}

/**
 * comparison.md of an eval that made more than one EvalRun: the spec's tables, then each run
 * compared with the first (the config's first prompt on its first model) on the test cases both
 * ran, with the paired intervals of lib/core/eval/stats.
 */
export async function evalComparison(deps: { db: Database }, { userId, evalId }: { userId: string; evalId: string }): Promise<EvalFile> {
  const { runs } = await getEval(deps, { userId, evalId });
  if (!needsComparison(runs)) {
    throw new InvalidInputError(
      `This eval made ${runs.length} EvalRun; ${COMPARISON_FILE_NAME} compares two or more (two prompts, or one prompt on two models).`,
    );
  }
  const [baseline, ...candidates] = runs;
  const comparisons = candidates.map((candidate) => compareEvalRuns(baseline, candidate));
  return {
    filename: COMPARISON_FILE_NAME,
    text: comparisonToMarkdown(runs, comparisons, new Date(baseline.started_at)),
    contentType: CONTENT_TYPES.markdown,
  };
}

/** The spec's 8-hex run_id of one prompt x model of an eval run: the same each time it is read. */
export function evalRunId(evalId: string, variant: number, column: number): string {
  return hashText(`${evalId}/${variant}/${column}`).slice(0, 8);
}

/** The EvalRuns of an eval run's cells: one per prompt x model, in config order, of the results finished so far. */
export function buildEvalRuns(
  evalId: string,
  stored: { plan: EvalPlan; createdAt: string; finishedAt: string | null },
  cells: EvalCell[],
): EvalRun[] {
  const { plan } = stored;
  const thresholds = metricThresholds(plan.metrics);
  const runs: EvalRun[] = [];
  plan.prompts.forEach((prompt, variant) => {
    plan.models.forEach((model, column) => {
      const own = cells.filter((cell) => cell.variant === variant && cell.columnIndex === column);
      const results = own.filter((cell) => cell.status !== "queued" && cell.status !== "running").map((cell) => toResult(cell, prompt));
      const summary = summarizeEvalRun({ results });
      runs.push({
        run_id: evalRunId(evalId, variant, column),
        prompt_name: prompt.name,
        model,
        config: {
          model,
          max_tokens: plan.max_tokens,
          temperature: plan.temperature,
          evaluation_threshold: plan.evaluation_threshold,
          ...(Object.keys(thresholds).length > 0 ? { metric_thresholds: thresholds } : {}),
        },
        started_at: stored.createdAt,
        completed_at: results.length === own.length ? stored.finishedAt : null,
        results,
        pass_rate: summary.pass_rate,
        avg_latency_ms: summary.avg_latency_ms,
        cost_usd: summary.cost_usd,
      });
    });
  });
  return runs;
}

function toResult(cell: EvalCell, prompt: EvalPlan["prompts"][number]): EvalResult {
  const failed = cell.status === "error" || cell.status === "cancelled" || cell.status === "skipped" || cell.status === "malformed";
  const error = failed
    ? (cell.errorMessage ?? (cell.status === "cancelled" ? "Cancelled before it ran" : cell.status === "skipped" ? "Skipped" : "Failed"))
    : null;
  const cost = cell.costUsd === null && cell.graderCostUsd === null ? null : (cell.costUsd ?? 0) + (cell.graderCostUsd ?? 0);
  return {
    test_case: cell.testCase,
    prompt_name: prompt.name,
    trial: cell.trial + 1,
    system_prompt: prompt.system ?? "",
    input_text: cell.rendered && "input" in cell.rendered ? cell.rendered.input : "",
    output: cell.outputRaw ?? "",
    metrics: cell.metricScores?.scores ?? {},
    passed: error === null && (cell.metricScores?.passed ?? false),
    latency_ms: cell.latencyMs ?? 0,
    tokens_in: cell.tokensIn ?? 0,
    tokens_out: cell.tokensOut ?? 0,
    cost_usd: cost,
    error,
    judge_reasoning: cell.graderOutputRaw,
  };
}
