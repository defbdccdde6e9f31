import { detectExpectedOutput, validateOutput } from "@/lib/core/expected-output";
import { parseGrade } from "@/lib/core/parse-grade";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import type { ModelParams } from "@/lib/providers/types";
import { asProviderError } from "./as-provider-error";
import { answerCost } from "./call-model";
import type { ExecuteCellDeps } from "./execute-cell";

/** The grader's part of a cell result. */
export type GraderResult = Pick<
  CellResult,
  | "graderStatus"
  | "graderOutputRaw"
  | "graderOutputParsed"
  | "grade"
  | "graderTokensIn"
  | "graderTokensOut"
  | "graderCostUsd"
  | "graderError"
>;

/**
 * One call of the run's grader prompt (settings.graderText), already filled by the caller with
 * the answer as {{output}}, to target: its grade read from 0 to 1 (or pass / fail) from the part
 * the grader prompt asks for (`<response>` tags, JSON). The workbench and matrix cells grade
 * this way. A grader that fails, or answers with no readable grade, is recorded on the cell and
 * never re-runs the generator, which is already paid for; its tokens and cost are the cell's
 * grader figures, so they count in every total and in the budget.
 */
export async function gradeOutput(
  deps: ExecuteCellDeps,
  settings: RunSettings,
  request: {
    target: { provider: string; model: string };
    prompt: string;
    params: ModelParams;
    variables: Record<string, string>;
  },
): Promise<GraderResult> {
  const { target } = request;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  try {
    const provider = await deps.providers.resolve({ provider: target.provider, userId: settings.userId });
    const answer = await provider.generate({
      model: target.model,
      prompt: request.prompt,
      params: request.params,
      variables: request.variables,
      purpose: "grade",
      signal: AbortSignal.any([timeout, deps.stopSignal]),
    });
    const usage = {
      graderOutputRaw: answer.text,
      graderTokensIn: answer.tokensIn,
      graderTokensOut: answer.tokensOut,
      graderCostUsd: answerCost(settings, target, answer),
    };
    const validation = validateOutput(answer.text, detectExpectedOutput(settings.graderText ?? ""));
    if (!validation.ok) return { ...usage, graderStatus: "malformed", graderError: validation.reason };
    const grade = parseGrade(validation.parsed);
    if (grade == null) {
      return {
        ...usage,
        graderStatus: "malformed",
        graderOutputParsed: validation.parsed,
        graderError: "No grade from 0 to 1 (or pass / fail) in the grader's answer.",
      };
    }
    return { ...usage, graderStatus: "ok", graderOutputParsed: validation.parsed, grade };
  } catch (caught) {
    const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
    return { graderStatus: "error", graderError: `${error.code}: ${error.message}` };
  }
}
