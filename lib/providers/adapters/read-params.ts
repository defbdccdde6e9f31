import { ProviderError } from "../provider-error";
import type { ModelParams } from "../types";

/** The column parameters adapters understand, named as in the AI SDK's call settings. */
export interface StandardParams {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  system?: string;
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
}

/** The name of one standard parameter, e.g. "maxTokens". */
export type StandardParamName = keyof StandardParams;

type Check = { test: (value: unknown) => boolean; expected: string };

const isFiniteNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isInteger = (value: unknown): value is number => Number.isInteger(value);

const checks: Record<StandardParamName, Check> = {
  temperature: { test: (value) => isFiniteNumber(value) && value >= 0, expected: "a number >= 0" },
  maxTokens: { test: (value) => isInteger(value) && (value as number) >= 1, expected: "a whole number >= 1" },
  // 0 and 1 included, for every provider: the vendors' APIs and the AI SDK document topP as 0 to 1,
  // and node-llama-cpp builds its top-p sampler for 0 <= topP <= 1 (0 keeps only the likeliest
  // token). The llama.cpp provider once refused 0 on its own; one rule now, tested for both.
  topP: { test: (value) => isFiniteNumber(value) && value >= 0 && value <= 1, expected: "a number from 0 to 1" },
  topK: { test: (value) => isInteger(value) && (value as number) >= 1, expected: "a whole number >= 1" },
  stopSequences: {
    test: (value) => Array.isArray(value) && value.every((item) => typeof item === "string"),
    expected: "a list of strings",
  },
  system: { test: (value) => typeof value === "string", expected: "a string" },
  seed: { test: isInteger, expected: "a whole number" },
  frequencyPenalty: { test: isFiniteNumber, expected: "a number" },
  presencePenalty: { test: isFiniteNumber, expected: "a number" },
};

/** Every parameter name any adapter understands. */
export const standardParamNames = Object.keys(checks) as StandardParamName[];

/**
 * Validates a column's params for one provider. A known parameter of the wrong type is a
 * bad_request naming it; one this provider cannot honour, or an unknown key, becomes a warning
 * and is not sent. null and undefined mean "not set".
 */
export function readParams(
  params: ModelParams,
  support: {
    provider: string;
    supported: readonly StandardParamName[];
    /** Why the provider leaves a parameter out, added to that parameter's warning. */
    unsupportedReasons?: Partial<Record<StandardParamName, string>>;
  },
): { values: StandardParams; warnings: string[] } {
  const values: StandardParams = {};
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (!Object.hasOwn(checks, key)) {
      warnings.push(`${support.provider} ignores the unknown parameter "${key}".`);
      continue;
    }
    const name = key as StandardParamName;
    const check = checks[name];
    if (!check.test(value)) {
      throw new ProviderError({
        code: "bad_request",
        message: `Parameter "${name}" must be ${check.expected}; got ${describeValue(value)}.`,
      });
    }
    if (!support.supported.includes(name)) {
      const reason = support.unsupportedReasons?.[name];
      warnings.push(`${support.provider} does not support the parameter "${name}"; it was not sent.${reason ? ` ${reason}` : ""}`);
      continue;
    }
    (values as Record<string, unknown>)[name] = value;
  }
  return { values, warnings };
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}
