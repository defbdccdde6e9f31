import path from "node:path";
import { Option, type Command } from "commander";
import { BATCH_FILE_NAME, createBatchSchema, type CreateBatchInput } from "@/lib/api/batches";
import { BUDGET_MODES, type BudgetMode } from "@/lib/core/batch/matrix";
import { MANIFEST_NAME } from "@/lib/formats/batch/write-run-manifest";
import { openRunFolder } from "@/lib/formats/batch/run-folder";
import { existsSync } from "node:fs";
import { openBatchSource, type BatchSource, type StartedBatch } from "../batch/batch-source";
import { serverBatchSource } from "../batch/server-batch-source";
import { interactiveBuilder } from "../batch/builder";
import { consoleBatchReporter, followBatch, type FollowOutcome } from "../batch/follow-batch";
import { terminalBatchReporter } from "../batch/terminal-reporter";
import { parseProviderConcurrency, type BatchRunOptions } from "../batch/options";
import { dryRunText, readBatchInputs, type BatchInputs } from "../batch/read-batch-inputs";
import { CliError, exitCodes } from "../cli-error";
import { chooseDataTarget } from "../data-target";
import { readDotenv } from "../read-dotenv";

/** The flags of `parallaxr batch-run` as commander hands them over. */
interface BatchRunFlags {
  prompts?: string;
  matrix?: string;
  out?: string;
  concurrency?: string;
  providerConcurrency?: string;
  budget?: string;
  budgetMode?: BudgetMode;
  promptRange?: string;
  dryRun?: boolean;
  resume?: boolean;
  server?: string;
  token?: string;
}

const HELP = `
Files: --prompts is a .txt file (one prompt a line; blank lines and lines starting with # are
skipped) or a .csv file (a "prompt" column; "id" and "metadata" (a JSON object) optional; other
columns kept as metadata). --matrix is a .yaml or .json matrix of schema v1 (specs/image-batch-runs.md,
docs/batches.md). --out is the run folder; its name is the run id. It gets copies of both files,
run.json (the manifest, rewritten atomically after each job), the images
({provider}-{yyyymmddThhmmssZ}-{job_id}-{index}.{ext}) and a receipt-*.json beside each.

Limits: a flag wins over the matrix's limits, which win over the defaults (concurrency 3, no
budget, budget mode estimate). --budget-mode estimate stops scheduling once the estimate would
pass the budget; strict also skips jobs without a known price; off only estimates.

--resume continues the run in --out from its run.json and the copies in the folder (nothing else
is needed): success jobs are kept as they are, failed, pending, interrupted and budget-skipped
jobs run again, and no image is written twice.

Keys: OPENAI_API_KEY, GEMINI_API_KEY, BFL_API_KEY (and *_BASE_URL) from .env in the current
directory first, then the keys saved in Parallaxr. provider: mock (any model name) needs no key.
The run needs no server: a worker in this process writes into --out. With --server URL, or when
the app holds the data folder, the batch runs on that server (with its keys) and each finished
job's images and receipts, then run.json, are downloaded into --out.

With no flags on a terminal, the interactive builder opens (load prompts, load matrix, review
plan, set limits, confirm and run) and prints the same run's command line at the end.

Progress goes to stderr: a line per finished job, or one progress line on a terminal. At the end
stdout gets the counts, the cost, the manifest's path and the output folder; --dry-run prints the
plan there and writes nothing.

Exit codes: 0 the run completed and no job failed (jobs skipped for the budget included), or the
dry run's plan was printed; 1 the run ended with failed jobs, failed, or was cancelled elsewhere,
or a server or the database refused; 2 the command line or an input file is wrong (the message
names the file, its line or YAML path, and what to do; nothing was written); 3 the data folder is
held by a process this command cannot reach; 130 interrupted by Ctrl-C (the run is cancelled, its
outputs kept: continue it with --resume).

Examples:
  parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/food_glam_v1
  parallaxr batch-run --prompts prompts.csv --matrix matrix.yaml --out runs/v2 --dry-run
  parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/v3 \\
      --concurrency 4 --provider-concurrency openai=1,gemini=2 --budget 10 --budget-mode strict
  parallaxr batch-run --out runs/food_glam_v1 --resume
  param-forge batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/food_glam_v1`;

/** `parallaxr batch-run`: an image batch run (specs/image-batch-runs.md), headless or through the builder. */
export function registerBatchRunCommand(program: Command): void {
  program
    .command("batch-run")
    .description("run prompts x an image-model matrix into a run folder with run.json (specs/image-batch-runs.md)")
    .option("--prompts <path>", "prompt file (.txt or .csv)")
    .option("--matrix <path>", "matrix file (.yaml or .json, schema v1)")
    .option("--out <dir>", "output run folder (its name is the run id)")
    .option("--concurrency <int>", "jobs at once over all providers (default: the matrix's limits, else 3)")
    .option("--provider-concurrency <provider=int,...>", "per-provider caps, e.g. openai=1,gemini=2")
    .option("--budget <usd>", "total budget in US dollars")
    .addOption(new Option("--budget-mode <mode>", "how the budget is enforced (default: estimate)").choices([...BUDGET_MODES]))
    .option("--prompt-range <from-to>", "only prompts FROM to TO, counted from 1 (e.g. 3-10)")
    .option("--dry-run", "validate the inputs, print the plan and estimated cost, write nothing")
    .option("--resume", "continue the run in --out from its run.json")
    .option("--server <url>", "run on this server instead (its keys are used; the images are downloaded into --out)")
    .option("--token <token>", "access token for --server (default: PARALLAXR_TOKEN)")
    .addHelpText("after", HELP)
    .action(async (flags: BatchRunFlags) => {
      await batchRun(flags);
    });
}

function usage(message: string): CliError {
  return new CliError(message, exitCodes.usage);
}

function numberFlag(flag: string, raw: string, { min, max, integer = false }: { min: number; max: number; integer?: boolean }): number {
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw usage(`${flag} must be ${integer ? "a whole number" : "a number"} from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

/** The options the flags give; what is missing for a run is a usage error naming the flag. */
export function optionsFromFlags(flags: BatchRunFlags): BatchRunOptions {
  if (!flags.out) throw usage("--out <dir> is missing: name the run folder (e.g. --out runs/food_glam_v1).");
  if (!flags.resume) {
    const missing = [!flags.prompts && "--prompts <path>", !flags.matrix && "--matrix <path>"].filter(Boolean);
    if (missing.length > 0)
      throw usage(
        `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} missing (or add --resume to continue the run in ${flags.out}).`,
      );
  }
  let providerConcurrency: Record<string, number> | undefined;
  if (flags.providerConcurrency !== undefined) {
    try {
      providerConcurrency = parseProviderConcurrency(flags.providerConcurrency);
    } catch (error) {
      throw usage(`${(error as Error).message}.`);
    }
  }
  return {
    promptsPath: flags.prompts ?? "",
    matrixPath: flags.matrix ?? "",
    out: flags.out,
    concurrency:
      flags.concurrency === undefined ? undefined : numberFlag("--concurrency", flags.concurrency, { min: 1, max: 64, integer: true }),
    providerConcurrency,
    budgetUsd: flags.budget === undefined ? undefined : numberFlag("--budget", flags.budget, { min: 0, max: 1_000_000 }),
    budgetMode: flags.budgetMode,
    promptRange: flags.promptRange,
    dryRun: Boolean(flags.dryRun),
    resume: Boolean(flags.resume),
  };
}

const hasAnyFlag = (flags: BatchRunFlags) => Object.values(flags).some((value) => value !== undefined && value !== false);

async function batchRun(flags: BatchRunFlags): Promise<void> {
  if (!hasAnyFlag(flags)) {
    if (process.stdin.isTTY && process.stderr.isTTY) {
      // The builder prints the same run's headless command line when it finishes (the parity rule).
      const options = await interactiveBuilder({ input: process.stdin, output: process.stderr, cwd: process.cwd() });
      if (options === null) return;
      await runWithOptions(options, {});
      return;
    }
    throw usage("--prompts, --matrix and --out are missing (the interactive builder needs a terminal); see parallaxr batch-run --help.");
  }
  await runWithOptions(optionsFromFlags(flags), { server: flags.server, token: flags.token });
}

/** The batch's request as the service and the API take it: the files as texts, only the limits a flag gave. */
export function createInput(inputs: BatchInputs, options: BatchRunOptions): CreateBatchInput {
  for (const file of [inputs.prompts, inputs.matrixFile]) {
    if (!BATCH_FILE_NAME.test(file.name)) {
      throw usage(
        `${file.path}: the run folder keeps a copy of this file under its name, which must be a plain file name ` +
          `(letters, digits, ".", "_", "-", spaces; not run.json, not receipt-*, not starting with "."); rename it.`,
      );
    }
  }
  if (inputs.prompts.name === inputs.matrixFile.name) {
    throw usage(`${inputs.prompts.path} and ${inputs.matrixFile.path} have the same name; rename one of them.`);
  }
  const input: CreateBatchInput = {
    prompts: { name: inputs.prompts.name, text: inputs.prompts.text },
    matrix: { name: inputs.matrixFile.name, text: inputs.matrixFile.text },
    ...(options.promptRange === undefined ? {} : { promptRange: options.promptRange }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.providerConcurrency === undefined ? {} : { providerConcurrency: options.providerConcurrency }),
    ...(options.budgetUsd === undefined ? {} : { budgetUsd: options.budgetUsd }),
    ...(options.budgetMode === undefined ? {} : { budgetMode: options.budgetMode }),
  };
  const parsed = createBatchSchema.safeParse(input);
  if (!parsed.success) throw usage(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  return input;
}

/** A path to show: relative to the working directory when inside it, else absolute. */
function shown(where: string): string {
  const relative = path.relative(process.cwd(), where);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : where;
}

/** Runs (or resumes, or dry-runs) one batch with these options; throws a CliError with the exit code when it does not end well. */
export async function runWithOptions(options: BatchRunOptions, connection: { server?: string; token?: string }): Promise<void> {
  const reporter = consoleBatchReporter({ terminal: process.stderr.isTTY === true });
  let inputs: BatchInputs;
  let resumeNote: string | null = null;
  if (options.resume) {
    if (options.promptsPath || options.matrixPath) {
      reporter.warning(`--resume reads the prompt and matrix copies in ${options.out}; --prompts and --matrix are not read.`);
    }
    let folder: ReturnType<typeof openRunFolder>;
    try {
      folder = openRunFolder(options.out);
    } catch (error) {
      throw usage(`${(error as Error).message}.`);
    }
    const limits = folder.manifest.limits;
    const jobs = folder.manifest.jobs;
    const kept = jobs.filter((job) => job.status === "success").length;
    const count = (status: string) => jobs.filter((job) => job.status === status).length;
    resumeNote =
      `Resume of ${folder.runId} (${path.join(options.out, MANIFEST_NAME)}, status ${folder.manifest.status}): ` +
      `${kept} of ${jobs.length} job(s) succeeded and are kept; ${jobs.length - kept} run again if the budget allows ` +
      `(${count("failed")} failed, ${count("pending") + count("running")} pending or interrupted, ${count("skipped")} skipped).\n`;
    inputs = readBatchInputs({
      promptsPath: path.join(folder.dir, folder.promptsFile),
      matrixPath: path.join(folder.dir, folder.matrixFile),
      concurrency: options.concurrency ?? limits.concurrency,
      providerConcurrency: options.providerConcurrency ?? limits.provider_concurrency,
      budgetUsd: options.budgetUsd ?? limits.budget_usd ?? undefined,
      budgetMode: options.budgetMode ?? limits.budget_mode,
    });
  } else {
    inputs = readBatchInputs(options);
    if (!options.dryRun && existsSync(path.join(options.out, MANIFEST_NAME))) {
      throw usage(`${path.join(options.out, MANIFEST_NAME)} exists: add --resume to continue that run, or choose another --out.`);
    }
  }
  if (options.dryRun) {
    // A resumed run's plan is its run.json's: what it kept and what would run again.
    process.stdout.write(resumeNote ?? dryRunText(inputs));
    return;
  }
  const input = options.resume ? null : createInput(inputs, options);

  const dotenv = readDotenv(path.resolve(".env"));
  const target = chooseDataTarget({ server: connection.server, token: connection.token });
  let source: BatchSource;
  if (target.kind === "server") {
    if (options.resume) {
      throw usage(
        target.local
          ? `The data folder is held by the app at ${target.url}, and --resume continues a run folder from this process: stop the app and run again, or resume the batch on its /batches page.`
          : `--resume continues a run folder on this machine's data folder; resume a batch on the server at ${target.url} there (its /batches page).`,
      );
    }
    reporter.info(`Running on the server at ${target.url}; the images are downloaded into ${options.out} as jobs finish.`);
    source = serverBatchSource(target, { dotenv, outDir: options.out, onWarning: reporter.warning });
  } else {
    source = await openBatchSource(target, { dotenv, concurrency: inputs.limits.concurrency, onWarning: reporter.warning });
  }
  let started: StartedBatch;
  let outcome: FollowOutcome;
  try {
    started = input === null ? await source.resume(options.out) : await source.create(input, options.out);
    if (started.requeued !== null) reporter.info(`Resuming ${started.runId}: ${started.requeued} job(s) queued again.`);
    else if (started.plan) {
      reporter.info(
        `Batch ${started.runId}: ${started.plan.prompt_count} prompt(s) x ${started.plan.combinations} combination(s) = ${started.plan.jobs} job(s), ` +
          `${started.plan.images} image(s), estimated $${started.plan.estimated_cost_usd.toFixed(2)}`,
      );
      for (const warning of started.plan.warnings) reporter.warning(warning);
    }
    const stop = new AbortController();
    const id = started.id;
    const follower =
      process.stdin.isTTY && process.stderr.isTTY
        ? terminalBatchReporter(
            { input: process.stdin, output: process.stderr },
            { change: (action) => source.change(id, action), stop: () => stop.abort() },
          )
        : reporter;
    outcome = await followBatch(source, started, follower, { stop: stop.signal });
  } finally {
    await source.close();
  }
  finish(options, started, outcome);
}

function finish(options: BatchRunOptions, started: StartedBatch, outcome: FollowOutcome): void {
  const { summary } = outcome;
  const c = summary.counts;
  const actual = summary.actualCostUsd === null ? "not reported" : `$${summary.actualCostUsd.toFixed(4)}`;
  const folder = started.outDir;
  const lines = [
    `Batch ${summary.runId} ${summary.status}: ${c.success} success, ${c.failed} failed, ${c.skipped} skipped` +
      (c.pending + c.running > 0 ? `, ${c.pending + c.running} not run` : "") +
      ` (${summary.images} image(s))`,
    `Cost: estimated $${summary.estimatedCostUsd.toFixed(4)}, actual ${actual}`,
    `Manifest: ${shown(path.join(folder, MANIFEST_NAME))}`,
    `Output folder: ${shown(folder)}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  const resume = `parallaxr batch-run --out ${options.out} --resume`;
  if (outcome.interrupted) {
    throw new CliError(
      outcome.cancelError === null
        ? `Interrupted: the batch was ${summary.status}; its outputs are kept. Continue it with: ${resume}`
        : `Interrupted, but the batch was not cancelled (${outcome.cancelError}); its outputs are kept.`,
      exitCodes.interrupted,
    );
  }
  if (summary.status !== "completed") throw new CliError(`The batch was ${summary.status}. Continue it with: ${resume}`);
  if (c.failed > 0) throw new CliError(`${c.failed} job(s) failed (their errors are in run.json). Run them again with: ${resume}`);
}
