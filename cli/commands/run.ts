import path from "node:path";
import { Option, type Command } from "commander";
import { createExperimentSchema, type CreateExperimentInput, type ExperimentPlan } from "@/lib/api/experiments";
import { CliError, exitCodes } from "../cli-error";
import { chooseDataTarget } from "../data-target";
import { readDotenv } from "../read-dotenv";
import { describeCredentialSource } from "../experiments/dotenv-credentials";
import { providerFactories } from "@/lib/providers/provider-factories";
import { readInputFile } from "../experiments/read-input-files";
import { checkResumable, readExistingOutput } from "../experiments/output-file";
import { planOnTarget, runOnTarget, type RunReporter } from "../experiments/run-on-target";
import { ExperimentFileError } from "@/lib/formats/experiment-file-error";
import { preloadProviderSdks } from "@/lib/providers/adapters/preload-sdks";
import { readExperimentsCsv, type ExperimentsTable } from "@/lib/formats/read-experiments-csv";

/** The options of `parallaxr run` as commander hands them over. */
interface RunOptions {
  prompt: string;
  experiments: string;
  output: string;
  context?: string[];
  verbose?: boolean;
  timeout: string;
  concurrency: string;
  retries: string;
  resume?: boolean;
  dryRun?: boolean;
  progress?: boolean;
  cache?: boolean;
  param: string[];
  server?: string;
  token?: string;
}

/** `parallaxr run`: the experiments runner of specs/experiments-cli.md on the engine. */
export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("run an experiments CSV: one call per row, each result appended to the output CSV as it finishes")
    .requiredOption("-p, --prompt <file>", "primary prompt file (required)")
    .requiredOption("-e, --experiments <file>", "experiments CSV: columns provider and model, every other column a {{variable}} (required)")
    .requiredOption("-o, --output <file>", "output CSV; appended to, never overwritten (required)")
    .option("-c, --context <files...>", "additional context files (multiple allowed)")
    .argument("[files...]", "more context files, after the --context ones")
    .option("-v, --verbose", "log each experiment's start and completion to stderr")
    .option("--timeout <seconds>", "request timeout in seconds", "300")
    .addOption(new Option("--concurrency <n>", "calls at once (output rows stay in input order)").default("1"))
    .option("--retries <n>", "retries of a failed call (rate limits, timeouts, server errors)", "0")
    .option("--resume", "skip the rows already in the output file; a row finished before an interruption is never called again")
    .option("--dry-run", "print the rows, estimated input tokens and cost per model, then exit without calling")
    .option("--progress", "one progress line on stderr (on a terminal)")
    .option("--cache", "answer a row from the response cache when the same input was sent before")
    .option("--param <key=value>", "a model parameter for every row, e.g. --param temperature=0 --param maxTokens=256", collect, [])
    .option("--server <url>", "run on this server instead (its keys are used, not this directory's .env)")
    .option("--token <token>", "access token for --server (default: PARALLAXR_TOKEN)")
    .addHelpText(
      "after",
      `
Files: every file is sent wrapped as "## Document: {name}\\n\\n{content}\\n\\n---\\n\\n", the prompt
first, then the --context files, then the positional ones; {{variables}} are filled from each row.

Output: the experiments CSV's columns, then status (ok, warning, error), input_tokens,
context_window, output_tokens, output, error_message. Warnings and errors are also printed to
stderr as [WARNING] / [ERROR] lines.

Keys: OPENROUTER_API_KEY, OLLAMA_BASE_URL and every other key the app reads are taken from .env in
the current directory first, then from the keys saved in Parallaxr.

Where it runs: on this machine's data folder (the run shows in the app's history), through the
app's server when it is running; --server sends it to another server.

Exit codes: 0 every row was written (rows may still have status error: read the status column);
1 the run failed or was cancelled; 2 the command line or an input file is wrong (nothing was
sent); 3 the data folder is held by a process this command cannot reach; 130 interrupted (run
again with --resume to finish).

Example:
  parallaxr run -p prompt.txt -c context.txt -e experiments.csv -o results.csv --verbose`,
    )
    .action(async (files: string[], options: RunOptions) => {
      await runCommand(files, options);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function runCommand(positional: string[], options: RunOptions): Promise<void> {
  const verbose = Boolean(options.verbose);
  const info = (message: string) => {
    if (verbose) process.stderr.write(`[INFO] ${message}\n`);
  };
  const timeoutSeconds = numberOption("--timeout", options.timeout, { min: 0.001, max: 86_400 });
  const concurrency = numberOption("--concurrency", options.concurrency, { min: 1, max: 256, integer: true });
  const retries = numberOption("--retries", options.retries, { min: 0, max: 10, integer: true });
  const params = Object.fromEntries(options.param.map(parseParam));

  info(`Loading prompt from ${options.prompt}`);
  const prompt = readInputFile(options.prompt, "prompt");
  const contexts = [...(options.context ?? []), ...positional].map((file) => {
    info(`Loading context from ${file}`);
    return readInputFile(file, "context");
  });
  info(`Loading experiments from ${options.experiments}`);
  const experiments = readInputFile(options.experiments, "experiments");
  const table = readTable(experiments.text, options.experiments);

  const parsed = createExperimentSchema.safeParse({
    prompt,
    contexts,
    experiments,
    timeoutSeconds,
    concurrency,
    retries,
    cache: Boolean(options.cache),
    params,
    dryRun: Boolean(options.dryRun),
  });
  if (!parsed.success)
    throw new CliError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "), exitCodes.usage);
  const input: CreateExperimentInput = parsed.data;

  const existing = readExistingOutput(options.output, table.columns);
  const done = options.resume ? checkResumable(options.output, existing, table) : 0;
  if (options.resume && existing.rows > 0)
    info(`Resuming: ${existing.rows} of ${table.rows.length} experiments are in ${options.output} already`);

  const dotenv = readDotenv(path.resolve(".env"));
  const target = chooseDataTarget({ server: options.server, token: options.token });
  if (target.kind === "database") {
    if (!input.dryRun) preloadProviderSdks(table.rows.map((row) => row.provider));
    for (const provider of new Set(table.rows.map((row) => row.provider))) {
      const factory = providerFactories[provider];
      if (factory) info(`${provider}: using ${describeCredentialSource(dotenv, factory)}`);
    }
  }
  const reporter = consoleReporter({
    verbose,
    progress: Boolean(options.progress) && process.stderr.isTTY === true,
    total: table.rows.length,
  });

  if (input.dryRun) {
    process.stdout.write(formatPlan(await planOnTarget(target, input)));
    return;
  }
  if (done === table.rows.length) {
    info(`All experiments completed. Results written to ${options.output}`);
    return;
  }
  await runOnTarget(target, {
    input: { ...input, fromRow: done + 1 },
    table,
    dotenv,
    reporter,
    output: { file: options.output, existing },
    resume: Boolean(options.resume),
  });
  info(`All experiments completed. Results written to ${options.output}`);
}

/** Reads the experiments CSV here first, so a file error names file, line and column before anything is opened. */
function readTable(text: string, file: string): ExperimentsTable {
  try {
    const table = readExperimentsCsv(text, file);
    if (table.rows.length === 0) {
      throw new CliError(
        `${file}: the file has a header but no experiments. Add one line per experiment below the header.`,
        exitCodes.usage,
      );
    }
    return table;
  } catch (error) {
    if (error instanceof ExperimentFileError) throw new CliError(error.message, exitCodes.usage);
    throw error;
  }
}

function numberOption(flag: string, raw: string, { min, max, integer = false }: { min: number; max: number; integer?: boolean }): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new CliError(`${flag} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}; got "${raw}".`, exitCodes.usage);
  }
  return value;
}

/** `--param key=value`: numbers and true/false as such, anything else as text. */
function parseParam(raw: string): [string, string | number | boolean] {
  const equals = raw.indexOf("=");
  if (equals <= 0) throw new CliError(`--param takes key=value (e.g. --param temperature=0); got "${raw}".`, exitCodes.usage);
  const key = raw.slice(0, equals).trim();
  const text = raw.slice(equals + 1).trim();
  if (text === "true" || text === "false") return [key, text === "true"];
  const number = Number(text);
  return [key, text !== "" && Number.isFinite(number) ? number : text];
}

function formatPlan(plan: ExperimentPlan): string {
  const lines = [`${plan.rowCount} experiments`, "", "provider/model\trows\tinput tokens (est.)\tinput cost (est.)"];
  for (const model of plan.models) {
    const cost = model.estimatedCostUsd === null ? "unknown" : `$${model.estimatedCostUsd.toFixed(6)}`;
    lines.push(`${model.provider}/${model.model}\t${model.rows}\t${model.inputTokens}\t${cost}`);
  }
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join("\n")}\n`;
}

/** Reports to stderr: the spec's [INFO] lines with --verbose, [WARNING]/[ERROR] lines always, a progress line on a terminal. */
function consoleReporter({ verbose, progress, total }: { verbose: boolean; progress: boolean; total: number }): RunReporter {
  let progressShown = false;
  const clearProgress = () => {
    if (progressShown) process.stderr.write("\r\u001b[2K");
    progressShown = false;
  };
  const write = (line: string) => {
    clearProgress();
    process.stderr.write(`${line}\n`);
  };
  return {
    info: (message) => {
      if (verbose) write(`[INFO] ${message}`);
    },
    warning: (message) => write(`[WARNING] ${message}`),
    error: (message) => write(`[ERROR] ${message}`),
    started: (number, row) => {
      if (verbose) write(`[INFO] Starting experiment ${number}/${total}: ${row.provider}/${row.model}`);
    },
    completed: (number, status) => {
      if (verbose) write(`[INFO] Completed experiment ${number}/${total}: status=${status}`);
    },
    progress: (counts) => {
      if (!progress) return;
      const finished = counts.ok + counts.warning + counts.error;
      process.stderr.write(
        `\r\u001b[2K${finished}/${total} experiments: ${counts.ok} ok, ${counts.warning} warning, ${counts.error} error`,
      );
      progressShown = true;
    },
    done: clearProgress,
  };
}
