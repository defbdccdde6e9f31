import path from "node:path";
import { createInterface } from "node:readline/promises";
import { strFromU8 } from "fflate";
import type { Command } from "commander";
import { createMatrixSchema, type CreateMatrixInput, type CreateMatrixRequest, type MatrixPlanResponse } from "@/lib/api/matrix";
import { CONFIRMATION_THRESHOLD, confirmationQuestion, type EstimateTotals } from "@/lib/core/matrix/plan-matrix";
import { modelsRequiredMessage, selectSubset, type SubsetFlag } from "@/lib/core/matrix/select-subset";
import { InvalidInputError, NotFoundError, TooLargeError } from "@/lib/engine/errors";
import { planLines } from "@/lib/formats/matrix/plan-lines";
import { runFileName } from "@/lib/formats/matrix/run-file";
import { allFailedLine, runSummaryLines } from "@/lib/formats/matrix/run-summary-lines";
import type { BatchSummaryDocument } from "@/lib/formats/matrix/summary-json";
import { providerFactories } from "@/lib/providers/provider-factories";
import { CliError, exitCodes } from "../cli-error";
import { chooseDataTarget } from "../data-target";
import { writeBatchFolder, writeRunFiles } from "../matrix/batch-folder";
import { followMatrix } from "../matrix/follow-matrix";
import { openMatrixSource, type MatrixSource } from "../matrix/matrix-source";
import { consoleReporter } from "../matrix/matrix-reporter";
import { readGraderFile, readMetricsFile } from "../matrix/read-grading-files";
import { DEFAULT_DATA_DIR, readDataDir, type MatrixDataDir } from "../matrix/read-data-dir";
import { readDotenv } from "../read-dotenv";

/** The options of `parallaxr matrix` as commander hands them over. */
interface MatrixOptions {
  prompts?: string;
  models?: string;
  inputs?: string;
  transcripts?: string;
  promptVersion?: string;
  prompt_version?: string;
  model?: string;
  input?: string;
  transcript_id?: string;
  runMatrix?: boolean;
  groq_api_key?: string;
  verbose?: boolean;
  dataDir: string;
  yes?: boolean;
  concurrency: string;
  budget?: string;
  cache: boolean;
  comparisons: boolean;
  grader?: string;
  graderModel?: string;
  metrics?: string;
  resume?: string;
  server?: string;
  token?: string;
}

/** A prompt version saved in the app: `name@vN`. */
const SAVED_VERSION = /^.+@v\d+$/;

const EXIT_CODES = `
Exit codes: 0 the batch ran and its files were written (some evals may have failed: the summary
says which); 1 every eval failed ("0/12 evals succeeded. Check batch summary for errors"), the
batch was cancelled or paused elsewhere, the question above 100 evals was answered no, a server
refused, or single mode's eval failed; 2 the command line, the data folder, a prompt, input,
models.txt, --grader or --metrics file is wrong, or more than 100 evals were asked for with no
terminal to answer the question and no --yes (nothing was sent); 3 the data folder of the
database is held by a process this command cannot reach; 130 interrupted (Ctrl-C: the batch is
paused and --resume finishes it).`;

const HELP = `
Data folder (--data-dir, default data/evals relative to the current directory):
  prompts/      one file per prompt version, the file name the version: v1.txt or v1.md
                with {{input}}, v3.yaml a prompt of the eval spec with {input}
  inputs/       one .txt or .md file per input, the file name its id (transcripts/ is read too);
                its text fills {{input}} and {{transcript}}, its id {{input_id}}
  models.txt    every model, one per line (without it, --models is required)
A prompt saved in the app is named name@vN in --prompts or --prompt-version.

Models: the spec's Groq short names (llama-3.3-70b, mixtral, mixtral-8x7b, llama-3.1-8b) through
the alias table in docs/matrix.md; claude-* (Anthropic), gpt-* and o<digit>* (OpenAI), gemini-*,
provider/model for anything else, mock/<name> with no key. Keys: GROQ_API_KEY (or
--groq_api_key), ANTHROPIC_API_KEY, ... (and *_BASE_URL) from .env in the current directory
first, then the keys saved in Parallaxr.

Files, under the data folder, byte for byte what GET /api/v1/matrix/{id}/download.zip holds:
  runs/{run_id}.json                  each eval, written as it finishes
  batches/{batch_id}/summary.json     the batch's totals, runs and errors
  comparisons/{folder}/comparison.md  prompt and model comparisons (not with --no-comparisons)
  comparisons/index.md                every comparison in the folder, newest first
Single mode (--prompt-version, --model and --input) prints the output on stdout and writes its
run file. The plan, the progress and the summaries go to stderr; the paths written to stdout.
${EXIT_CODES}

Examples:
  parallaxr matrix
  parallaxr matrix --prompts v1,v2 --models llama-3.3-70b,mixtral --inputs tech-talk-01
  pidcast-eval --run-matrix --prompts v1,v2 --models llama-3.3-70b --transcripts tech-talk-01
  pidcast-eval --prompt_version v1 --model llama-3.3-70b --transcript_id tech-talk-01
  parallaxr matrix --models mock/echo,mock/fast --metrics metrics.yaml --yes
  parallaxr matrix --resume 20251227_143500_matrix`;

/** `parallaxr matrix`: prompt versions x models x inputs (specs/matrix-comparisons.md), and the spec's single mode. */
export function registerMatrixCommand(program: Command): void {
  program
    .command("matrix")
    .description("run every prompt version on every model for every input (specs/matrix-comparisons.md) and write the comparisons")
    .option("--prompts <versions>", "only these prompt versions, comma-separated (e.g. v1,v2,v3; name@vN for a saved prompt)")
    .option("--models <models>", "only these models, comma-separated (e.g. llama-3.3-70b,mixtral); required without models.txt")
    .option("--inputs <ids>", "only these inputs, comma-separated (e.g. tech-talk-01,interview-02)")
    .option("--transcripts <ids>", "the spec's name for --inputs")
    .option("--prompt-version <version>", "single mode: this prompt version (with --model and --input)")
    .option("--prompt_version <version>", "the spec's spelling of --prompt-version")
    .option("--model <model>", "single mode: this model")
    .option("--input <id>", "single mode: this input")
    .option("--transcript_id <id>", "the spec's name for --input")
    .option("--run-matrix", "run the matrix (the default without the single-mode flags; accepted as the spec writes it)")
    .option("--data-dir <dir>", "the data folder", DEFAULT_DATA_DIR)
    .option("-y, --yes", "answer yes to the question asked above 100 evals")
    .option("--concurrency <n>", "calls at once", "3")
    .option("--budget <usd>", "stop starting calls once this many US dollars are spent or in flight")
    .option("--no-cache", "call the model even when the same call was answered before")
    .option("--no-comparisons", "write no comparisons after the batch")
    .option("--grader <file>", "grade each output with this prompt ({{output}}, also {{input}}, {{input_id}})")
    .option("--grader-model <model>", "the model that grades (default: each eval's own)")
    .option("--metrics <file>", "score each output by these metrics (YAML list of response_length / llm_judge)")
    .option("--resume <batch_id>", "finish a batch that was interrupted, never running a finished eval again")
    .option("--groq_api_key <key>", "Groq's key (default: GROQ_API_KEY)")
    .option("-v, --verbose", "a line per finished eval")
    .option("--server <url>", "run on this server instead (its keys are used, not this directory's .env)")
    .option("--token <token>", "access token for --server (default: PARALLAXR_TOKEN)")
    .addHelpText("after", HELP)
    .action(async (options: MatrixOptions) => {
      await matrixCommand(options);
    });
}

/** The single-mode choice, from either spelling of each flag. */
function singleChoice(options: MatrixOptions): { promptVersion?: string; model?: string; input?: string } | null {
  const pair = (a: string | undefined, b: string | undefined, flags: string) => {
    if (a !== undefined && b !== undefined && a !== b) throw new CliError(`Give ${flags}, not both.`, exitCodes.usage);
    return a ?? b;
  };
  const promptVersion = pair(options.promptVersion, options.prompt_version, "--prompt-version or --prompt_version");
  const input = pair(options.input, options.transcript_id, "--input or --transcript_id");
  if (promptVersion === undefined && options.model === undefined && input === undefined) return null;
  return { promptVersion, model: options.model, input };
}

async function matrixCommand(options: MatrixOptions): Promise<void> {
  const concurrency = numberOption("--concurrency", options.concurrency, { min: 1, max: 256, integer: true });
  const budgetUsd = options.budget === undefined ? undefined : numberOption("--budget", options.budget, { min: 0, max: 1_000_000 });
  if (options.inputs !== undefined && options.transcripts !== undefined) {
    throw new CliError("Give --inputs or --transcripts (the spec's name for it), not both.", exitCodes.usage);
  }
  if (options.grader === undefined && options.graderModel !== undefined) {
    throw new CliError("--grader-model needs --grader <file>: the grader prompt it runs.", exitCodes.usage);
  }
  if (options.grader !== undefined && options.metrics !== undefined) {
    throw new CliError("Give --grader or --metrics, not both.", exitCodes.usage);
  }
  const single = singleChoice(options);
  const subsetFlags = (["prompts", "models", "inputs", "transcripts"] as const).filter((flag) => options[flag] !== undefined);
  if (options.resume !== undefined) {
    const others = [...subsetFlags.map((flag) => `--${flag}`), ...(single ? ["the single-mode flags"] : [])];
    if (options.grader) others.push("--grader");
    if (options.metrics) others.push("--metrics");
    if (others.length > 0) {
      throw new CliError(
        `--resume finishes a batch as it was planned; leave out ${others.join(", ")} (start a new batch for another choice).`,
        exitCodes.usage,
      );
    }
    if (!/^\d{8}_\d{6}_matrix$/.test(options.resume)) {
      throw new CliError(
        `--resume takes a batch id such as 20251227_143500_matrix (a folder name under ${path.join(options.dataDir, "batches")}); got "${options.resume}".`,
        exitCodes.usage,
      );
    }
  }
  if (single) {
    const missing = [
      single.promptVersion === undefined ? "--prompt-version" : null,
      single.model === undefined ? "--model" : null,
      single.input === undefined ? "--input" : null,
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new CliError(
        `Single mode needs --prompt-version, --model and --input (the spec's --prompt_version, --model, --transcript_id); ${missing.join(", ")} missing.`,
        exitCodes.usage,
      );
    }
    if (subsetFlags.length > 0 || options.runMatrix) {
      throw new CliError(
        `Give either the single-mode flags (--prompt-version, --model, --input) or the matrix's (--run-matrix, --prompts, --models, --inputs), not both.`,
        exitCodes.usage,
      );
    }
  }

  const reporter = consoleReporter({ terminal: process.stderr.isTTY === true, verbose: Boolean(options.verbose) });
  const dotenv = readDotenv(path.resolve(".env"));
  if (options.groq_api_key !== undefined) {
    if (options.groq_api_key.trim() === "") throw new CliError("--groq_api_key is empty: give Groq's key.", exitCodes.usage);
    dotenv.GROQ_API_KEY = options.groq_api_key;
  }

  if (options.resume !== undefined) {
    const target = chooseDataTarget({ server: options.server, token: options.token });
    const source = await openMatrixSource(target, { dotenv, concurrency, onWarning: reporter.warning });
    try {
      await resumeBatch(source, options.resume, { dataDir: options.dataDir, reporter });
    } finally {
      await source.close();
    }
    return;
  }

  // Prompt versions saved in the app (name@vN) need no prompts/ folder.
  const asked = single ? [single.promptVersion!] : options.prompts?.split(",").map((name) => name.trim());
  const promptsOptional = asked !== undefined && asked.length > 0 && asked.every((name) => SAVED_VERSION.test(name));
  const data = readDataDir(options.dataDir, { providerIds: Object.keys(providerFactories), promptsOptional });
  for (const warning of data.warnings) reporter.warning(warning);
  const input = matrixInput(data, options, single, { concurrency, budgetUsd });
  const target = chooseDataTarget({ server: options.server, token: options.token });
  const source = await openMatrixSource(target, { dotenv, concurrency, onWarning: reporter.warning });
  try {
    const plan = await planned(() => source.plan(input));
    for (const line of planLines({
      prompts: plan.prompts,
      models: plan.models,
      inputs: plan.inputs,
      perModel: plan.estimate.models,
      totals: estimateTotals(plan),
    }))
      reporter.line(line);
    if (plan.needsConfirmation && !(await confirmed(plan, Boolean(options.yes), reporter.line))) return;
    const created = await planned(() => source.create(input));
    reporter.info(`Batch ${created.batchId}: ${created.plan.evals} evals, ${concurrency} at a time`);
    if (single) await runSingle(source, created, { dataDir: options.dataDir, reporter });
    else await runBatch(source, created, { dataDir: options.dataDir, reporter });
  } finally {
    await source.close();
  }
}

/** The request, from the data folder and the flags: the subset chosen here (the spec's messages), only what runs sent. */
function matrixInput(
  data: MatrixDataDir,
  options: MatrixOptions,
  single: { promptVersion?: string; model?: string; input?: string } | null,
  { concurrency, budgetUsd }: { concurrency: number; budgetUsd: number | undefined },
): CreateMatrixInput {
  const saved = (name: string) => SAVED_VERSION.test(name);
  const choose = (flag: SubsetFlag, value: string | undefined, available: string[] | null, acceptOther?: (name: string) => boolean) => {
    const selected = selectSubset({ flag, value, available, acceptOther, missingListMessage: modelsRequiredMessage(data.modelsFile) });
    if (!selected.ok) throw new CliError(selected.error, exitCodes.usage);
    return selected.names;
  };
  const one = (flag: string, noun: string, value: string, available: readonly string[], acceptOther = false) => {
    if (!available.includes(value) && !acceptOther) {
      throw new CliError(`${flag}: unknown ${noun} "${value}"; available: ${available.join(", ") || "none"}`, exitCodes.usage);
    }
    return [value];
  };
  const versionNames = data.prompts.map((prompt) => prompt.version);
  const inputIds = data.inputs.map((item) => item.id);
  const versions = single
    ? one("--prompt-version", "prompt version", single.promptVersion!, versionNames, saved(single.promptVersion!))
    : choose("--prompts", options.prompts, versionNames, saved);
  const models = single ? [single.model!] : choose("--models", options.models, data.models, () => true);
  const inputs = single
    ? one("--input", "input", single.input!, inputIds)
    : options.transcripts !== undefined
      ? choose("--transcripts", options.transcripts, inputIds)
      : choose("--inputs", options.inputs, inputIds);

  const request: CreateMatrixRequest = {
    prompts: versions.map((version) => {
      const file = data.prompts.find((prompt) => prompt.version === version);
      return file ? { version, fileName: file.fileName, text: file.fileText } : { version };
    }),
    models,
    inputs: inputs.map((id) => ({ id, text: data.inputs.find((item) => item.id === id)!.text })),
    concurrency,
    budgetUsd,
    cache: options.cache,
    comparisons: single ? false : options.comparisons,
  };
  if (options.grader !== undefined) {
    request.grader = { text: readGraderFile(options.grader), ...(options.graderModel ? { model: options.graderModel } : {}) };
  }
  if (options.metrics !== undefined) request.metrics = readMetricsFile(options.metrics);
  const parsed = createMatrixSchema.safeParse(request);
  if (!parsed.success) {
    throw new CliError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "), exitCodes.usage);
  }
  return parsed.data;
}

/** A planning step whose refusal (a placeholder no input fills, a model nobody serves, a limit) is a usage error: nothing was sent. */
async function planned<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof InvalidInputError || error instanceof TooLargeError || error instanceof NotFoundError) {
      throw new CliError(error.message, exitCodes.usage);
    }
    throw error;
  }
}

/** The plan's totals as the plan's lines and question take them. */
function estimateTotals(plan: MatrixPlanResponse): EstimateTotals {
  const { inputTokens, outputTokens, costUsd, unpricedModels } = plan.estimate;
  return { evals: plan.evals, models: plan.models.length, inputTokens, outputTokens, costUsd, unpricedModels };
}

/**
 * The spec's question above 100 evals: --yes answers it; on a terminal the person does (y or yes
 * goes ahead); without either it is printed and the command stops (exit 2) before anything runs.
 */
async function confirmed(plan: MatrixPlanResponse, yes: boolean, line: (text: string) => void): Promise<boolean> {
  const question = confirmationQuestion(estimateTotals(plan));
  if (yes) {
    line(`${question} y (--yes)`);
    return true;
  }
  if (process.stdin.isTTY !== true) {
    line(question);
    throw new CliError(
      `More than ${CONFIRMATION_THRESHOLD} evals and no terminal to answer on: run again with --yes to go ahead, or choose fewer with --prompts, --models or --inputs.`,
      exitCodes.usage,
    );
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      // Ctrl-C at the question stops the command; Ctrl-D (the input ends) is no.
      prompt.once("SIGINT", () => reject(new CliError("Interrupted at the question: nothing was sent.", exitCodes.interrupted)));
      prompt.once("close", () => resolve(""));
      prompt.question(`${question} `).then(resolve, reject);
    });
    if (["y", "yes"].includes(answer.trim().toLowerCase())) return true;
  } finally {
    prompt.close();
  }
  throw new CliError("Not run: the answer was no. Nothing was sent.", exitCodes.failed);
}

type Reporter = ReturnType<typeof consoleReporter>;

/** Follows the batch to its end, writes its folder and prints the spec's post-run summary. */
async function runBatch(
  source: MatrixSource,
  matrix: { id: string; batchId: string },
  { dataDir, reporter }: { dataDir: string; reporter: Reporter },
): Promise<void> {
  const written = new Set<string>();
  const detail = await followMatrix(source, { matrixId: matrix.id, batchId: matrix.batchId, dataDir, reporter, writtenRuns: written });
  const files = await source.files(matrix.id);
  const paths = writeBatchFolder(dataDir, files, written, { withComparisons: true, onWarning: reporter.warning });
  const summaryEntry = `batches/${matrix.batchId}/summary.json`;
  const summary = JSON.parse(strFromU8(files[summaryEntry])) as BatchSummaryDocument;
  const lines = runSummaryLines(summary);
  for (const line of lines) reporter.line(line);
  if (paths.comparisons.length > 0) reporter.line(`Comparisons: ${paths.comparisons.length}, listed in ${paths.index}`);
  const out = [`${written.size} run files in ${path.join(dataDir, "runs")}`, paths.summary, paths.index].filter(Boolean);
  process.stdout.write(`${out.join("\n")}\n`);
  if (detail.matrix.status === "cancelled" || detail.matrix.status === "failed") {
    throw new CliError(`The batch ${matrix.batchId} was ${detail.matrix.status}; what finished is in ${paths.summary}.`);
  }
  if (summary.total_runs > 0 && summary.successful_runs === 0) {
    throw new CliError(`every eval failed (${allFailedLine(summary.total_runs)}); the errors are in ${paths.summary}.`);
  }
}

/** Single mode: the eval's output on stdout, its run file written; a failed eval is exit 1 with its error. */
async function runSingle(
  source: MatrixSource,
  matrix: { id: string; batchId: string },
  { dataDir, reporter }: { dataDir: string; reporter: Reporter },
): Promise<void> {
  const written = new Set<string>();
  const detail = await followMatrix(source, { matrixId: matrix.id, batchId: matrix.batchId, dataDir, reporter, writtenRuns: written });
  writeRunFiles(dataDir, await source.files(matrix.id), written);
  const item = detail.evals[0];
  const file = item?.runId ? path.join(dataDir, "runs", runFileName(item.runId)) : null;
  if (!item || item.error !== null) {
    throw new CliError(`The eval failed: ${item?.error ?? `the batch was ${detail.matrix.status}`}${file ? ` (saved in ${file})` : ""}.`);
  }
  reporter.line(`Saved ${file}`);
  const output = item.output ?? "";
  process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
}

/** --resume: the batch found by its id, resumed when paused, followed to its end and its folder written again. */
async function resumeBatch(
  source: MatrixSource,
  batchId: string,
  { dataDir, reporter }: { dataDir: string; reporter: Reporter },
): Promise<void> {
  const found = await source.findBatch(batchId);
  if (!found) {
    throw new CliError(
      `No matrix batch ${batchId} in ${source.describe}. A batch is resumed where it ran: the same PARALLAXR_DATA_DIR (or DATABASE_URL, or --server) as when it started.`,
    );
  }
  reporter.info(`Resuming batch ${batchId} (${found.status}): ${found.plan.evals} evals`);
  if (found.status === "paused") await source.change(found.id, "resume");
  await runBatch(source, found, { dataDir, reporter });
}

function numberOption(flag: string, raw: string, { min, max, integer = false }: { min: number; max: number; integer?: boolean }): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new CliError(`${flag} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}; got "${raw}".`, exitCodes.usage);
  }
  return value;
}
