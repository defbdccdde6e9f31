import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { MAX_BATCH_CONCURRENCY, type BatchLimits, type BatchPlan, type CreateBatchInput } from "@/lib/api/batches";
import { planBudget, type BudgetPlan } from "@/lib/core/batch/budget";
import { planSummary } from "@/lib/core/batch/dry-run";
import { parseMatrix, planJobs, type BatchJob, type MatrixDefinition } from "@/lib/core/batch/matrix";
import { filterPromptRange, parsePromptSet, type BatchPrompt } from "@/lib/core/batch/prompts";
import { hashText } from "@/lib/core/cache-key";
import { asUser } from "@/lib/db/as-user";
import type { BatchConfig } from "@/lib/db/batches/batch-config";
import { findBatchRunByFolder, type StoredBatchRun } from "@/lib/db/batches/get-batch-run";
import {
  insertBatchCells,
  markSkipped,
  reopenBatchRun,
  requeueBatchCells,
  type DoneJob,
  type SkippedJob,
} from "@/lib/db/batches/insert-batch-cells";
import { listBatchCells } from "@/lib/db/batches/list-batch-cells";
import type { Database, Queryable } from "@/lib/db/database";
import { countQueuedCells } from "@/lib/db/runs/count-queued-cells";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { queuePlannedRun } from "@/lib/db/runs/queue-planned-run";
import { resumeJobStates } from "@/lib/formats/batch/resume-run";
import { openRunFolder } from "@/lib/formats/batch/run-folder";
import { manifestTime } from "@/lib/formats/batch/run-manifest";
import { MANIFEST_NAME } from "@/lib/formats/batch/write-run-manifest";
import { rewriteBatchManifest } from "./batch-manifest";
import { InvalidInputError } from "./errors";
import { checkQueuedCells, runLimitsFromEnv, type RunLimits } from "./run-limits";

/** One retry for transient errors (the spec's default), so two attempts in all. */
export const BATCH_MAX_ATTEMPTS = 2;
/** An image call, polling and download included, ends after this long (the slowest models take minutes). */
export const BATCH_TIMEOUT_MS = 300_000;
/** The spec's default global concurrency. */
export const BATCH_DEFAULT_CONCURRENCY = 3;

/** A batch's request read and checked: its prompts, matrix, jobs, limits, budget decisions and plan. */
export interface CheckedBatch {
  prompts: BatchPrompt[];
  matrix: MatrixDefinition;
  jobs: BatchJob[];
  combinations: number;
  limits: BatchLimits;
  budget: BudgetPlan;
  plan: BatchPlan;
}

/** The limits a batch runs with: the request's where given, else the matrix's `limits`, else the spec's defaults. */
function limitsOf(input: CreateBatchInput, matrix: MatrixDefinition): BatchLimits {
  const concurrency = input.concurrency ?? matrix.limits.concurrency ?? BATCH_DEFAULT_CONCURRENCY;
  if (concurrency > MAX_BATCH_CONCURRENCY) {
    throw new InvalidInputError(`concurrency ${concurrency} is more than the ${MAX_BATCH_CONCURRENCY} allowed`, "concurrency");
  }
  return {
    concurrency,
    provider_concurrency: input.providerConcurrency ?? matrix.limits.provider_concurrency ?? {},
    budget_usd: input.budgetUsd !== undefined ? input.budgetUsd : (matrix.limits.budget_usd ?? null),
    budget_mode: input.budgetMode ?? matrix.limits.budget_mode ?? "estimate",
  };
}

/**
 * Reads and plans a batch (specs/image-batch-runs.md): the prompt set by its file name (.txt or
 * .csv) with the range filter, the matrix (YAML or JSON), the jobs in the spec's stable order,
 * the limits and which jobs the budget mode lets run. A problem in a file is a 400 naming the
 * file, its line (or YAML path) and what to do. Nothing is stored.
 */
export function checkBatch(input: CreateBatchInput, { alreadySpentUsd = 0 }: { alreadySpentUsd?: number } = {}): CheckedBatch {
  let prompts: BatchPrompt[];
  let matrix: MatrixDefinition;
  try {
    prompts = parsePromptSet(input.prompts.text, input.prompts.name);
    if (input.promptRange !== undefined) prompts = filterPromptRange(prompts, input.promptRange.replace(/\s+/g, ""));
  } catch (error) {
    throw new InvalidInputError((error as Error).message, "prompts");
  }
  try {
    matrix = parseMatrix(input.matrix.text, input.matrix.name);
  } catch (error) {
    throw new InvalidInputError((error as Error).message, "matrix");
  }
  let planned: ReturnType<typeof planJobs>;
  try {
    planned = planJobs(prompts, matrix);
  } catch (error) {
    throw new InvalidInputError((error as Error).message, "matrix");
  }
  const limits = limitsOf(input, matrix);
  const budget = planBudget(planned.jobs, { budgetUsd: limits.budget_usd, mode: limits.budget_mode, alreadySpentUsd });
  const summary = planSummary({
    promptsFile: input.prompts.name,
    matrixFile: input.matrix.name,
    promptCount: prompts.length,
    matrix,
    plan: planned,
    budget,
    budgetUsd: limits.budget_usd,
    budgetMode: limits.budget_mode,
    concurrency: limits.concurrency,
    providerConcurrency: limits.provider_concurrency,
  });
  return {
    prompts,
    matrix,
    jobs: planned.jobs,
    combinations: planned.combinations,
    limits,
    budget,
    plan: { ...summary, limits, prompts_file: input.prompts.name, matrix_file: input.matrix.name },
  };
}

/** Where a new batch writes, and under which run id. */
export interface BatchFolder {
  dir: string;
  runId: string;
}

/**
 * The run folder of a new batch. With outDir (the CLI's --out) that folder, its run id its base
 * name: a folder holding run.json is refused (resume it instead), and the prompt and matrix texts
 * are written into it by name (a copy already there with the same bytes is kept; a different
 * file of that name is refused, not overwritten). Without, a new folder <dataDir>/batches/<run_id>.
 */
export function makeBatchFolder(
  input: CreateBatchInput,
  { outDir, dataDir, now }: { outDir?: string; dataDir: string; now: Date },
): BatchFolder {
  if (input.prompts.name === input.matrix.name) {
    throw new InvalidInputError(`The prompt and matrix files are both named ${input.prompts.name}; rename one of them.`, "matrix");
  }
  let dir: string;
  if (outDir !== undefined) {
    dir = resolve(outDir);
    if (existsSync(join(dir, MANIFEST_NAME))) {
      throw new InvalidInputError(
        `${join(dir, MANIFEST_NAME)} exists: resume that run (--resume), or choose another --out folder.`,
        "outDir",
      );
    }
    if (existsSync(dir) && !statSync(dir).isDirectory())
      throw new InvalidInputError(`${dir} is not a folder: --out must name a folder.`, "outDir");
  } else {
    const stamp = manifestTime(now).replace(/[-:]/g, "");
    dir = join(resolve(dataDir), "batches", `batch-${stamp}-${randomBytes(3).toString("hex")}`);
  }
  mkdirSync(dir, { recursive: true });
  for (const file of [input.prompts, input.matrix]) {
    const target = join(dir, file.name);
    const bytes = Buffer.from(file.text, "utf8");
    if (existsSync(target)) {
      if (sha(readFileSync(target)) === sha(bytes)) continue;
      throw new InvalidInputError(`${target} exists with other content: choose another --out folder, or remove it.`, "outDir");
    }
    writeFileSync(target, bytes, { flag: "wx" });
  }
  return { dir, runId: basename(dir) };
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The skip decisions of a budget plan, for the cells (index = job order). */
function skippedJobs(budget: BudgetPlan, indexes: readonly number[]): SkippedJob[] {
  const skipped: SkippedJob[] = [];
  budget.decisions.forEach((decision, k) => {
    if (decision.run) return;
    skipped.push({
      index: indexes[k],
      code: decision.skip_reason ?? "budget",
      message:
        decision.warnings.find((warning) => warning.startsWith("skipped") || warning.includes("skipped")) ??
        `skipped: ${decision.skip_reason === "unknown_price" ? "no known price (budget mode strict)" : "the budget does not allow it"}`,
    });
  });
  return skipped;
}

/** Inserts a checked batch as userId's run (status planned: no worker claims it yet); answers its id. */
async function insertBatch(
  tx: Queryable,
  {
    checked,
    input,
    folder,
    done = [],
    createdAt,
  }: { checked: CheckedBatch; input: CreateBatchInput; folder: BatchFolder; done?: DoneJob[]; createdAt?: string },
): Promise<string> {
  const columns = checked.jobs.slice(0, checked.combinations).map((job) => job.params);
  const config: BatchConfig = {
    runId: folder.runId,
    outDir: folder.dir,
    promptsFile: input.prompts.name,
    matrixFile: input.matrix.name,
    promptCount: checked.prompts.length,
    matrixBlocks: checked.matrix.matrix.length,
    combinations: checked.combinations,
    limits: checked.limits,
    plan: checked.plan,
    estimates: checked.budget.decisions.slice(0, checked.combinations).map((decision) => decision.estimated_cost_usd),
    ...(createdAt ? { createdAt } : {}),
    ...(input.promptRange !== undefined ? { promptRange: input.promptRange } : {}),
  };
  const promptVersionId = await insertPromptVersion(tx, {
    promptId: null,
    version: 1,
    name: input.prompts.name,
    type: "generator",
    text: input.prompts.text,
    textHash: hashText(input.prompts.text),
  });
  const datasetId = await insertDataset(tx, {
    name: folder.runId,
    source: "batch",
    headers: ["prompt_id", "prompt"],
    rows: checked.prompts.map((prompt) => ({ prompt_id: prompt.id, prompt: prompt.prompt })),
  });
  const runId = await insertRun(tx, {
    kind: "batch",
    promptId: null,
    promptVersionId,
    graderPromptId: null,
    graderVersionId: null,
    graderModel: null,
    datasetId,
    rowCount: checked.prompts.length,
    trials: 1,
    concurrency: checked.limits.concurrency,
    providerConcurrency: checked.limits.provider_concurrency,
    maxAttempts: BATCH_MAX_ATTEMPTS,
    timeoutMs: BATCH_TIMEOUT_MS,
    cache: false,
    budgetUsd: checked.limits.budget_usd,
    budgetMode: checked.limits.budget_mode,
    // No per-cell estimate for the claim's budget check: the jobs the budget allows were chosen in
    // job order here (planBudget); the engine's check stops the run when what was spent reaches
    // the budget (an overrun halts new jobs), not earlier on the dearest column's estimate.
    columns: columns.map((params) => ({ provider: params.provider, model: params.model, params, estimatedCostPerCell: null })),
    kindConfig: { batch: config },
  });
  const doneIndexes = new Set(done.map((job) => job.index));
  const pendingIndexes = checked.jobs.map((_, index) => index).filter((index) => !doneIndexes.has(index));
  await insertBatchCells(tx, { runId, prompts: checked.prompts.length, skipped: skippedJobs(checked.budget, pendingIndexes), done });
  return runId;
}

/** What creating or resuming a batch needs. */
export interface CreateBatchDeps {
  db: Database;
  limits?: RunLimits;
  now?: () => Date;
}

/**
 * Creates a batch of userId's: plans it, makes its run folder, inserts the run (planned), writes
 * run.json as `planned` before anything runs (the spec's "Confirm & Run"), then queues it. A
 * process that dies between the two leaves a planned run the workers fail after a while, and a
 * run.json that --resume takes up again.
 */
export async function createBatchRun(
  { db, limits = runLimitsFromEnv(), now = () => new Date() }: CreateBatchDeps,
  { userId, input, outDir, dataDir }: { userId: string; input: CreateBatchInput; outDir?: string; dataDir: string },
): Promise<{ id: string; runId: string; outDir: string; plan: BatchPlan }> {
  const checked = checkBatch(input);
  await asUser(db, userId, async (tx) =>
    checkQueuedCells({ queued: await countQueuedCells(tx, { userId }), adding: checked.plan.jobs_to_run }, limits),
  );
  const folder = makeBatchFolder(input, { outDir, dataDir, now: now() });
  const id = await asUser(db, userId, (tx) => insertBatch(tx, { checked, input, folder }));
  await rewriteBatchManifest(db, id);
  await asUser(db, userId, (tx) => queuePlannedRun(tx, { runId: id }));
  return { id, runId: folder.runId, outDir: folder.dir, plan: checked.plan };
}

/**
 * Queues a batch's unfinished jobs again: failed, cancelled, pending and skipped ones, decided
 * again by the budget in job order with what the run has spent (each success's actual cost,
 * else its estimate): those it allows are queued, the others stay skipped with the reason.
 * Succeeded jobs and jobs being called now are left alone. The run becomes claimable again.
 */
export async function requeueBatch(tx: Queryable, stored: StoredBatchRun, checked: CheckedBatch): Promise<number> {
  const cells = await listBatchCells(tx, { runId: stored.id, asStored: true });
  const combinations = stored.config.combinations;
  let spent = 0;
  const open: number[] = [];
  for (const cell of cells) {
    const index = cell.rowIndex * combinations + cell.columnIndex;
    if (cell.status === "ok" || cell.status === "warning") spent += cell.costUsd ?? 0;
    else if (cell.status !== "running") open.push(index);
  }
  const budget = planBudget(
    open.map((index) => checked.jobs[index]),
    { budgetUsd: stored.config.limits.budget_usd, mode: stored.config.limits.budget_mode, alreadySpentUsd: spent },
  );
  const allowed = open.filter((_, k) => budget.decisions[k].run);
  const requeued = await requeueBatchCells(tx, { runId: stored.id, indexes: allowed });
  await markSkipped(tx, { runId: stored.id, skipped: skippedJobs(budget, open) });
  await reopenBatchRun(tx, { runId: stored.id });
  return requeued;
}

/** The request a run folder's copies make, with the run's recorded limits. */
function folderInput(dir: string, names: { promptsFile: string; matrixFile: string }, limits: BatchLimits): CreateBatchInput {
  return {
    prompts: { name: names.promptsFile, text: readFileSync(join(dir, names.promptsFile), "utf8") },
    matrix: { name: names.matrixFile, text: readFileSync(join(dir, names.matrixFile), "utf8") },
    concurrency: limits.concurrency,
    providerConcurrency: limits.provider_concurrency,
    budgetUsd: limits.budget_usd,
    budgetMode: limits.budget_mode,
  };
}

/**
 * `--resume --out DIR`: the run recorded for the folder, its unfinished jobs queued again
 * (requeueBatch). When the database has no run for the folder (another machine's data folder, a
 * moved folder), the run is made again from run.json and the folder's copies: the plan they make
 * must match run.json's jobs by id and parameters (resume-run.ts), success jobs carry over with
 * their files, and the rest is decided by the budget with what those cost.
 */
export async function resumeBatchRun(
  { db }: CreateBatchDeps,
  { userId, outDir }: { userId: string; outDir: string },
): Promise<{ id: string; runId: string; outDir: string; plan: BatchPlan; requeued: number; recreated: boolean }> {
  let folder: ReturnType<typeof openRunFolder>;
  try {
    folder = openRunFolder(outDir);
  } catch (error) {
    throw new InvalidInputError((error as Error).message, "outDir");
  }
  const stored = await asUser(db, userId, (tx) => findBatchRunByFolder(tx, { userId, outDir: folder.dir }));
  const input = folderInput(folder.dir, folder, stored?.config.limits ?? folder.manifest.limits);
  // The prompts run.json lists, in its order: a run made with a range filter keeps only those.
  const listed = new Set(folder.manifest.jobs.map((job) => job.prompt_id));
  const checkedAll = checkBatch(input);
  const keep = checkedAll.prompts.filter((prompt) => listed.has(prompt.id));
  const checked = stored
    ? checkBatch({ ...input, promptRange: stored.config.promptRange })
    : keep.length === 0 || keep.length === checkedAll.prompts.length
      ? checkedAll
      : rangeOf(input, checkedAll.prompts, keep);
  if (stored) {
    const requeued = await asUser(db, userId, async (tx) => {
      // resume continues a paused run too
      await tx.query("update runs set status = 'queued' where id = $1 and status in ('paused', 'planned')", [stored.id]);
      return requeueBatch(tx, stored, checked);
    });
    await rewriteBatchManifest(db, stored.id);
    return { id: stored.id, runId: stored.config.runId, outDir: stored.config.outDir, plan: checked.plan, requeued, recreated: false };
  }
  let resumed: ReturnType<typeof resumeJobStates>;
  try {
    resumed = resumeJobStates(folder.manifest, checked.jobs);
  } catch (error) {
    throw new InvalidInputError(`${join(folder.dir, MANIFEST_NAME)}: ${(error as Error).message}`, "outDir");
  }
  const done: DoneJob[] = [];
  const open: number[] = [];
  resumed.jobs.forEach((state, index) => {
    if (state.status !== "success") {
      open.push(index);
      return;
    }
    const actual = state.actualCostUsd ?? null;
    done.push({
      index,
      attempts: state.attempts ?? 1,
      startedAt: state.startedAt ?? null,
      finishedAt: state.completedAt ?? null,
      costUsd: actual ?? state.estimatedCostUsd,
      warnings: state.warnings ?? [],
      artifacts: { image_paths: state.imagePaths ?? [], receipt_paths: state.receiptPaths ?? [], actual_cost_usd: actual },
    });
  });
  const budget = planBudget(
    open.map((index) => checked.jobs[index]),
    { budgetUsd: checked.limits.budget_usd, mode: checked.limits.budget_mode, alreadySpentUsd: resumed.spentUsd },
  );
  const recreated: CheckedBatch = { ...checked, budget: { ...checked.budget, decisions: open.map((_, k) => budget.decisions[k]) } };
  const id = await asUser(db, userId, (tx) =>
    insertBatch(tx, {
      checked: recreated,
      input,
      folder: { dir: folder.dir, runId: folder.runId },
      done,
      createdAt: folder.manifest.created_at,
    }),
  );
  await rewriteBatchManifest(db, id);
  await asUser(db, userId, (tx) => queuePlannedRun(tx, { runId: id }));
  return {
    id,
    runId: folder.runId,
    outDir: folder.dir,
    plan: checked.plan,
    requeued: open.length - budget.decisions.filter((d) => !d.run).length,
    recreated: true,
  };
}

/** The batch of a range of prompts: run.json's prompts are a contiguous run of the file's (the range filter made them). */
function rangeOf(input: CreateBatchInput, all: BatchPrompt[], keep: BatchPrompt[]): CheckedBatch {
  const first = all.indexOf(keep[0]) + 1;
  const last = all.indexOf(keep[keep.length - 1]) + 1;
  return checkBatch({ ...input, promptRange: `${first}-${last}` });
}
