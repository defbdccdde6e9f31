import { cacheKey, hashText } from "@/lib/core/cache-key";
import { EVAL_DEFAULTS } from "@/lib/core/eval/config";
import { scoreLocalMetric } from "@/lib/core/eval/metrics";
import { MOCK_PROVIDER } from "@/lib/core/eval/model-route";
import { judgeResult } from "@/lib/core/eval/pass-rule";
import { renderTemplate } from "@/lib/core/template";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { MatrixInputRow, MatrixMetrics } from "@/lib/db/matrix/matrix-plan";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import { callModel } from "./call-model";
import type { ExecuteCellDeps } from "./execute-cell";
import { gradeOutput, type GraderResult } from "./grade-output";
import { judgeMetrics, judgeOutput } from "./judge-output";
import type { PreparedCell } from "./prepare-cell";

/** The input a claimed matrix cell's row holds (create-matrix.ts stored it), and its prompt version's rendered prompt. */
function matrixCell(cell: ClaimedCell) {
  const row = cell.variables as unknown as MatrixInputRow;
  const rendered = row.rendered?.[cell.variant] ?? null;
  // The mock model takes no system text and would warn of it; every vendor takes it.
  const params = cell.provider === MOCK_PROVIDER || !rendered?.system ? { ...cell.params } : { ...cell.params, system: rendered.system };
  return { row, rendered, params };
}

/**
 * A matrix cell as the engine sends it: the prompt create-matrix.ts rendered for this prompt
 * version and input (every placeholder filled, or the matrix was refused), and a cache key over
 * the provider, model, parameters (the version's system text among them) and that prompt.
 */
export function prepareMatrixCell(settings: RunSettings, cell: ClaimedCell): PreparedCell {
  const { row, rendered, params } = matrixCell(cell);
  const input = rendered?.input ?? "";
  return {
    cell,
    input,
    missing: [],
    variables: { input_id: row.id ?? "" },
    inputHash: hashText(JSON.stringify({ system: rendered?.system ?? null, input })),
    cacheKey:
      settings.cache && rendered ? cacheKey({ provider: cell.provider, model: cell.model, params, input, trial: cell.trial }) : null,
  };
}

/**
 * Executes one eval of a matrix (specs/matrix-comparisons.md): the rendered prompt sent (with the
 * version's system text), or the cached answer; output, tokens, cost and duration kept. The spec's
 * rule "log error, save error metadata, continue with remaining evals": a failed call is an error
 * in its cell with its message, after the engine's retries of a retryable one, and the batch goes
 * on. A model without a price has a null cost (unknown, never $0).
 */
export async function executeMatrixCell(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  prepared: PreparedCell,
  hit: {
    outputRaw: string;
    tokensIn: number | null;
    tokensOut: number | null;
    tokensEstimated: boolean;
    latencyMs: number | null;
    finishReason: string | null;
  } | null,
): Promise<CellResult> {
  const { cell } = prepared;
  const { rendered, params } = matrixCell(cell);
  const base = { id: cell.id, runId: cell.runId, inputHash: prepared.inputHash, provider: cell.provider, model: cell.model };
  if (!rendered) {
    return { ...base, status: "error", errorCode: "bad_request", errorMessage: "This eval's prompt version is not in the matrix." };
  }
  if (hit && !cell.bypassCache) {
    // A hit costs nothing now; its original tokens and duration stay for comparison.
    return {
      ...base,
      ...(await gradeMatrixCell(deps, settings, cell, { input: rendered.input, output: hit.outputRaw })),
      status: "ok",
      outputRaw: hit.outputRaw,
      tokensIn: hit.tokensIn,
      tokensOut: hit.tokensOut,
      tokensEstimated: hit.tokensEstimated,
      latencyMs: hit.latencyMs,
      costUsd: 0,
      finishReason: hit.finishReason,
      cached: true,
    };
  }
  if (cell.attempts > settings.maxAttempts) {
    // Claimed again after its worker vanished one time too many (lease expiries count as attempts).
    return { ...base, status: "error", errorCode: "server", errorMessage: `Gave up after ${settings.maxAttempts} attempts.` };
  }

  const call = await callModel(deps, settings, { cell, prompt: rendered.input, params, variables: prepared.variables });
  if (!call.ok) {
    const { error, latencyMs } = call;
    if (call.retryDelayMs !== null) {
      return { ...base, status: "queued", retryDelayMs: call.retryDelayMs, latencyMs, errorCode: error.code, errorMessage: error.message };
    }
    // No tokens: the provider counted none, and a failed eval is not an unpriced one.
    return { ...base, status: "error", latencyMs, errorCode: error.code, errorMessage: error.message };
  }
  const { answer } = call;
  const warnings = [...answer.warnings];
  return {
    ...base,
    ...(await gradeMatrixCell(deps, settings, cell, { input: rendered.input, output: answer.text })),
    status: warnings.length > 0 ? "warning" : "ok",
    outputRaw: answer.text,
    tokensIn: answer.tokensIn,
    tokensOut: answer.tokensOut,
    tokensEstimated: answer.tokensEstimated,
    latencyMs: call.latencyMs,
    costUsd: call.costUsd,
    finishReason: answer.finishReason,
    warnings,
    cacheKey: prepared.cacheKey,
    cacheTtlSeconds: deps.cacheTtlSeconds,
  };
}

/** The grader's part of a cell result, and the metrics' scores. */
type Graded = GraderResult & Pick<CellResult, "metricScores">;

/**
 * Grades one answer with the matrix's grader, when it has one: the grader prompt filled with the
 * answer as {{output}} and the input as {{input}} (also {{transcript}}) and {{input_id}}, sent to
 * the grader's model or else the eval's own, its grade read from 0 to 1 (or pass / fail). A
 * grader that fails or answers without a grade is recorded on the cell; the answer, already paid
 * for, is never asked for again. Its tokens and cost are the cell's grader figures, so they count
 * in every total and in the budget.
 */
async function gradeMatrixCell(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  cell: ClaimedCell,
  { input, output }: { input: string; output: string },
): Promise<Graded> {
  const row = cell.variables as unknown as MatrixInputRow;
  if (row.metrics) return scoreMatrixMetrics(deps, settings, cell, row.metrics, { input, output });
  if (!settings.graderText) return {};
  const target = settings.graderModel ?? { provider: cell.provider, model: cell.model };
  const variables = { output, input: row.text ?? "", transcript: row.text ?? "", input_id: row.id ?? "" };
  return gradeOutput(deps, settings, {
    target,
    prompt: renderTemplate(settings.graderText, variables).text,
    params: {},
    variables: { input_id: variables.input_id, output },
  });
}

/**
 * Scores one answer by the matrix's metrics as an eval cell is scored (specs/eval-config.md):
 * response_length here, each llm_judge by a call to its judge (judgeOutput: its own model, else
 * the eval's), then the pass rule with the eval spec's default threshold. The judges' answers,
 * tokens and cost are the cell's grader figures; a judge that fails or gives no score leaves its
 * metric unscored (so the output does not pass) and says why, and the grader status is "error".
 */
async function scoreMatrixMetrics(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  cell: ClaimedCell,
  metrics: MatrixMetrics,
  graded: { input: string; output: string },
): Promise<Graded> {
  const judged = await judgeOutput(deps, settings, {
    metrics: judgeMetrics(metrics.configs),
    judges: metrics.judges,
    cell,
    graded,
    label: metrics.configs.length > 1,
  });
  const scores: Record<string, number> = {};
  for (const metric of metrics.configs) {
    if (metric.type !== "llm_judge") scores[metric.name] = scoreLocalMetric(metric, graded.output, NO_EXPECTED_OUTPUT);
    else if (judged.scores[metric.name] !== undefined) scores[metric.name] = judged.scores[metric.name];
  }
  const verdict = judgeResult({ metrics: scores, error: null }, metrics.configs, EVAL_DEFAULTS.evaluation_threshold);
  return {
    metricScores: { scores, passed: verdict.passed, failing: verdict.failing },
    ...(judged.grader.graderStatus !== undefined ? { ...judged.grader, graderStatus: judged.errors.length === 0 ? "ok" : "error" } : {}),
  };
}

/** A matrix's inputs have no expected output: only the metrics that need none are allowed (lib/api/matrix.ts). */
const NO_EXPECTED_OUTPUT = { expected_contains: [], expected_not_contains: [], expected_output: null };
