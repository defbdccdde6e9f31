/**
 * The builder's plan, made in the browser from the two files as typed (lib/core/batch is pure, and
 * the server plans the same way): the prompts with the range filter, the matrix blocks, the
 * expanded combinations, the warnings and the plan's figures with the estimated cost. Every
 * problem is named with its file and line where it has one, so the editor can mark it there.
 */
import { planBudget } from "@/lib/core/batch/budget";
import { planSummary, type PlanSummary } from "@/lib/core/batch/dry-run";
import { MatrixFileError, parseMatrix, planJobs, type BudgetMode, type JobParams, type MatrixDefinition } from "@/lib/core/batch/matrix";
import { filterPromptRange, parsePromptSet, type BatchPrompt } from "@/lib/core/batch/prompts";
import { BATCH_FILE_NAME } from "@/lib/api/batches";

/** A file as the builder holds it: its name (the extension decides how it is read) and its text. */
export interface BatchInputFile {
  name: string;
  text: string;
}

/** A problem in one of the inputs, at its line (1-based) when known. */
export interface InputProblem {
  file: "prompts" | "matrix" | "range" | "limits";
  line: number | null;
  message: string;
}

/** The limits the person sets; a blank field falls back to the matrix's own `limits`, then the defaults. */
export interface LimitsInput {
  concurrency: string;
  providerConcurrency: string;
  budgetUsd: string;
  budgetMode: BudgetMode | "";
}

export interface ResolvedLimits {
  concurrency: number;
  providerConcurrency: Record<string, number>;
  budgetUsd: number | null;
  budgetMode: BudgetMode;
}

export interface BuiltPlan {
  prompts: BatchPrompt[];
  /** Prompts in the file, before the range filter. */
  promptTotal: number;
  matrix: MatrixDefinition | null;
  /** One matrix's parameter sets in run order (before prompts). */
  combinations: JobParams[];
  limits: ResolvedLimits | null;
  summary: PlanSummary | null;
  /** The matrix's warnings, and the budget's once there is a plan. */
  warnings: string[];
  problems: InputProblem[];
}

/** The spec's default global concurrency (`--concurrency`, default 3). */
export const DEFAULT_CONCURRENCY = 3;
/** The most calls at once a batch may ask for; the API checks the same bound. */
export const MAX_CONCURRENCY = 64;

/** The line an error message of the prompt reader names ("row 3" of a CSV counts the header as row 1). */
export function lineInMessage(message: string): number | null {
  const match = /\b(?:line|row) (\d+)\b/.exec(message);
  return match ? Number(match[1]) : null;
}

/** "openai=1,gemini=2" as the CLI's --provider-concurrency reads it; throws on a malformed pair. */
export function parseProviderConcurrency(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(",")) {
    const pair = part.trim();
    if (pair === "") continue;
    const match = /^([A-Za-z0-9_.-]+)\s*=\s*(\d{1,3})$/.exec(pair);
    const n = match ? Number(match[2]) : NaN;
    if (!match || n < 1 || n > MAX_CONCURRENCY) {
      throw new Error(`"${pair}" is not provider=N with N from 1 to ${MAX_CONCURRENCY}, e.g. openai=1,gemini=2`);
    }
    out[match[1]] = n;
  }
  return out;
}

/** The text of a provider concurrency map, as the field shows it. */
export function formatProviderConcurrency(map: Record<string, number> | undefined): string {
  return Object.entries(map ?? {})
    .map(([provider, n]) => `${provider}=${n}`)
    .join(",");
}

function resolveLimits(input: LimitsInput, matrix: MatrixDefinition, problems: InputProblem[]): ResolvedLimits | null {
  const fromMatrix = matrix.limits;
  let concurrency = fromMatrix.concurrency ?? DEFAULT_CONCURRENCY;
  if (input.concurrency.trim() !== "") {
    const n = Number(input.concurrency);
    if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
      problems.push({ file: "limits", line: null, message: `Concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.` });
      return null;
    }
    concurrency = n;
  }
  let providerConcurrency = fromMatrix.provider_concurrency ?? {};
  if (input.providerConcurrency.trim() !== "") {
    try {
      providerConcurrency = parseProviderConcurrency(input.providerConcurrency);
    } catch (caught) {
      problems.push({ file: "limits", line: null, message: `Provider concurrency: ${(caught as Error).message}.` });
      return null;
    }
  }
  let budgetUsd = fromMatrix.budget_usd ?? null;
  if (input.budgetUsd.trim() !== "") {
    const usd = Number(input.budgetUsd);
    if (!Number.isFinite(usd) || usd < 0 || usd > 1_000_000) {
      problems.push({ file: "limits", line: null, message: "Budget must be an amount in USD from 0 to 1,000,000, or blank for none." });
      return null;
    }
    budgetUsd = usd;
  }
  const budgetMode = input.budgetMode || fromMatrix.budget_mode || "estimate";
  return { concurrency, providerConcurrency, budgetUsd, budgetMode };
}

/**
 * Reads both files, applies the range ("3-10", blank for all) and the limits, and plans the jobs.
 * Never throws: what cannot be read is a problem in the answer, and what could be read is kept
 * (the prompts still show when the matrix has an error).
 */
export function buildPlan({
  prompts: promptsFile,
  matrix: matrixFile,
  range,
  limits: limitsInput,
}: {
  prompts: BatchInputFile | null;
  matrix: BatchInputFile | null;
  range: string;
  limits: LimitsInput;
}): BuiltPlan {
  const problems: InputProblem[] = [];
  for (const [file, input, extensions, kinds] of [
    ["prompts", promptsFile, /\.(txt|csv)$/i, ".txt or .csv"],
    ["matrix", matrixFile, /\.(ya?ml|json)$/i, ".yaml, .yml or .json"],
  ] as const) {
    if (!input) continue;
    if (!BATCH_FILE_NAME.test(input.name)) {
      problems.push({
        file,
        line: null,
        message: `"${input.name}" cannot be the ${file} file's name: use a plain file name (letters, digits, ".", "_", "-"), not run.json or receipt-*.`,
      });
    } else if (!extensions.test(input.name)) {
      problems.push({
        file,
        line: null,
        message: `"${input.name}": the ${file} file's name must end in ${kinds}, which says how it is read.`,
      });
    }
  }
  const built: BuiltPlan = {
    prompts: [],
    promptTotal: 0,
    matrix: null,
    combinations: [],
    limits: null,
    summary: null,
    warnings: [],
    problems,
  };
  let promptsOk = false;
  if (promptsFile && promptsFile.text.trim() !== "") {
    try {
      const all = parsePromptSet(promptsFile.text, promptsFile.name);
      built.promptTotal = all.length;
      if (all.length === 0) {
        problems.push({
          file: "prompts",
          line: null,
          message: `${promptsFile.name}: no prompts (blank lines and # comments are skipped).`,
        });
      } else if (range.trim() === "") {
        built.prompts = all;
        promptsOk = true;
      } else {
        try {
          built.prompts = filterPromptRange(all, range);
          if (built.prompts.length === 0) {
            problems.push({
              file: "range",
              line: null,
              message: `The range ${range.trim()} starts after the last of ${all.length} prompts.`,
            });
          } else promptsOk = true;
        } catch (caught) {
          problems.push({ file: "range", line: null, message: (caught as Error).message.replace("--prompt-range", "Range") });
        }
      }
    } catch (caught) {
      const message = (caught as Error).message;
      problems.push({ file: "prompts", line: lineInMessage(message), message });
    }
  }
  if (matrixFile && matrixFile.text.trim() !== "") {
    try {
      built.matrix = parseMatrix(matrixFile.text, matrixFile.name);
    } catch (caught) {
      const line = caught instanceof MatrixFileError ? caught.line : null;
      problems.push({ file: "matrix", line, message: (caught as Error).message });
    }
  }
  if (!built.matrix) return built;
  built.limits = resolveLimits(limitsInput, built.matrix, problems);
  try {
    // Planned even without prompts (one stand-in) so the combinations and warnings show early.
    const stand = promptsOk ? built.prompts : [{ id: "p-0001", prompt: "", metadata: {} }];
    const plan = planJobs(stand, built.matrix);
    built.combinations = plan.jobs.slice(0, plan.combinations).map((job) => job.params);
    built.warnings = plan.warnings;
    if (!promptsOk || !built.limits) return built;
    const budget = planBudget(plan.jobs, { budgetUsd: built.limits.budgetUsd, mode: built.limits.budgetMode });
    built.summary = planSummary({
      promptsFile: promptsFile!.name,
      matrixFile: matrixFile!.name,
      promptCount: built.prompts.length,
      matrix: built.matrix,
      plan,
      budget,
      budgetUsd: built.limits.budgetUsd,
      budgetMode: built.limits.budgetMode,
      concurrency: built.limits.concurrency,
      providerConcurrency: built.limits.providerConcurrency,
    });
    built.warnings = built.summary.warnings;
  } catch (caught) {
    problems.push({ file: "matrix", line: null, message: (caught as Error).message });
  }
  return built;
}

/** The first and last few prompts, as the builder previews them ("first/last few prompts"). */
export function promptPreview<T>(prompts: readonly T[], each = 3): { first: T[]; last: T[]; hidden: number } {
  if (prompts.length <= each * 2) return { first: [...prompts], last: [], hidden: 0 };
  return { first: prompts.slice(0, each), last: prompts.slice(-each), hidden: prompts.length - each * 2 };
}
