import { estimateTokens } from "@/lib/core/tokens";
import type { TextGenerateResult } from "../types";

/** Usage from the provider when it gave some; our chars/4 estimate (flagged) only when it gave none. */
export function toResult(
  answer: { text: string; usage: { inputTokens?: number; outputTokens?: number } | undefined; finishReason: string | null },
  prompt: string,
  system: string | undefined,
  warnings: string[],
): TextGenerateResult {
  const reportedIn = answer.usage?.inputTokens;
  const reportedOut = answer.usage?.outputTokens;
  return {
    text: answer.text,
    tokensIn: reportedIn ?? estimateTokens(system ? `${system}\n${prompt}` : prompt),
    tokensOut: reportedOut ?? estimateTokens(answer.text),
    tokensEstimated: reportedIn === undefined || reportedOut === undefined,
    finishReason: answer.finishReason,
    warnings,
  };
}
