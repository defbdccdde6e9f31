import { judgePrompt, mockJudgeAnswer, parseJudgeAnswer, type MetricConfig } from "@/lib/core/eval/metrics";
import { MOCK_PROVIDER } from "@/lib/core/eval/model-route";
import { estimateTokens } from "@/lib/core/tokens";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import { asProviderError } from "./as-provider-error";
import { answerCost } from "./call-model";
import type { ExecuteCellDeps } from "./execute-cell";

/** An llm_judge metric of an eval config (specs/eval-config.md). */
export type JudgeMetric = Extract<MetricConfig, { type: "llm_judge" }>;

// A judge explains in a few sentences and ends with its score line; this is room enough.
const JUDGE_MAX_TOKENS = 1024;

/** What the judges said of one output. */
export interface Judged {
  /** Score from 0 to 1 by metric name; a metric whose judge failed or gave no score is absent. */
  scores: Record<string, number>;
  /** Why a metric has no score, one line each, in the metrics' order. */
  errors: string[];
  /**
   * The cell's grader figures: the judges' answers (their reasoning), tokens and cost summed.
   * graderStatus is "error" when a judge's call failed, else "malformed" when an answer had no
   * score. Empty when there are no judges.
   */
  grader: Partial<CellResult>;
}

/**
 * Asks each llm_judge metric's judge for its score of output, one call per metric, as eval and
 * matrix cells score (specs/eval-config.md): the metric's own judge model (judges by name), else
 * the cell's; the answer must end in `SCORE: <0 to 1>`. A mock judge answers with mockJudgeAnswer,
 * without a key or a call, its tokens estimated. label puts `[metric]` before each answer kept.
 */
export async function judgeOutput(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  request: {
    metrics: readonly JudgeMetric[];
    judges: Record<string, { provider: string; model: string }>;
    cell: { provider: string; model: string };
    graded: { input: string; output: string };
    label: boolean;
  },
): Promise<Judged> {
  const { metrics, graded } = request;
  const scores: Record<string, number> = {};
  const errors: string[] = [];
  if (metrics.length === 0) return { scores, errors, grader: {} };
  const answers: string[] = [];
  let tokensIn = 0;
  let tokensOut = 0;
  let cost: number | null = 0;
  let status: "ok" | "error" | "malformed" = "ok";
  for (const metric of metrics) {
    const target = request.judges[metric.name] ?? { provider: request.cell.provider, model: request.cell.model };
    const prompt = judgePrompt({ criteria: metric.criteria, ...graded });
    let text: string;
    if (target.provider === MOCK_PROVIDER) {
      text = mockJudgeAnswer({ model: target.model, criteria: metric.criteria, ...graded });
      tokensIn += estimateTokens(prompt);
      tokensOut += estimateTokens(text);
    } else {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      try {
        const provider = await deps.providers.resolve({ provider: target.provider, userId: settings.userId });
        const answer = await provider.generate({
          model: target.model,
          prompt,
          params: { temperature: 0, maxTokens: JUDGE_MAX_TOKENS },
          variables: {},
          purpose: "grade",
          signal: AbortSignal.any([timeout, deps.stopSignal]),
        });
        text = answer.text;
        tokensIn += answer.tokensIn ?? 0;
        tokensOut += answer.tokensOut ?? 0;
        const spent = answerCost(settings, target, answer);
        cost = cost === null || spent === null ? null : cost + spent;
      } catch (caught) {
        const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
        errors.push(`${metric.name}: the judge ${target.provider}/${target.model} failed (${error.code}: ${error.message})`);
        status = "error";
        continue;
      }
    }
    answers.push(request.label ? `[${metric.name}]\n${text}` : text);
    const verdict = parseJudgeAnswer(text);
    if (verdict.ok) scores[metric.name] = verdict.score;
    else {
      errors.push(`${metric.name}: ${verdict.error}`);
      if (status === "ok") status = "malformed";
    }
  }
  return {
    scores,
    errors,
    grader: {
      graderStatus: status,
      graderOutputRaw: answers.join("\n\n"),
      graderTokensIn: tokensIn,
      graderTokensOut: tokensOut,
      graderCostUsd: cost,
      graderError: errors.length > 0 ? errors.join("\n") : null,
    },
  };
}

/** The llm_judge metrics among metrics, in their order. */
export function judgeMetrics(metrics: readonly MetricConfig[]): JudgeMetric[] {
  return metrics.filter((metric): metric is JudgeMetric => metric.type === "llm_judge");
}
