/**
 * The inputs of `parallaxr batch-run`, read and checked before anything is opened or written: the
 * prompt file, the matrix file, the sizes each provider can make, and the limits (flags first,
 * then the matrix's `limits`, then the defaults). Every problem is a usage error (exit 2) naming
 * the file, its line or YAML path, and what to do.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { planBudget, type BudgetPlan } from "@/lib/core/batch/budget";
import { formatDryRun, type PlanInputs } from "@/lib/core/batch/dry-run";
import {
  expandCombinations,
  MatrixFileError,
  MAX_MATRIX_BYTES,
  parseMatrix,
  planJobs,
  type BudgetMode,
  type JobParams,
  type MatrixDefinition,
  type Plan,
} from "@/lib/core/batch/matrix";
import { filterPromptRange, parsePromptSet, type BatchPrompt } from "@/lib/core/batch/prompts";
import { imageJobProblem } from "@/lib/providers/image/job-check";
import { CliError, exitCodes } from "../cli-error";
import type { BatchRunOptions } from "./options";

/** Largest prompt file read: 10,000 prompts of 1,500 characters fit. */
export const MAX_PROMPT_FILE_BYTES = 16 * 1024 * 1024;
/** The global concurrency when neither a flag nor the matrix sets one (the spec's default). */
export const DEFAULT_CONCURRENCY = 3;

const PROMPT_EXTENSIONS = [".txt", ".csv"];
const MATRIX_EXTENSIONS = [".yaml", ".yml", ".json"];

/** One input file as read: where it is, its name and its text. */
export interface InputFile {
  path: string;
  name: string;
  text: string;
}

/** The limits a run goes by, each from a flag, else the matrix's `limits`, else the default. */
export interface ResolvedLimits {
  concurrency: number;
  providerConcurrency: Record<string, number>;
  budgetUsd: number | null;
  budgetMode: BudgetMode;
}

/** Everything a run or a dry run needs, read and checked. */
export interface BatchInputs {
  prompts: InputFile;
  matrixFile: InputFile;
  /** The prompts after --prompt-range. */
  promptSet: BatchPrompt[];
  matrix: MatrixDefinition;
  plan: Plan;
  budget: BudgetPlan;
  limits: ResolvedLimits;
}

const usage = (message: string) => new CliError(message, exitCodes.usage);

function readInput(file: string, what: string, extensions: string[], maxBytes: number): InputFile {
  const extension = path.extname(file).toLowerCase();
  if (!extensions.includes(extension)) {
    throw usage(`${file}: a ${what} file ends in ${extensions.join(" or ")}; rename it or pass the right file.`);
  }
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw usage(`${file}: not a file; pass the ${what} file itself.`);
    size = stats.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw usage(
      `${file}: cannot read the ${what} file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the path.`,
    );
  }
  // Bounded before it is read: a wrong path to a large file costs nothing.
  if (size > maxBytes) throw usage(`${file}: ${size} bytes, more than the ${maxBytes} a ${what} file may have; split the run.`);
  return { path: file, name: path.basename(file), text: readFileSync(file, "utf8") };
}

/** The prompts of a file, after --prompt-range; an empty set is an error. */
export function readPromptSet(file: InputFile, promptRange: string | undefined): BatchPrompt[] {
  let prompts: BatchPrompt[];
  try {
    prompts = parsePromptSet(file.text, file.path);
  } catch (error) {
    throw usage((error as Error).message);
  }
  if (prompts.length === 0) {
    throw usage(
      file.name.toLowerCase().endsWith(".csv")
        ? `${file.path}: no prompts (the "prompt" column is empty in every row): add one row per prompt.`
        : `${file.path}: no prompts (the file is empty, or every line is blank or a # comment): write one prompt a line.`,
    );
  }
  if (promptRange === undefined) return prompts;
  let picked: BatchPrompt[];
  try {
    picked = filterPromptRange(prompts, promptRange);
  } catch (error) {
    throw usage(`${(error as Error).message}.`);
  }
  if (picked.length === 0) {
    throw usage(
      `--prompt-range ${promptRange}: ${file.path} has only ${prompts.length} prompt(s); start the range at ${prompts.length} or lower.`,
    );
  }
  return picked;
}

export function readMatrix(file: InputFile): MatrixDefinition {
  try {
    return parseMatrix(file.text, file.path);
  } catch (error) {
    if (error instanceof MatrixFileError) throw usage(error.message);
    throw error;
  }
}

/** The matrix file's line of a YAML path (the deepest part of it the file has), or null. */
function lineOf(text: string, yamlPath: (string | number)[]): number | null {
  const counter = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ""), { version: "1.2", lineCounter: counter });
  for (let depth = yamlPath.length; depth >= 0; depth--) {
    const node = doc.getIn(yamlPath.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === "object" && node.range) return counter.linePos(node.range[0]).line;
  }
  return null;
}

const asList = (value: unknown) => (Array.isArray(value) ? value : [value]);

/** Where in the matrix file a combination's size (or n) was written: the block or include entry that makes it, else defaults. */
function sourceOf(matrix: MatrixDefinition, params: JobParams, key: "size" | "n"): (string | number)[] {
  const has = (entry: Record<string, unknown>, k: string, value: unknown) => entry[k] !== undefined && asList(entry[k]).includes(value);
  const blockIndex = matrix.matrix.findIndex(
    (block) => has(block, "provider", params.provider) && has(block, "model", params.model) && has(block, key, params[key]),
  );
  if (blockIndex >= 0) return ["matrix", blockIndex, key];
  const includeIndex = matrix.include.findIndex(
    (entry) => entry.provider === params.provider && entry.model === params.model && entry[key] === params[key],
  );
  if (includeIndex >= 0) return ["include", includeIndex, key];
  return ["defaults", key];
}

/** A size (or n) a provider cannot make, found before any call: the matrix file, line, YAML path and the provider's rule. */
export function checkProviderSizes(file: InputFile, matrix: MatrixDefinition): void {
  for (const params of expandCombinations(matrix).combinations) {
    const size =
      typeof params.size === "string" ? params.size : params.size === undefined || params.size === null ? null : String(params.size);
    const problem = imageJobProblem(params.provider, { size, n: params.n, providerOptions: params.provider_options });
    if (problem === null) continue;
    const key =
      imageJobProblem(params.provider, { size: null, n: params.n, providerOptions: params.provider_options }) === null ? "size" : "n";
    const where = sourceOf(matrix, params, key);
    const line = lineOf(file.text, where);
    const yamlPath = where.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
    throw usage(
      `${file.path}${line === null ? "" : `, line ${line}`}, at ${yamlPath}: ${problem.replace(/\.$/, "")} ` +
        `(${params.provider}/${params.model}): change the value or move it to a block of a provider that makes it.`,
    );
  }
}

/** Flags first, then the matrix's limits, then the defaults (concurrency 3, mode estimate, no budget). */
export function resolveLimits(
  options: Pick<BatchRunOptions, "concurrency" | "providerConcurrency" | "budgetUsd" | "budgetMode">,
  matrix: MatrixDefinition,
): ResolvedLimits {
  return {
    concurrency: options.concurrency ?? matrix.limits.concurrency ?? DEFAULT_CONCURRENCY,
    providerConcurrency: options.providerConcurrency ?? matrix.limits.provider_concurrency ?? {},
    budgetUsd: options.budgetUsd ?? matrix.limits.budget_usd ?? null,
    budgetMode: options.budgetMode ?? matrix.limits.budget_mode ?? "estimate",
  };
}

/** Reads both files, checks them and plans the jobs and the budget; throws a usage CliError on any input problem. */
export function readBatchInputs(
  options: Pick<
    BatchRunOptions,
    "promptsPath" | "matrixPath" | "promptRange" | "concurrency" | "providerConcurrency" | "budgetUsd" | "budgetMode"
  >,
): BatchInputs {
  const prompts = readInput(options.promptsPath, "prompt", PROMPT_EXTENSIONS, MAX_PROMPT_FILE_BYTES);
  const matrixFile = readInput(options.matrixPath, "matrix", MATRIX_EXTENSIONS, MAX_MATRIX_BYTES);
  const promptSet = readPromptSet(prompts, options.promptRange);
  const matrix = readMatrix(matrixFile);
  let plan: Plan;
  try {
    plan = planJobs(promptSet, matrix);
  } catch (error) {
    throw usage(`${matrixFile.path}: ${(error as Error).message}.`);
  }
  checkProviderSizes(matrixFile, matrix);
  const limits = resolveLimits(options, matrix);
  const budget = planBudget(plan.jobs, { budgetUsd: limits.budgetUsd, mode: limits.budgetMode });
  return { prompts, matrixFile, promptSet, matrix, plan, budget, limits };
}

/** The dry run's text (spec: `--dry-run` validates the inputs and shows the plan and estimated cost). */
export function dryRunText(inputs: BatchInputs): string {
  const planInputs: PlanInputs = {
    promptsFile: inputs.prompts.path,
    matrixFile: inputs.matrixFile.path,
    promptCount: inputs.promptSet.length,
    matrix: inputs.matrix,
    plan: inputs.plan,
    budget: inputs.budget,
    budgetUsd: inputs.limits.budgetUsd,
    budgetMode: inputs.limits.budgetMode,
    concurrency: inputs.limits.concurrency,
    providerConcurrency: inputs.limits.providerConcurrency,
  };
  return formatDryRun(planInputs);
}
