import type { CreateMatrixInput, MatrixPlanResponse, MatrixSummary } from "@/lib/api/matrix";
import { hashText } from "@/lib/core/cache-key";
import { formatConfigProblem } from "@/lib/core/eval/config";
import { formatTemplate, TemplateError } from "@/lib/core/eval/format-template";
import { parsePromptFile } from "@/lib/core/eval/prompt-file";
import { batchId } from "@/lib/core/matrix/ids";
import { resolveMatrixModel, type MatrixModel } from "@/lib/core/matrix/model-aliases";
import { renderTemplate } from "@/lib/core/template";
import { computeCost, type Price } from "@/lib/core/cost";
import { estimateTokens } from "@/lib/core/tokens";
import { asUser } from "@/lib/db/as-user";
import type { Database, Queryable } from "@/lib/db/database";
import { findSavedPromptVersion } from "@/lib/db/matrix/find-saved-prompt-version";
import { getMatrixRun, type StoredMatrixRun } from "@/lib/db/matrix/get-matrix-run";
import { insertMatrixCells } from "@/lib/db/matrix/insert-matrix-cells";
import { insertMatrixInputs } from "@/lib/db/matrix/insert-matrix-inputs";
import type { MatrixEstimate, MatrixInput, MatrixInputRow, MatrixPlan, MatrixPromptVersion } from "@/lib/db/matrix/matrix-plan";
import { priceBook } from "@/lib/db/pricing/pricing";
import { countQueuedCells } from "@/lib/db/runs/count-queued-cells";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { queuePlannedRun } from "@/lib/db/runs/queue-planned-run";
import { providerFactories } from "@/lib/providers/provider-factories";
import { applicablePrice } from "./applicable-price";
import { InvalidInputError, NotFoundError, TooLargeError } from "./errors";
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

/** A matrix's request read and checked: everything its run needs, before any query but the saved prompts. */
export interface CheckedMatrix {
  /** Each version's template; yaml: a prompt of the eval spec, whose fields are {input}, else {{input}}. */
  prompts: Array<MatrixPromptVersion & { template: string; yaml: boolean }>;
  models: MatrixModel[];
  inputs: MatrixInputRow[];
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

/** The input's title: its first `# ` heading, else its id. */
export function inputTitle(input: { id: string; text: string }): string {
  const heading = /^# +(.+?)\s*#*\s*$/m.exec(input.text);
  return heading ? heading[1] : input.id;
}

/**
 * Reads and checks a matrix (specs/matrix-comparisons.md): the subset chosen (the spec's message
 * for a list it cannot read, an unknown name named), each model routed (the spec's Groq short
 * names through the alias table), each prompt file read by its extension (.yaml/.yml/.json a
 * prompt of the eval spec with {input} fields and its own name and system text, anything else a
 * template with {{input}}), and every prompt rendered with every input: a placeholder left
 * unfilled is a 400 before anything is stored or sent. Sizes are checked before rendering.
 */
export function checkMatrix(input: CreateMatrixInput, sources: PromptSource[], limits: RunLimits = runLimitsFromEnv()): CheckedMatrix {
  const chosen = selectMatrix({
    prompts: sources.map((source) => source.version),
    models: input.models,
    inputs: input.inputs.map((item) => item.id),
    subset: input.subset,
  });
  const providerIds = Object.keys(providerFactories);
  const models = chosen.models.map((name) => {
    const resolved = resolveMatrixModel(name, providerIds);
    if (!resolved.ok) throw new InvalidInputError(resolved.error, "models");
    return resolved.model;
  });
  const promptSourcesChosen = chosen.prompts.map((version) => sources.find((source) => source.version === version)!);
  const inputsChosen = chosen.inputs.map((id) => input.inputs.find((item) => item.id === id)!);

  // Every prompt version on every model for every input, counted before anything is rendered.
  checkCellCount({ field: "inputs", rows: inputsChosen.length, columns: models.length * promptSourcesChosen.length, trials: 1 }, limits);

  const prompts = promptSourcesChosen.map((source) => readPrompt(source, limits));
  const inputs: MatrixInputRow[] = inputsChosen.map((item) => ({
    id: item.id,
    title: inputTitle(item),
    text: item.text,
    rendered: prompts.map((prompt) => ({ input: render(prompt, item), system: prompt.system })),
  }));
  const lengths = inputs.flatMap((row) => row.rendered.map((rendered) => rendered.input.length + (rendered.system?.length ?? 0)));
  checkRenderedSize({ field: "inputs", rowField: null, rowLengths: lengths, columns: models.length, trials: 1 }, limits);
  const stored = lengths.reduce((sum, length) => sum + length, 0);
  if (stored > MAX_MATRIX_RENDERED_CHARS) {
    throw new TooLargeError(
      `The prompts render to ${stored.toLocaleString("en-US")} characters over the inputs; at most ${MAX_MATRIX_RENDERED_CHARS.toLocaleString("en-US")} run in one matrix. Use fewer or shorter inputs or prompt versions.`,
      "inputs",
    );
  }
  return { prompts, models, inputs };
}

function readPrompt(source: PromptSource, limits: RunLimits): CheckedMatrix["prompts"][number] {
  checkPromptSize({ field: "prompts", what: `prompt version ${source.version}`, length: source.text.length }, limits);
  if (/\.(ya?ml|json)$/i.test(source.fileName)) {
    const parsed = parsePromptFile(source.text, { fileName: source.fileName });
    if (!parsed.ok) {
      throw new InvalidInputError(parsed.errors.map((problem) => formatConfigProblem(problem, source.fileName)).join("\n"), "prompts");
    }
    const { prompt } = parsed;
    return {
      version: source.version,
      name: prompt.name,
      fileName: source.fileName,
      system: prompt.system,
      template: prompt.template,
      yaml: true,
    };
  }
  return { version: source.version, name: null, fileName: source.fileName, system: null, template: source.text, yaml: false };
}

/**
 * A prompt rendered with one input: its text as {{input}} (or {input} in a YAML prompt), also
 * {{transcript}}, and its id as {{input_id}}. A placeholder without a value is an error.
 */
function render(prompt: CheckedMatrix["prompts"][number], item: { id: string; text: string }): string {
  const variables = { input: item.text, transcript: item.text, input_id: item.id };
  if (prompt.yaml) {
    try {
      return formatTemplate(prompt.template, variables, item.id);
    } catch (error) {
      if (error instanceof TemplateError) {
        throw new InvalidInputError(
          `${prompt.fileName}: ${error.message}. A matrix fills {input}, {transcript} and {input_id}.`,
          "prompts",
        );
      }
      throw error;
    }
  }
  const rendered = renderTemplate(prompt.template, variables);
  if (rendered.missing.length > 0) {
    throw new InvalidInputError(
      `${prompt.fileName}: ${rendered.missing.map((name) => `{{${name}}}`).join(", ")} has no value for input ${item.id}. ` +
        "A matrix fills {{input}} (also {{transcript}}) with the input's text and {{input_id}} with its id; remove or rename the others.",
      "prompts",
    );
  }
  return rendered.text;
}

/** The plan of a checked matrix: its names, evals and estimate, with each model's applicable price. */
async function planOf(tx: Queryable, checked: CheckedMatrix): Promise<{ plan: MatrixPlanResponse; estimate: MatrixEstimate }> {
  const stored = await priceBook(tx);
  const estimate = estimateMatrix({
    models: checked.models.map((model) => ({
      name: model.name,
      price: applicablePrice({
        provider: model.provider,
        model: model.model,
        stored: stored.get(`${model.provider}/${model.model}`) ?? null,
      }),
    })),
    renderedInputs: checked.inputs.flatMap((row) => row.rendered.map((rendered) => (rendered.system ?? "") + rendered.input)),
  });
  return {
    plan: {
      prompts: checked.prompts.map((prompt) => prompt.version),
      models: checked.models.map((model) => model.name),
      inputs: checked.inputs.map((row) => row.id),
      evals: checked.prompts.length * checked.models.length * checked.inputs.length,
      estimate,
    },
    estimate,
  };
}

/**
 * A dry run (dryRun=true): the prompts, models, inputs, evals and the estimate per model.
 * Nothing is stored and nothing sent.
 */
export async function planMatrix(
  { db, limits = runLimitsFromEnv() }: CreateMatrixDeps,
  { userId, input }: { userId: string; input: CreateMatrixInput },
): Promise<MatrixPlanResponse> {
  return asUser(db, userId, async (tx) => {
    const checked = checkMatrix(input, await promptSources(tx, input.prompts), limits);
    return (await planOf(tx, checked)).plan;
  });
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
    const checked = checkMatrix(input, await promptSources(tx, input.prompts), limits);
    const cells = checked.prompts.length * checked.models.length * checked.inputs.length;
    checkQueuedCells({ queued: await countQueuedCells(tx, { userId }), adding: cells }, limits);
    const { estimate } = await planOf(tx, checked);
    const startedAt = new Date(Math.floor(now().getTime() / 1000) * 1000);
    const matrix: MatrixPlan = {
      batchId: batchId(startedAt),
      timestamp: startedAt.toISOString().replace(".000Z", "Z"),
      prompts: checked.prompts.map(({ version, name, fileName, system }) => ({ version, name, fileName, system })),
      models: checked.models,
      inputs: checked.inputs.map(({ id, title }): MatrixInput => ({ id, title })),
      comparisons: input.comparisons,
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
          text: prompt.template,
          textHash: hashText(prompt.template),
        }),
      );
    }
    const datasetId = await insertMatrixInputs(tx, { name: matrix.batchId, inputs: checked.inputs });
    const runId = await insertRun(tx, {
      kind: "matrix",
      promptId: null,
      promptVersionId: promptVersionIds[0],
      graderPromptId: null,
      graderVersionId: null,
      graderModel: null,
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
        estimatedCostPerCell: perCell(estimate.models[index]),
      })),
      kindConfig: { matrix },
    });
    await insertMatrixCells(tx, { runId, promptVersionIds, inputs: checked.inputs.length });
    await queuePlannedRun(tx, { runId });
    return toMatrixSummary((await getMatrixRun(tx, { id: runId }))!);
  });
}

/** A model's estimated cost of one eval, for the budget's in-flight estimate; null when unpriced. */
function perCell(model: MatrixEstimate["models"][number] | undefined): number | null {
  if (!model || model.costUsd === null || model.evals === 0) return null;
  return model.costUsd / model.evals;
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
      estimate: plan.estimate,
    },
    counts: stored.counts,
    createdAt: stored.createdAt,
    finishedAt: stored.finishedAt,
  };
}

// TEMPORARY until lib/core/matrix/select-subset.ts and plan-matrix.ts land.
function selectMatrix({
  prompts,
  models,
  inputs,
  subset,
}: {
  prompts: string[];
  models: string[];
  inputs: string[];
  subset: CreateMatrixInput["subset"];
}): { prompts: string[]; models: string[]; inputs: string[] } {
  const pick = (all: string[], asked: string | string[] | undefined, flag: string): string[] => {
    if (asked === undefined) return all;
    const names = (typeof asked === "string" ? asked.split(",") : asked).map((name) => name.trim());
    if (names.length === 0 || names.some((name) => name === "")) {
      throw new InvalidInputError(`--${flag} must be comma-separated names (e.g., ${all.slice(0, 3).join(",")})`, `subset.${flag}`);
    }
    for (const name of names) {
      if (!all.includes(name)) throw new InvalidInputError(`--${flag}: unknown ${name}; known: ${all.join(", ")}`, `subset.${flag}`);
    }
    return [...new Set(names)];
  };
  return {
    prompts: pick(prompts, subset?.prompts, "prompts"),
    models: pick(models, subset?.models, "models"),
    inputs: pick(inputs, subset?.inputs, "inputs"),
  };
}

const ASSUMED_OUTPUT_TOKENS = 1000;

function estimateMatrix({
  models,
  renderedInputs,
}: {
  models: Array<{ name: string; price: Price | null }>;
  renderedInputs: string[];
}): MatrixEstimate {
  const inputTokens = renderedInputs.reduce((sum, text) => sum + estimateTokens(text), 0);
  const outputTokens = renderedInputs.length * ASSUMED_OUTPUT_TOKENS;
  const perModel = models.map((model) => ({
    model: model.name,
    evals: renderedInputs.length,
    inputTokens,
    outputTokens,
    costUsd: computeCost({ tokensIn: inputTokens, tokensOut: outputTokens, price: model.price }),
  }));
  return {
    models: perModel,
    inputTokens: inputTokens * models.length,
    outputTokens: outputTokens * models.length,
    costUsd: perModel.reduce((sum, model) => sum + (model.costUsd ?? 0), 0),
    unpricedModels: perModel.filter((model) => model.costUsd === null).length,
  };
}
