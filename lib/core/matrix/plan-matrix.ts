/**
 * A matrix's plan (specs/matrix-comparisons.md): every prompt version x model x input, each eval
 * with its rendered prompt, its estimated tokens and cost, before any call is made.
 *
 * Order, stable and the same on every run: prompt versions in the order given, then models, then
 * inputs, inputs changing fastest (v1+llama+tech-talk-01, v1+llama+interview-02, ..., as the
 * spec's batch summary lists its runs).
 *
 * Templates: a .txt or .md prompt uses `{{variable}}` (lib/core/template.ts), a .yaml prompt of
 * the eval spec uses `{variable}` (lib/core/eval/format-template.ts). Either gets `input` (the
 * input's text), `transcript` (the same, the spec's name) and `input_id`. A placeholder left
 * unfilled is an error naming prompt, input and placeholder, and nothing runs.
 *
 * Estimates: input tokens are the project's estimate (characters / 4, lib/core/tokens.ts) of the
 * rendered prompt and its system text; output tokens are a fixed guess per eval (below) unless
 * the caller passes one; cost per model from its price (lib/core/cost.ts), null when unpriced.
 */
import { computeCost, type Price } from "@/lib/core/cost";
import { TemplateError, formatTemplate, templateVariables } from "@/lib/core/eval/format-template";
import type { MatrixModel } from "@/lib/core/matrix/model-aliases";
import { renderTemplate } from "@/lib/core/template";
import { estimateTokens } from "@/lib/core/tokens";

/** The file formats a prompt version comes in. */
export type PromptFormat = "txt" | "md" | "yaml";

/** One prompt version: a file of prompts/ (v1.txt is version v1) or a saved prompt (name@v3). */
export interface MatrixPromptVersion {
  /** The version the user names it by (v1, summary@v3). */
  version: string;
  /** The prompt's name when the file has one (a .yaml prompt's name:), else null. */
  name: string | null;
  format: PromptFormat;
  /** The template: the whole file for .txt and .md, the template: of a .yaml prompt. */
  text: string;
  /** A .yaml prompt's system:, null for none. */
  system: string | null;
}

/** One input (a transcript): a file of inputs/ or transcripts/, its name the id. */
export interface MatrixInput {
  id: string;
  text: string;
}

/** One eval of the plan. */
export interface MatrixTask {
  /** 0-based place in the plan's order. */
  index: number;
  promptVersion: string;
  promptName: string | null;
  model: MatrixModel;
  inputId: string;
  inputTitle: string;
  /** The user message sent. */
  prompt: string;
  system: string | null;
  estimatedInputTokens: number;
  estimatedOutputTokens: number;
  /** Null when the model has no price. */
  estimatedCostUsd: number | null;
}

/** The estimate for one model over all its evals. */
export interface ModelEstimate {
  model: string;
  evals: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when the model has no price: unknown, never $0. */
  costUsd: number | null;
}

/** The estimate for the whole matrix. */
export interface EstimateTotals {
  evals: number;
  /** How many models the matrix runs. */
  models: number;
  inputTokens: number;
  outputTokens: number;
  /** The priced models' evals only; unpricedModels says which models it leaves out. */
  costUsd: number;
  unpricedModels: string[];
}

/** The plan of a matrix, or why there is none. */
export type MatrixPlan =
  | {
      ok: true;
      tasks: MatrixTask[];
      prompts: string[];
      models: string[];
      inputs: string[];
      perModel: ModelEstimate[];
      totals: EstimateTotals;
      /** More than CONFIRMATION_THRESHOLD evals: ask before running. */
      needsConfirmation: boolean;
    }
  | { ok: false; errors: string[] };

/**
 * Output tokens guessed per eval when the caller gives no number: the spec's example summaries
 * have 780 to 1,020 output tokens, so 1,000 keeps the estimate on the safe side of them.
 */
export const DEFAULT_ESTIMATED_OUTPUT_TOKENS = 1_000;

/** The spec's error table: a matrix of more than 100 evals asks before it runs. */
export const CONFIRMATION_THRESHOLD = 100;

/**
 * At most this many evals in one matrix, refused before any prompt is rendered. 10,000 evals at
 * the default 3 concurrent calls of a few seconds each is already most of a day.
 */
export const MAX_MATRIX_EVALS = 10_000;

// A plan with every input missing a placeholder would name thousands of pairs; the first ones say it.
const MAX_ERRORS_LISTED = 20;

/** An input's title: its first `# ` heading, else its id. */
export function inputTitle(input: MatrixInput): string {
  for (const line of input.text.split(/\r?\n/)) {
    // A closing run of #s counts only after a space, as in CommonMark: "# C#" is titled "C#".
    const match = /^# +(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (match && match[1] !== "") return match[1];
  }
  return input.id;
}

/** The spec's question for a big matrix: "This will run 120 evals. Estimated cost: $X. Continue? [y/N]". */
export function confirmationQuestion(totals: EstimateTotals): string {
  return `This will run ${totals.evals} evals. Estimated cost: ${estimatedCostText(totals)}. Continue? [y/N]`;
}

/**
 * An estimated total: $0.1234; with the models it leaves out when some have no price
 * ("$0.0120 (not counting 1 unpriced model)"); unknown when none has one.
 */
export function estimatedCostText({
  costUsd,
  models,
  unpricedModels,
}: Pick<EstimateTotals, "costUsd" | "models" | "unpricedModels">): string {
  if (models > 0 && unpricedModels.length === models) return "unknown";
  const dollars = `$${costUsd.toFixed(4)}`;
  if (unpricedModels.length === 0) return dollars;
  return `${dollars} (not counting ${unpricedModels.length} unpriced model${unpricedModels.length === 1 ? "" : "s"}: ${unpricedModels.join(", ")})`;
}

/**
 * The plan of prompts x models x inputs. prices gives each model's price by its name as written
 * (MatrixModel.name); a model missing there is unpriced.
 */
export function planMatrix({
  prompts,
  models,
  inputs,
  prices,
  estimatedOutputTokens = DEFAULT_ESTIMATED_OUTPUT_TOKENS,
}: {
  prompts: readonly MatrixPromptVersion[];
  models: readonly MatrixModel[];
  inputs: readonly MatrixInput[];
  prices: Readonly<Record<string, Price | null>>;
  estimatedOutputTokens?: number;
}): MatrixPlan {
  const errors = [
    ...duplicates(
      prompts.map((prompt) => prompt.version),
      "prompt version",
    ),
    ...duplicates(
      models.map((model) => model.name),
      "model",
    ),
    ...duplicates(
      inputs.map((input) => input.id),
      "input",
    ),
  ];
  if (prompts.length === 0) errors.push("No prompt versions to run");
  if (models.length === 0) errors.push("No models to run");
  if (inputs.length === 0) errors.push("No inputs to run");
  if (errors.length > 0) return { ok: false, errors };
  const evals = prompts.length * models.length * inputs.length;
  if (evals > MAX_MATRIX_EVALS) {
    return {
      ok: false,
      errors: [
        `${prompts.length} prompts x ${models.length} models x ${inputs.length} inputs is ${evals} evals, more than the ${MAX_MATRIX_EVALS} one matrix may run; choose a subset with --prompts, --models or --inputs`,
      ],
    };
  }

  // Rendering depends on prompt and input only: once per pair, not once per model.
  const rendered = new Map<string, { prompt: string; inputTokens: number }>();
  const renderErrors: string[] = [];
  for (const prompt of prompts) {
    for (const input of inputs) {
      const result = renderPrompt(prompt, input);
      if (!result.ok) {
        renderErrors.push(...result.errors);
        continue;
      }
      const inputTokens = estimateTokens(result.text) + (prompt.system ? estimateTokens(prompt.system) : 0);
      rendered.set(pairKey(prompt.version, input.id), { prompt: result.text, inputTokens });
    }
  }
  if (renderErrors.length > 0) {
    const listed = renderErrors.slice(0, MAX_ERRORS_LISTED);
    if (renderErrors.length > listed.length) listed.push(`... and ${renderErrors.length - listed.length} more`);
    return { ok: false, errors: listed };
  }

  const titles = new Map(inputs.map((input) => [input.id, inputTitle(input)]));
  const tasks: MatrixTask[] = [];
  const perModel = new Map<string, ModelEstimate>(
    models.map((model) => [model.name, { model: model.name, evals: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 as number | null }]),
  );
  for (const prompt of prompts) {
    for (const model of models) {
      const price = prices[model.name] ?? null;
      const estimate = perModel.get(model.name)!;
      for (const input of inputs) {
        const { prompt: text, inputTokens } = rendered.get(pairKey(prompt.version, input.id))!;
        const cost = computeCost({ tokensIn: inputTokens, tokensOut: estimatedOutputTokens, price });
        tasks.push({
          index: tasks.length,
          promptVersion: prompt.version,
          promptName: prompt.name,
          model,
          inputId: input.id,
          inputTitle: titles.get(input.id)!,
          prompt: text,
          system: prompt.system,
          estimatedInputTokens: inputTokens,
          estimatedOutputTokens,
          estimatedCostUsd: cost,
        });
        estimate.evals += 1;
        estimate.inputTokens += inputTokens;
        estimate.outputTokens += estimatedOutputTokens;
        estimate.costUsd = estimate.costUsd === null || cost === null ? null : estimate.costUsd + cost;
      }
    }
  }
  const estimates = [...perModel.values()];
  return {
    ok: true,
    tasks,
    prompts: prompts.map((prompt) => prompt.version),
    models: models.map((model) => model.name),
    inputs: inputs.map((input) => input.id),
    perModel: estimates,
    totals: {
      evals: tasks.length,
      models: models.length,
      inputTokens: sum(estimates.map((estimate) => estimate.inputTokens)),
      outputTokens: sum(estimates.map((estimate) => estimate.outputTokens)),
      costUsd: sum(estimates.map((estimate) => estimate.costUsd ?? 0)),
      unpricedModels: estimates.filter((estimate) => estimate.costUsd === null).map((estimate) => estimate.model),
    },
    needsConfirmation: tasks.length > CONFIRMATION_THRESHOLD,
  };
}

/** The prompt version's template filled for one input, or the errors naming prompt, input and placeholder. */
export function renderPrompt(
  prompt: MatrixPromptVersion,
  input: MatrixInput,
): { ok: true; text: string } | { ok: false; errors: string[] } {
  const variables = { input: input.text, transcript: input.text, input_id: input.id };
  const where = `prompt ${prompt.version} with input ${input.id}`;
  if (prompt.format === "yaml") {
    try {
      const unfilled = templateVariables(prompt.text).filter((name) => !Object.prototype.hasOwnProperty.call(variables, name));
      if (unfilled.length > 0)
        return {
          ok: false,
          errors: unfilled.map((name) => `Placeholder {${name}} in ${where} has no value (known: input, transcript, input_id)`),
        };
      return { ok: true, text: formatTemplate(prompt.text, variables, input.id) };
    } catch (error) {
      if (error instanceof TemplateError) return { ok: false, errors: [`Template of ${where}: ${error.message}`] };
      throw error;
    }
  }
  const result = renderTemplate(prompt.text, variables);
  if (result.missing.length > 0) {
    return {
      ok: false,
      errors: result.missing.map((name) => `Placeholder {{${name}}} in ${where} has no value (known: input, transcript, input_id)`),
    };
  }
  return { ok: true, text: result.text };
}

function duplicates(names: readonly string[], what: string): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const name of names) (seen.has(name) ? twice : seen).add(name);
  return [...twice].map((name) => `The ${what} "${name}" is named twice`);
}

function pairKey(version: string, inputId: string): string {
  return JSON.stringify([version, inputId]);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
