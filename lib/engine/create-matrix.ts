import type { CreateMatrixInput, MatrixPlanResponse, MatrixSummary } from "@/lib/api/matrix";
import { hashText } from "@/lib/core/cache-key";
import type { Price } from "@/lib/core/cost";
import { formatConfigProblem } from "@/lib/core/eval/config";
import type { MetricConfig } from "@/lib/core/eval/metrics";
import { parsePromptFile } from "@/lib/core/eval/prompt-file";
import { gradingCostOfEval, type MatrixGradingPlan } from "@/lib/core/matrix/grading-estimate";
import { batchId } from "@/lib/core/matrix/ids";
import { resolveMatrixModel, type MatrixModel } from "@/lib/core/matrix/model-aliases";
import { CONFIRMATION_THRESHOLD, inputTitle, planMatrix, type MatrixPromptVersion, type MatrixTask } from "@/lib/core/matrix/plan-matrix";
import { selectSubset, type SubsetFlag } from "@/lib/core/matrix/select-subset";
import { detectVariables } from "@/lib/core/template";
import { asUser } from "@/lib/db/as-user";
import type { Database, Queryable } from "@/lib/db/database";
import { findSavedPromptVersion } from "@/lib/db/matrix/find-saved-prompt-version";
import { getMatrixRun, type StoredMatrixRun } from "@/lib/db/matrix/get-matrix-run";
import { insertMatrixCells } from "@/lib/db/matrix/insert-matrix-cells";
import { insertMatrixInputs } from "@/lib/db/matrix/insert-matrix-inputs";
import type { MatrixEstimate, MatrixInput, MatrixInputRow, MatrixMetrics, MatrixPlan } from "@/lib/db/matrix/matrix-plan";
import { priceBook } from "@/lib/db/pricing/pricing";
import { countQueuedCells } from "@/lib/db/runs/count-queued-cells";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { queuePlannedRun } from "@/lib/db/runs/queue-planned-run";
import { providerFactories } from "@/lib/providers/provider-factories";
import { applicablePrice } from "./applicable-price";
import { InvalidInputError, NotFoundError, TooLargeError } from "./errors";
import { judgeMetrics } from "./judge-output";
import { checkCellCount, checkPromptSize, checkQueuedCells, checkRenderedSize, runLimitsFromEnv, type RunLimits } from "./run-limits";

/**
 * The most characters of rendered prompts a matrix stores (each prompt version x input once):
 * far above any real batch, low enough that one request cannot fill the database.
 */
export const MAX_MATRIX_RENDERED_CHARS = 50_000_000;

/** What planning a matrix needs. */
export interface CreateMatrixDeps {
  db: Database;
  limits?: RunLimits;
  /** The batch's start; the clock by default. */
  now?: () => Date;
}

/** A prompt version with its text, a saved prompt's (`name@vN`) read from the database. */
interface PromptSource {
  version: string;
  fileName: string;
  text: string;
}

/** A matrix's request read and checked: its plan (every eval with its rendered prompt and estimate) and what its run stores. */
export interface CheckedMatrix {
  plan: MatrixPlanResponse;
  prompts: MatrixPromptVersion[];
  /** Each prompt version's file name (v1.txt), or name@vN for a saved prompt. */
  fileNames: string[];
  models: MatrixModel[];
  inputs: MatrixInputRow[];
  /** The grader's prompt and model (null: each eval's own model grades it); null without a grader. */
  grader: { text: string; model: MatrixModel | null } | null;
  /** The metrics each output is scored by; null without metrics. */
  metrics: MatrixMetrics | null;
  /** Per model, the estimated cost of grading one of its evals (0 without grading; null when a grading model is unpriced). */
  gradingPerEval: Array<number | null>;
}

const SAVED_VERSION = /^(.+)@v(\d+)$/;

/**
 * The text of every prompt version of the request: a file's as sent, a saved prompt's
 * (`name@vN`, sent without text) as stored for the caller. An unknown one is a 404 naming it.
 */
async function promptSources(tx: Queryable, prompts: CreateMatrixInput["prompts"]): Promise<PromptSource[]> {
  const sources: PromptSource[] = [];
  for (const prompt of prompts) {
    if (prompt.text !== undefined) {
      sources.push({ version: prompt.version, fileName: prompt.fileName ?? `${prompt.version}.txt`, text: prompt.text });
      continue;
    }
    const saved = SAVED_VERSION.exec(prompt.version);
    if (!saved) {
      throw new InvalidInputError(
        `Prompt version ${prompt.version} has no text: send the file's text, or name a prompt saved in the app as name@vN (e.g. summary@v2).`,
        "prompts",
      );
    }
    const found = await findSavedPromptVersion(tx, { name: saved[1], version: Number(saved[2]) });
    if (!found) throw new NotFoundError(`No saved prompt ${saved[1]} has a version ${saved[2]} (${prompt.version}).`, "prompts");
    sources.push({ version: prompt.version, fileName: prompt.version, text: found.text });
  }
  return sources;
}

/** A subset as the flags write it ("v1,v2"); a list is joined the same way. */
function subsetText(value: string | string[] | undefined): string | undefined {
  return value === undefined || typeof value === "string" ? value : value.join(",");
}

function pick(flag: SubsetFlag, value: string | string[] | undefined, available: string[]): string[] {
  const selected = selectSubset({ flag, value: subsetText(value), available });
  if (!selected.ok) throw new InvalidInputError(selected.error, `subset.${flag.slice(2)}`);
  return selected.names;
}

/**
 * Reads and checks a matrix (specs/matrix-comparisons.md): the subset chosen (the spec's message
 * for a list it cannot read, an unknown name named), each model routed (the spec's Groq short
 * names through the alias table), each prompt file read by its extension (.yaml/.yml/.json a
 * prompt of the eval spec with {input} fields and its own name and system text, anything else a
 * template with {{input}}), then the plan of lib/core/matrix: every prompt rendered with every
 * input (a placeholder left unfilled is a 400 before anything is stored or sent) and the estimate
 * from each model's applicable price. The evals and prompt sizes are checked before rendering,
 * the rendered sizes before anything is stored.
 */
export function checkMatrix(
  input: CreateMatrixInput,
  { sources, priceOf }: { sources: PromptSource[]; priceOf: (model: MatrixModel) => Price | null },
  limits: RunLimits = runLimitsFromEnv(),
): CheckedMatrix {
  const subset = input.subset ?? {};
  const versions = pick(
    "--prompts",
    subset.prompts,
    sources.map((source) => source.version),
  );
  const modelNames = pick("--models", subset.models, input.models);
  const inputIds = pick(
    subset.transcripts !== undefined ? "--transcripts" : "--inputs",
    subset.transcripts ?? subset.inputs,
    input.inputs.map((item) => item.id),
  );
  const providerIds = Object.keys(providerFactories);
  const models = modelNames.map((name) => {
    const resolved = resolveMatrixModel(name, providerIds);
    if (!resolved.ok) throw new InvalidInputError(resolved.error, "models");
    return resolved.model;
  });
  const chosenSources = versions.map((version) => sources.find((source) => source.version === version)!);
  const inputs = inputIds.map((id) => input.inputs.find((item) => item.id === id)!);

  // Every prompt version on every model for every input, counted before anything is rendered.
  checkCellCount(
    {
      field: "inputs",
      rows: inputs.length,
      columns: models.length * chosenSources.length,
      trials: 1,
      words: { rows: "inputs", columns: "prompt-version x model pairs", fewer: "inputs, prompt versions or models" },
    },
    limits,
  );
  const prompts = chosenSources.map((source) => readPrompt(source, limits));
  // Bounded before rendering: a prompt of a thousand {{input}} over a 2 MB input would render to 2 GB.
  checkRenderedSize(
    {
      field: "inputs",
      rowField: null,
      rowLengths: prompts.flatMap((prompt) => inputs.map((item) => renderedBound(prompt, item))),
      columns: models.length,
      trials: 1,
    },
    limits,
  );
  const plan = planMatrix({
    prompts,
    models,
    inputs,
    prices: Object.fromEntries(models.map((model) => [model.name, priceOf(model)])),
  });
  if (!plan.ok) throw new InvalidInputError(plan.errors.join("\n"), "prompts");

  // The rendered prompts of the first model are every prompt x input pair once.
  const firstModel = plan.tasks.filter((task) => task.model.name === models[0].name);
  const rendered = new Map(firstModel.map((task) => [`${task.promptVersion}\u0000${task.inputId}`, task]));
  const metrics = input.metrics ? checkMetrics(input, providerIds) : null;
  const grader = input.grader ? checkGrader(input.grader, providerIds, limits) : null;
  const rows: MatrixInputRow[] = inputs.map((item) => ({
    id: item.id,
    title: inputTitle(item),
    text: item.text,
    rendered: prompts.map((prompt) => {
      const task = rendered.get(`${prompt.version}\u0000${item.id}`)!;
      return { input: task.prompt, system: task.system };
    }),
    ...(metrics ? { metrics } : {}),
  }));
  const lengths = firstModel.map((task) => task.prompt.length + (task.system?.length ?? 0));
  checkRenderedSize({ field: "inputs", rowField: null, rowLengths: lengths, columns: models.length, trials: 1 }, limits);
  const stored = lengths.reduce((sum, length) => sum + length, 0);
  if (stored > MAX_MATRIX_RENDERED_CHARS) {
    throw new TooLargeError(
      `The prompts render to ${stored.toLocaleString("en-US")} characters over the inputs; at most ${MAX_MATRIX_RENDERED_CHARS.toLocaleString("en-US")} run in one matrix. Use fewer or shorter inputs or prompt versions.`,
      "inputs",
    );
  }
  return {
    plan: {
      prompts: plan.prompts,
      models: plan.models,
      inputs: plan.inputs,
      evals: plan.totals.evals,
      needsConfirmation: plan.needsConfirmation,
      estimate: {
        models: plan.perModel,
        inputTokens: plan.totals.inputTokens,
        outputTokens: plan.totals.outputTokens,
        costUsd: plan.totals.costUsd,
        unpricedModels: plan.totals.unpricedModels,
      },
    },
    prompts,
    fileNames: chosenSources.map((source) => source.fileName),
    models,
    inputs: rows,
    grader,
    metrics,
    gradingPerEval: models.map((model) => gradingPerEval({ model, grader, metrics, tasks: plan.tasks, inputs, priceOf })),
  };
}

/**
 * What grading one eval of model costs on average over its evals (lib/core/matrix/grading-estimate.ts),
 * so the budget reserves the grader's or judges' calls with the eval; 0 without grading.
 */
function gradingPerEval({
  model,
  grader,
  metrics,
  tasks,
  inputs,
  priceOf,
}: {
  model: MatrixModel;
  grader: CheckedMatrix["grader"];
  metrics: MatrixMetrics | null;
  tasks: readonly MatrixTask[];
  inputs: ReadonlyArray<{ id: string; text: string }>;
  priceOf: (model: MatrixModel) => Price | null;
}): number | null {
  const judges = metrics
    ? judgeMetrics(metrics.configs).map((metric) => ({ criteria: metric.criteria, model: metrics.judges[metric.name] ?? null }))
    : [];
  const grading: MatrixGradingPlan | null = grader
    ? { by: "grader", text: grader.text, model: grader.model }
    : judges.length > 0
      ? { by: "metrics", judges }
      : null;
  if (!grading) return 0;
  const own = tasks.filter((task) => task.model.name === model.name);
  let total = 0;
  for (const task of own) {
    const inputText = inputs.find((item) => item.id === task.inputId)?.text ?? "";
    const cost = gradingCostOfEval({ grading, task, inputText, priceOf: (target) => priceOf({ ...model, ...target }) });
    if (cost === null) return null;
    total += cost;
  }
  return own.length === 0 ? 0 : total / own.length;
}

/**
 * A matrix's metrics as the eval spec names and fills them (the first of a type is named by it,
 * the next response_length_2, ...), each llm_judge's own model routed like the matrix's models.
 * A matrix grades by a grader or by metrics, not both: both would write the cell's grader figures.
 */
function checkMetrics(input: CreateMatrixInput, providerIds: readonly string[]): MatrixMetrics {
  if (input.grader) throw new InvalidInputError("Give a grader or metrics, not both.", "metrics");
  const counts = new Map<string, number>();
  const judges: MatrixMetrics["judges"] = {};
  const configs = (input.metrics ?? []).map((metric, index): MetricConfig => {
    const count = (counts.get(metric.type) ?? 0) + 1;
    counts.set(metric.type, count);
    const name = count === 1 ? metric.type : `${metric.type}_${count}`;
    if (metric.type === "response_length") return { ...metric, name };
    if (metric.model !== null) {
      const resolved = resolveMatrixModel(metric.model, providerIds);
      if (!resolved.ok) throw new InvalidInputError(resolved.error, `metrics.${index}.model`);
      judges[name] = { provider: resolved.model.provider, model: resolved.model.model };
    }
    return { ...metric, name };
  });
  return { configs, judges };
}

/**
 * A grader of a matrix: its prompt must use {{output}}, and every other placeholder must be one a
 * matrix fills (input, transcript, input_id), so no grading call goes out half rendered. Its
 * model, when named, routes like the matrix's models.
 */
function checkGrader(
  grader: NonNullable<CreateMatrixInput["grader"]>,
  providerIds: readonly string[],
  limits: RunLimits,
): CheckedMatrix["grader"] {
  checkPromptSize({ field: "grader", what: "grader prompt", length: grader.text.length }, limits);
  const variables = detectVariables(grader.text);
  if (!variables.includes("output")) {
    throw new InvalidInputError("The grader prompt has no {{output}}: put {{output}} where the eval's answer goes.", "grader.text");
  }
  const unknown = variables.filter((name) => !GRADER_VARIABLES.includes(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(
      `The grader prompt's ${unknown.map((name) => `{{${name}}}`).join(", ")} has no value; a grader gets ${GRADER_VARIABLES.map((name) => `{{${name}}}`).join(", ")}.`,
      "grader.text",
    );
  }
  let model: MatrixModel | null = null;
  if (grader.model !== undefined) {
    const resolved = resolveMatrixModel(grader.model, providerIds);
    if (!resolved.ok) throw new InvalidInputError(resolved.error, "grader.model");
    model = resolved.model;
  }
  return { text: grader.text, model };
}

/** What a matrix's grader prompt is filled with (execute-matrix-cell.ts). */
const GRADER_VARIABLES = ["output", "input", "transcript", "input_id"];

/**
 * At least as long as the prompt rendered with the input: the template and system text, plus the
 * input's text for every place that could be an {{input}} or {{transcript}} (either syntax; a
 * literal {input} in a .txt counts too), plus its id for every {{input_id}}.
 */
function renderedBound(prompt: MatrixPromptVersion, item: { id: string; text: string }): number {
  const template = prompt.text + (prompt.system ?? "");
  const texts = template.match(/\{\s*(?:input|transcript)\s*\}/g)?.length ?? 0;
  const ids = template.match(/\{\s*input_id\s*\}/g)?.length ?? 0;
  return template.length + texts * item.text.length + ids * item.id.length;
}

function readPrompt(source: PromptSource, limits: RunLimits): MatrixPromptVersion {
  checkPromptSize({ field: "prompts", what: `prompt version ${source.version}`, length: source.text.length }, limits);
  if (/\.(ya?ml|json)$/i.test(source.fileName)) {
    const parsed = parsePromptFile(source.text, { fileName: source.fileName });
    if (!parsed.ok) {
      throw new InvalidInputError(parsed.errors.map((problem) => formatConfigProblem(problem, source.fileName)).join("\n"), "prompts");
    }
    const { prompt } = parsed;
    return { version: source.version, name: prompt.name, format: "yaml", text: prompt.template, system: prompt.system };
  }
  return { version: source.version, name: null, format: /\.md$/i.test(source.fileName) ? "md" : "txt", text: source.text, system: null };
}

/** Checks a matrix in tx: its saved prompts read, each model's applicable price from the caller's and the shipped ones. */
async function checkMatrixIn(tx: Queryable, input: CreateMatrixInput, limits: RunLimits): Promise<CheckedMatrix> {
  const sources = await promptSources(tx, input.prompts);
  const stored = await priceBook(tx);
  const priceOf = (model: MatrixModel) =>
    applicablePrice({ provider: model.provider, model: model.model, stored: stored.get(`${model.provider}/${model.model}`) ?? null });
  return checkMatrix(input, { sources, priceOf }, limits);
}

/**
 * A dry run (dryRun=true): the prompts, models, inputs, evals and the estimate per model.
 * Nothing is stored and nothing sent.
 */
export async function dryRunMatrix(
  { db, limits = runLimitsFromEnv() }: CreateMatrixDeps,
  { userId, input }: { userId: string; input: CreateMatrixInput },
): Promise<MatrixPlanResponse> {
  return asUser(db, userId, async (tx) => (await checkMatrixIn(tx, input, limits)).plan);
}

/**
 * Creates a matrix run for userId: kind `matrix`, each prompt version an immutable prompt version
 * (a cell's variant), one column per model, the inputs with their rendered prompts as a dataset
 * (a cell's row), and one cell per prompt version x model x input, queued in one transaction. Its
 * concurrency (3 by default) is the run's cap, held where the workers claim cells; its budget the
 * engine's. The cells follow execute-matrix-cell.ts.
 */
export async function createMatrix(
  { db, limits = runLimitsFromEnv(), now = () => new Date() }: CreateMatrixDeps,
  { userId, input }: { userId: string; input: CreateMatrixInput },
): Promise<MatrixSummary> {
  return asUser(db, userId, async (tx) => {
    const checked = await checkMatrixIn(tx, input, limits);
    const { estimate } = checked.plan;
    checkQueuedCells({ queued: await countQueuedCells(tx, { userId }), adding: checked.plan.evals }, limits);
    const startedAt = new Date(Math.floor(now().getTime() / 1000) * 1000);
    const matrix: MatrixPlan = {
      batchId: batchId(startedAt),
      timestamp: startedAt.toISOString().replace(".000Z", "Z"),
      prompts: checked.prompts.map(({ version, name, system }, index) => ({ version, name, fileName: checked.fileNames[index], system })),
      models: checked.models,
      inputs: checked.inputs.map(({ id, title }): MatrixInput => ({ id, title })),
      comparisons: input.comparisons,
      grader: checked.grader ? { model: checked.grader.model?.name ?? null } : null,
      metrics: checked.metrics ? checked.metrics.configs.map(({ name, type }) => ({ name, type })) : null,
      estimate,
    };
    const promptVersionIds: string[] = [];
    for (const prompt of checked.prompts) {
      promptVersionIds.push(
        await insertPromptVersion(tx, {
          promptId: null,
          version: 1,
          name: prompt.version,
          type: "generator",
          text: prompt.text,
          textHash: hashText(prompt.text),
        }),
      );
    }
    const graderVersionId = checked.grader
      ? await insertPromptVersion(tx, {
          promptId: null,
          version: 1,
          name: "grader",
          type: "grader",
          text: checked.grader.text,
          textHash: hashText(checked.grader.text),
        })
      : null;
    const graderModel = checked.grader?.model ?? null;
    const datasetId = await insertMatrixInputs(tx, { name: matrix.batchId, inputs: checked.inputs });
    const runId = await insertRun(tx, {
      kind: "matrix",
      promptId: null,
      promptVersionId: promptVersionIds[0],
      graderPromptId: null,
      graderVersionId,
      graderModel: graderModel ? { provider: graderModel.provider, model: graderModel.model } : null,
      datasetId,
      rowCount: checked.inputs.length,
      trials: 1,
      concurrency: input.concurrency,
      providerConcurrency: {},
      maxAttempts: input.retries + 1,
      timeoutMs: Math.round(input.timeoutSeconds * 1000),
      cache: input.cache,
      budgetUsd: input.budgetUsd ?? null,
      budgetMode: input.budgetUsd == null ? "off" : "estimate",
      columns: checked.models.map((model, index) => ({
        provider: model.provider,
        model: model.model,
        params: {},
        estimatedCostPerCell: perCell(estimate.models[index], checked.gradingPerEval[index]),
      })),
      kindConfig: { matrix },
    });
    await insertMatrixCells(tx, { runId, promptVersionIds, inputs: checked.inputs.length });
    await queuePlannedRun(tx, { runId });
    return toMatrixSummary((await getMatrixRun(tx, { id: runId }))!);
  });
}

/**
 * A model's estimated cost of one eval with its grading, for the budget's in-flight estimate;
 * null when the model is unpriced. An unpriced grading model adds nothing it could name: the
 * eval's own cost is then the floor, and what the grading spends still counts once it is paid.
 */
function perCell(model: MatrixEstimate["models"][number] | undefined, grading: number | null | undefined): number | null {
  if (!model || model.costUsd === null || model.evals === 0) return null;
  return model.costUsd / model.evals + (grading ?? 0);
}

/** A stored matrix run as the API answers it. */
export function toMatrixSummary(stored: StoredMatrixRun): MatrixSummary {
  const { plan } = stored;
  const evals = plan.prompts.length * plan.models.length * plan.inputs.length;
  return {
    id: stored.id,
    batchId: plan.batchId,
    status: stored.status,
    plan: {
      prompts: plan.prompts.map((prompt) => prompt.version),
      models: plan.models.map((model) => model.name),
      inputs: plan.inputs.map((item) => item.id),
      evals,
      needsConfirmation: evals > CONFIRMATION_THRESHOLD,
      estimate: plan.estimate,
    },
    counts: stored.counts,
    createdAt: stored.createdAt,
    finishedAt: stored.finishedAt,
  };
}
