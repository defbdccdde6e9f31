/**
 * The options of one image batch run (`parallaxr batch-run`, spec: image-batch-runs.md), as the
 * headless flags give them and as the interactive builder produces them. The spec's parity rule
 * (every interactive action maps to CLI flags) is `headlessCommandLine`: the builder prints it at
 * the end, and the flags it writes parse back to the same options.
 */
import type { BudgetMode } from "@/lib/core/batch/matrix";

/** One batch run's choices: files, limits (unset ones fall back to the matrix's `limits`), mode. */
export interface BatchRunOptions {
  /** The prompt file (.txt or .csv). */
  promptsPath: string;
  /** The matrix file (.yaml, .yml or .json). */
  matrixPath: string;
  /** The run folder; its base name is the run id. */
  out: string;
  /** Global concurrency; unset: the matrix's limits.concurrency, else 3. */
  concurrency?: number;
  /** Per-provider caps, e.g. { openai: 1, gemini: 2 }. */
  providerConcurrency?: Record<string, number>;
  /** Total budget in USD. */
  budgetUsd?: number;
  budgetMode?: BudgetMode;
  /** `3-10`: the 3rd to the 10th prompt, 1-based and inclusive. */
  promptRange?: string;
  /** Print the plan and write nothing. */
  dryRun: boolean;
  /** Continue the run in `out` from its run.json (the inputs are the copies in the folder). */
  resume: boolean;
}

/** The command the line starts with; `param-forge batch-run` runs the same. */
export const BATCH_RUN_COMMAND = "parallaxr batch-run";

/** Characters a POSIX shell reads as part of a plain word. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument quoted for a POSIX shell (sh, bash, zsh): as is when plain, else in single quotes. */
export function shellQuote(argument: string): string {
  if (argument !== "" && PLAIN_WORD.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** `openai=1,gemini=2` from { openai: 1, gemini: 2 }, in the object's order. */
export function formatProviderConcurrency(caps: Record<string, number>): string {
  return Object.entries(caps)
    .map(([provider, n]) => `${provider}=${n}`)
    .join(",");
}

/**
 * { openai: 1, gemini: 2 } from `openai=1,gemini=2`; throws a message naming the flag, the bad
 * part and the form it wants.
 */
export function parseProviderConcurrency(text: string): Record<string, number> {
  const caps: Record<string, number> = {};
  for (const part of text.split(",")) {
    const m = /^\s*([A-Za-z0-9][A-Za-z0-9_.-]*)\s*=\s*(\d{1,2})\s*$/.exec(part);
    const n = m ? Number(m[2]) : NaN;
    if (!m || n < 1 || n > 64) {
      throw new Error(`--provider-concurrency "${text}": "${part}" is not provider=N with N from 1 to 64 (e.g. openai=1,gemini=2)`);
    }
    if (m[1] in caps) throw new Error(`--provider-concurrency "${text}": ${m[1]} is given twice`);
    caps[m[1]] = n;
  }
  return caps;
}

/** The arguments after `batch-run` that make these options, in the spec's flag order. */
export function headlessArguments(options: BatchRunOptions): string[] {
  if (options.resume) {
    // A resumed run reads its inputs and limits from the run folder; --out is all it takes.
    return ["--out", options.out, "--resume", ...(options.dryRun ? ["--dry-run"] : [])];
  }
  const args = ["--prompts", options.promptsPath, "--matrix", options.matrixPath, "--out", options.out];
  if (options.concurrency !== undefined) args.push("--concurrency", String(options.concurrency));
  if (options.providerConcurrency && Object.keys(options.providerConcurrency).length > 0) {
    args.push("--provider-concurrency", formatProviderConcurrency(options.providerConcurrency));
  }
  if (options.budgetUsd !== undefined) args.push("--budget", String(options.budgetUsd));
  if (options.budgetMode !== undefined) args.push("--budget-mode", options.budgetMode);
  if (options.promptRange !== undefined) args.push("--prompt-range", options.promptRange);
  if (options.dryRun) args.push("--dry-run");
  return args;
}

/**
 * The headless command line equivalent to these options (the spec's parity rule), quoted for a
 * POSIX shell, e.g. `parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/v1`.
 */
export function headlessCommandLine(options: BatchRunOptions, command: string = BATCH_RUN_COMMAND): string {
  return [command, ...headlessArguments(options).map(shellQuote)].join(" ");
}
