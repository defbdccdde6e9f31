import path from "node:path";
import { Option, type Command } from "commander";
import { createEvalSchema, type CreateEvalInput } from "@/lib/api/evals";
import type { EvalResult, EvalRun } from "@/lib/core/eval/eval-run";
import { checkEval, type CheckedEval } from "@/lib/engine/create-eval";
import { InvalidInputError, TooLargeError } from "@/lib/engine/errors";
import { CliError, exitCodes } from "../cli-error";
import { chooseDataTarget } from "../data-target";
import { openEvalSource } from "../evals/eval-source";
import { readEvalConfig, type EvalConfigFiles } from "../evals/read-eval-config";
import { describeComparison, overallPassRate, runEval, type EvalReporter } from "../evals/run-eval";
import { readDotenv } from "../read-dotenv";

/** The options of `parallaxr eval run` as commander hands them over. */
interface EvalRunOptions {
  output: string;
  format: "json" | "csv" | "markdown" | "html" | "junit" | "all";
  model?: string;
  verbose?: boolean;
  quiet?: boolean;
  concurrency: string;
  cache: boolean;
  tags?: string;
  baseline?: string;
  failUnder?: string;
  server?: string;
  token?: string;
}

/** The spec's four formats, which `-f all` (the default) writes. */
const ALL_FORMATS = ["json", "csv", "markdown", "html"] as const;

const EXIT_CODES = `
Exit codes: 0 the eval ran and its files were written (results may still fail: read them, or
use --fail-under); 1 the eval failed or was cancelled, a server refused, or the overall pass rate
is below --fail-under; 2 the command line, the config or a prompt file is wrong (nothing was
sent); 3 the data folder is held by a process this command cannot reach; 130 interrupted (the
eval is cancelled and nothing is exported).`;

const RUN_HELP = `
Config: YAML or JSON as specs/eval-config.md writes it (model or models, max_tokens, temperature,
evaluation_threshold, repeat, prompts, test_cases, metrics). Prompt files are read relative to the
config file's directory. Model names: claude-* (Anthropic), gpt-* and o<digit>* (OpenAI),
gemini-* (Gemini), provider/model for anything else, mock/<name> with no key.

Files: {prompt}_{run_id}_{timestamp}.{json,csv,md,html} per prompt x model in --output, the
JUnit XML of every run with -f junit, comparison.md when more than one prompt x model ran, and
baseline_{run_id}_comparison.md with --baseline. The paths are printed on stdout at the end;
progress and summaries go to stderr.

Keys: ANTHROPIC_API_KEY, OPENAI_API_KEY, ... (and *_BASE_URL) from .env in the current directory
first, then the keys saved in Parallaxr.
${EXIT_CODES}

Examples:
  parallaxr eval run configs/eval_summarizer.yaml
  parallaxr eval run configs/eval_summarizer.yaml -f json -m mock/echo --fail-under 0.9
  prompt-eval run configs/eval_summarizer.yaml -o my_results/ --tags basic,programming`;

/** `parallaxr eval`: the eval suites of specs/eval-config.md (`run`, `validate`; `parallaxr eval CONFIG` is `run`). */
export function registerEvalCommand(program: Command): void {
  const evalCommand = program
    .command("eval")
    .description("run an eval config (specs/eval-config.md): prompts x models x test cases, scored, exported")
    .usage("[run] <config> [options] | validate <config> [options]")
    .addHelpText("after", "\n`parallaxr eval <config>` is `parallaxr eval run <config>`; see parallaxr eval run --help.");
  // isDefault: `parallaxr eval CONFIG` (no command named) is `parallaxr eval run CONFIG`.
  addRunOptions(
    evalCommand
      .command("run", { isDefault: true })
      .description("run an eval config and write its exports")
      .argument("<config>", "the eval config (YAML or JSON)"),
  )
    .addHelpText("after", RUN_HELP)
    .action(async (config: string, options: EvalRunOptions) => {
      await evalRun(config, options);
    });
  evalCommand
    .command("validate")
    .description("read the config and every prompt file it names, then print the plan without calling a model")
    .argument("<config>", "the eval config (YAML or JSON)")
    .option("-m, --model <model>", "override the config's model (replaces model and models)")
    .option("--tags <tags>", "only the test cases with any of these tags, comma-separated")
    .addHelpText(
      "after",
      `
Prints the prompts, models, test cases, trials, cells, metrics and warnings on stdout.

Exit codes: 0 the config is valid; 2 it is not (every problem is printed with its file and line).`,
    )
    .action((config: string, options: { model?: string; tags?: string }) => {
      evalValidate(config, options);
    });
}

function addRunOptions(command: Command): Command {
  return command
    .option("-o, --output <dir>", "output directory", "results/")
    .addOption(
      new Option("-f, --format <format>", "export format (all: json, csv, markdown and html)")
        .choices(["json", "csv", "markdown", "html", "junit", "all"])
        .default("all"),
    )
    .option("-m, --model <model>", "override the config's model (replaces model and models)")
    .option("-v, --verbose", "one line per finished result")
    .option("-q, --quiet", "minimal output: only errors and the exported paths")
    .option("--concurrency <n>", "calls at once (provider limits still apply)", "4")
    .option("--no-cache", "call the model even when the same call was answered before")
    .option("--tags <tags>", "only the test cases with any of these tags, comma-separated (e.g. basic,programming)")
    .option("--baseline <run_id>", "compare each prompt x model with this earlier EvalRun (the 8 hex characters of its files' names)")
    .option("--fail-under <rate>", "exit 1 when the overall pass rate is lower (0 to 1, e.g. 0.9)")
    .option("--server <url>", "run on this server instead (its keys are used, not this directory's .env)")
    .option("--token <token>", "access token for --server (default: PARALLAXR_TOKEN)");
}

async function evalRun(configFile: string, options: EvalRunOptions): Promise<void> {
  if (options.verbose && options.quiet) throw new CliError("Give -v (--verbose) or -q (--quiet), not both.", exitCodes.usage);
  const concurrency = numberOption("--concurrency", options.concurrency, { min: 1, max: 256, integer: true });
  const failUnder = options.failUnder === undefined ? null : numberOption("--fail-under", options.failUnder, { min: 0, max: 1 });
  const baseline = options.baseline ?? null;
  if (baseline !== null && !/^[0-9a-f]{8}$/.test(baseline)) {
    throw new CliError(
      `--baseline takes an EvalRun's run_id, 8 hex characters (as in summarizer_v1_a1b2c3d4_20260101_120000.json); got "${baseline}".`,
      exitCodes.usage,
    );
  }
  const read = readEvalConfig(configFile, { model: options.model });
  const input = evalInput(read, { model: options.model, tags: options.tags, concurrency, cache: options.cache });
  const plan = checked(input);
  const quiet = Boolean(options.quiet);
  const reporter = consoleReporter({ verbose: Boolean(options.verbose), quiet, progress: !quiet && process.stderr.isTTY === true });
  for (const warning of read.warnings) reporter.warning(warning);
  reporter.info(
    `Loaded ${configFile}: ${plan.plan.prompts.length} prompt(s), ${plan.plan.models.join(", ")}, ${plan.plan.testCases} test case(s)`,
  );

  const dotenv = readDotenv(path.resolve(".env"));
  const target = chooseDataTarget({ server: options.server, token: options.token });
  const source = await openEvalSource(target, { dotenv, concurrency, onWarning: reporter.warning });
  let outcome: Awaited<ReturnType<typeof runEval>>;
  try {
    outcome = await runEval(source, {
      input,
      outputDir: options.output,
      formats: options.format === "all" ? [...ALL_FORMATS] : options.format === "junit" ? [] : [options.format],
      junit: options.format === "junit",
      baseline,
      reporter,
    });
  } finally {
    await source.close();
  }

  if (!quiet) for (const run of outcome.detail.runs) process.stderr.write(`${summaryLine(run)}\n`);
  const lines: string[] = [];
  if (outcome.baseline) lines.push(...outcome.baseline.comparisons.map(describeComparison), "");
  lines.push("Evaluation complete! Results exported to:", ...outcome.paths.map((where) => `  ${where}`));
  process.stdout.write(`${lines.join("\n")}\n`);

  const overall = overallPassRate(outcome.detail.runs);
  if (failUnder !== null && overall.rate < failUnder) {
    throw new CliError(
      `Overall pass rate ${percent(overall.rate)} (${overall.passed} of ${overall.total} results) is below --fail-under ${percent(failUnder)}.`,
      exitCodes.failed,
    );
  }
}

function evalValidate(configFile: string, options: { model?: string; tags?: string }): void {
  const read = readEvalConfig(configFile, { model: options.model });
  const { plan, routes, testCases } = checked(evalInput(read, { model: options.model, tags: options.tags, concurrency: 4, cache: true }));
  const cells = plan.prompts.length * plan.models.length * plan.testCases * plan.repeat;
  const warnings = [
    ...read.warnings,
    ...testCases.flatMap((testCase) =>
      testCase.rendered.flatMap((rendered, variant) =>
        "error" in rendered ? [`prompt ${plan.prompts[variant].name}: ${rendered.error} (that result will be an error)`] : [],
      ),
    ),
  ];
  const lines = [
    `Config: ${configFile}`,
    `Prompts (${plan.prompts.length}): ${plan.prompts.map((prompt) => prompt.name).join(", ")}`,
    `Models (${plan.models.length}): ${plan.models.map((model, index) => `${model} (${routes[index].provider})`).join(", ")}`,
    `Test cases (${testCases.length}): ${testCases.map((testCase) => testCase.name).join(", ")}`,
    `Trials: ${plan.repeat}`,
    `Cells: ${cells} (${plan.prompts.length} prompts x ${plan.models.length} models x ${plan.testCases} test cases x ${plan.repeat} trials)`,
    `Metrics: ${plan.metrics.map((metric) => metric.name).join(", ")}`,
    `Settings: max_tokens ${plan.max_tokens}, temperature ${plan.temperature}, evaluation_threshold ${plan.evaluation_threshold}`,
    warnings.length === 0 ? "Warnings: none" : `Warnings (${warnings.length}):`,
    ...warnings.map((warning) => `  ${warning}`),
    "Config is valid.",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

function evalInput(
  read: EvalConfigFiles,
  options: { model?: string; tags?: string; concurrency: number; cache: boolean },
): CreateEvalInput {
  const tags =
    options.tags === undefined
      ? undefined
      : options.tags
          .split(",")
          .map((tag) => tag.trim())
          .filter(Boolean);
  if (tags !== undefined && tags.length === 0)
    throw new CliError("--tags takes tags separated by commas, e.g. --tags basic,programming.", exitCodes.usage);
  const parsed = createEvalSchema.safeParse({
    config: read.config,
    configName: read.configName,
    files: read.files,
    model: options.model,
    concurrency: options.concurrency,
    cache: options.cache,
    tags,
  });
  if (!parsed.success) {
    throw new CliError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "), exitCodes.usage);
  }
  return parsed.data;
}

/** The eval checked here as the server will check it, so a problem is a usage error before anything is opened. */
function checked(input: CreateEvalInput): CheckedEval {
  try {
    return checkEval(input);
  } catch (error) {
    if (error instanceof InvalidInputError || error instanceof TooLargeError) throw new CliError(error.message, exitCodes.usage);
    throw error;
  }
}

function numberOption(flag: string, raw: string, { min, max, integer = false }: { min: number; max: number; integer?: boolean }): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new CliError(`${flag} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}; got "${raw}".`, exitCodes.usage);
  }
  return value;
}

function percent(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

function summaryLine(run: EvalRun): string {
  const passed = run.results.filter((result) => result.passed).length;
  const cost = run.cost_usd === null ? "unknown" : `$${run.cost_usd.toFixed(6)}`;
  return (
    `${run.prompt_name} on ${run.model} (run ${run.run_id}): ${passed}/${run.results.length} passed (${percent(run.pass_rate)}), ` +
    `avg latency ${run.avg_latency_ms.toFixed(1)} ms, cost ${cost}`
  );
}

function resultLine(run: EvalRun, result: EvalResult): string {
  const verdict = result.error !== null ? "ERROR" : result.passed ? "PASS" : "FAIL";
  const trial = result.trial > 1 ? ` (trial ${result.trial})` : "";
  const scores = Object.entries(result.metrics)
    .map(([name, score]) => `${name}=${score.toFixed(3)}`)
    .join(" ");
  const detail = result.error !== null ? result.error : `${scores} (${Math.round(result.latency_ms)} ms)`;
  return `[${verdict}] ${run.prompt_name} on ${run.model}: ${result.test_case}${trial}: ${detail}`;
}

/** Reports to stderr: [INFO] lines unless quiet, [WARNING] always, a line per result with -v, a progress line on a terminal. */
function consoleReporter({ verbose, quiet, progress }: { verbose: boolean; quiet: boolean; progress: boolean }): EvalReporter {
  let progressShown = false;
  let lastProgress = "";
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
      if (!quiet) write(`[INFO] ${message}`);
    },
    warning: (message) => write(`[WARNING] ${message}`),
    result: (run, result) => {
      if (verbose) write(resultLine(run, result));
    },
    progress: (finished, total, passed) => {
      if (!progress || verbose) return;
      const line = `${finished}/${total} results: ${passed} passed, ${finished - passed} not passed`;
      // Written again only when it changed (or after another line), not on every poll.
      if (progressShown && line === lastProgress) return;
      process.stderr.write(`\r\u001b[2K${line}`);
      lastProgress = line;
      progressShown = true;
    },
    done: clearProgress,
  };
}
