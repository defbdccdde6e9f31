import { computeCost, type Price } from "@/lib/core/cost";
import { chooseTokenizerSample } from "@/lib/core/tokenizer-sample";
import { estimateTokens, estimateTokensFromLength } from "@/lib/core/tokens";
import type { Queryable } from "@/lib/db/database";
import { averageGraderOutputTokens } from "@/lib/db/pricing/average-grader-output-tokens";
import { modelKey, readModelHistories, type ModelHistory } from "@/lib/db/pricing/pricing";
import { applicablePrice } from "./applicable-price";

/** What a run will cost before it starts, per model and in total. */
export interface RunPlanEstimate {
  cells: number;
  models: Array<{
    provider: string;
    model: string;
    cells: number;
    inputTokens: number;
    /**
     * tokenizer: the model's own tokenizer over every row (local models); tokenizer-sample: over
     * a sample of the rows (a large run), scaling our estimate of the rest by the sample's ratio;
     * estimate: characters / 4.
     */
    inputTokensMethod: "tokenizer" | "tokenizer-sample" | "estimate";
    outputTokens: number | null;
    outputTokensSource: "maxTokens" | "history" | "unknown";
    /** Null when the price or the output tokens are unknown (then see lowerBoundUsd). */
    costUsd: number | null;
    /** The input's cost alone when the output's is unknown: what the model will cost at least. */
    lowerBoundUsd: number | null;
    /** Generator and grader together per cell (the grader's floor when its output is unknown); null when unknown. */
    costPerCellUsd: number | null;
    priced: boolean;
    /** The model grading this column's cells, or null without a grader. */
    graderModel: { provider: string; model: string } | null;
    /** The grader's input: its prompt with each row and the generator's expected answer. */
    graderInputTokens: number | null;
    /** The grader's output, from its earlier grades on this model; null when unknown. */
    graderOutputTokens: number | null;
    /** The grading of this column's cells; null when unknown (then see graderLowerBoundUsd). */
    graderCostUsd: number | null;
    graderLowerBoundUsd: number | null;
  }>;
  /** Sum of the known costs, generator and grader, and of the floors of the others. */
  totalCostUsd: number;
  /** True when some model's cost is unknown, so the total is a lower bound. */
  totalIsLowerBound: boolean;
  unpriced: string[];
}

// A real tokenizer counts every row up to these sizes, and a sample of them beyond: tokenizing
// is CPU on the server's thread (and, on PGlite, the database's), and a run may be gigabytes.
const tokenizeAllMaxRows = 2_000;
const tokenizeMaxChars = 2_000_000;

/**
 * Estimates a run as the calling user: input tokens from each row's rendered length (never the
 * rendered text: a 1 MB prompt x 6,000 rows is 6 GB), or from the model's tokenizer over the
 * rows or a sample of them; output tokens from the column's maxTokens or else the model's
 * average in the user's earlier runs; prices from the user's list or else the shipped reference.
 */
export async function planRun(
  tx: Queryable,
  input: {
    /** Code points of each row's rendered input (one entry, the template alone, for a run without rows). */
    rowLengths: ArrayLike<number>;
    /** The rendered inputs of the given rows, for a tokenizer; called only when a column has one. */
    renderRows: (rowIndexes: number[]) => Promise<string[]>;
    columns: Array<{ provider: string; model: string; params: Record<string, unknown> }>;
    trials: number;
    /** The model's tokenizer, when its provider has one; null otherwise. */
    tokenizerFor?: (column: { provider: string; model: string }) => Promise<((text: string) => Promise<number>) | null>;
    /** The grader: the code points of its prompt rendered with each row (no answer yet), and its model. */
    grader?: { rowLengths: ArrayLike<number>; model: { provider: string; model: string } } | null;
  },
): Promise<RunPlanEstimate> {
  const rowCount = Math.max(1, input.rowLengths.length);
  let estimated = 0;
  for (let index = 0; index < input.rowLengths.length; index++) estimated += estimateTokensFromLength(input.rowLengths[index]);
  const sample = chooseTokenizerSample(input.rowLengths, { maxRows: tokenizeAllMaxRows, maxChars: tokenizeMaxChars });
  let sampleTexts: Promise<string[]> | null = null;
  const models: RunPlanEstimate["models"] = [];
  // Every model's price and output history in one read (a column with maxTokens needs no history).
  const histories = await readModelHistories(tx, [
    ...input.columns.map((column) => ({ provider: column.provider, model: column.model, history: maxTokensOf(column) == null })),
    ...(input.grader ? [{ ...input.grader.model, history: false }] : []),
  ]);
  const historyOf = (model: { provider: string; model: string }): ModelHistory =>
    histories.get(modelKey(model)) ?? { price: null, averageOutputTokens: null };
  const grading = input.grader ? await planGrading(tx, input.grader, historyOf(input.grader.model).price) : null;
  for (const column of input.columns) {
    const cells = rowCount * input.trials;
    const tokenize = (await input.tokenizerFor?.(column)) ?? null;
    let perTrial = estimated;
    let method: RunPlanEstimate["models"][number]["inputTokensMethod"] = "estimate";
    if (tokenize && sample.rowIndexes.length > 0) {
      sampleTexts ??= input.renderRows(sample.rowIndexes);
      let counted = 0;
      let sampleEstimate = 0;
      for (const text of await sampleTexts) {
        counted += await tokenize(text);
        sampleEstimate += estimateTokens(text);
      }
      if (sample.complete) {
        perTrial = counted;
        method = "tokenizer";
      } else if (sampleEstimate > 0) {
        perTrial = Math.round(estimated * (counted / sampleEstimate));
        method = "tokenizer-sample";
      }
    }
    const inputTokens = perTrial * input.trials;
    const maxTokens = maxTokensOf(column);
    const { price: stored, averageOutputTokens: average } = historyOf(column);
    const history = maxTokens == null ? average : null;
    const perCellOut = maxTokens ?? (history == null ? null : Math.round(history));
    const price = applicablePrice({ provider: column.provider, model: column.model, stored });
    const outputTokens = perCellOut == null ? null : perCellOut * cells;
    // Output free, or its count known: the cost is known. Otherwise the input's cost is a floor.
    const outputFree = price?.outputPerMTok === 0;
    const costUsd = computeCost({ tokensIn: inputTokens, tokensOut: outputTokens ?? (outputFree ? 0 : null), price });
    const floorUsd = costUsd ?? computeCost({ tokensIn: inputTokens, tokensOut: 0, price });
    const grader = grading ? grading.cost({ generatorTokensPerCell: perCellOut, cells, trials: input.trials }) : null;
    const graderPerCell = grader ? (grader.costUsd ?? grader.lowerBoundUsd) : 0;
    models.push({
      provider: column.provider,
      model: column.model,
      cells,
      inputTokens,
      inputTokensMethod: method,
      outputTokens,
      outputTokensSource: maxTokens != null ? "maxTokens" : history != null ? "history" : "unknown",
      costUsd,
      lowerBoundUsd: floorUsd,
      // the claim function reserves this much per cell in flight, so it counts the grading too
      costPerCellUsd: costUsd == null || graderPerCell == null ? null : (costUsd + graderPerCell) / cells,
      priced: price != null,
      graderModel: input.grader?.model ?? null,
      graderInputTokens: grader?.inputTokens ?? null,
      graderOutputTokens: grader?.outputTokens ?? null,
      graderCostUsd: grader?.costUsd ?? null,
      graderLowerBoundUsd: grader?.lowerBoundUsd ?? null,
    });
  }
  const unpriced = models.filter((model) => !model.priced).map((model) => `${model.provider}/${model.model}`);
  if (grading && !grading.priced) unpriced.push(`${grading.model.provider}/${grading.model.model}`);
  return {
    cells: models.reduce((sum, model) => sum + model.cells, 0),
    models,
    totalCostUsd: models.reduce(
      (sum, model) => sum + (model.costUsd ?? model.lowerBoundUsd ?? 0) + (model.graderCostUsd ?? model.graderLowerBoundUsd ?? 0),
      0,
    ),
    totalIsLowerBound: models.some((model) => model.costUsd == null || (model.graderModel !== null && model.graderCostUsd == null)),
    unpriced: [...new Set(unpriced)],
  };
}

/**
 * The grader's share of a plan: per column, its input (its prompt with each row, plus the
 * generator's answer, which it reads as {{output}}) and output (its earlier grades on the model),
 * priced by the grading model. Unknown, with the input's cost as the floor, when the generator's
 * answer length or the grader's is unknown.
 */
async function planGrading(
  tx: Queryable,
  grader: { rowLengths: ArrayLike<number>; model: { provider: string; model: string } },
  stored: Price | null,
): Promise<{
  model: { provider: string; model: string };
  priced: boolean;
  cost(input: { generatorTokensPerCell: number | null; cells: number; trials: number }): {
    inputTokens: number;
    outputTokens: number | null;
    costUsd: number | null;
    lowerBoundUsd: number | null;
  };
}> {
  const rowCount = Math.max(1, grader.rowLengths.length);
  let promptTokens = 0;
  for (let index = 0; index < grader.rowLengths.length; index++) promptTokens += estimateTokensFromLength(grader.rowLengths[index]);
  const price = applicablePrice({ ...grader.model, stored });
  const history = await averageGraderOutputTokens(tx, grader.model);
  const perGradeOut = history == null ? null : Math.round(history);
  return {
    model: grader.model,
    priced: price != null,
    cost: ({ generatorTokensPerCell, cells, trials }) => {
      const inputTokens = (promptTokens + (generatorTokensPerCell ?? 0) * rowCount) * trials;
      const outputTokens = perGradeOut == null ? null : perGradeOut * cells;
      const inputKnown = generatorTokensPerCell != null || price?.inputPerMTok === 0;
      const outputKnown = outputTokens != null || price?.outputPerMTok === 0;
      const costUsd = inputKnown && outputKnown ? computeCost({ tokensIn: inputTokens, tokensOut: outputTokens ?? 0, price }) : null;
      return { inputTokens, outputTokens, costUsd, lowerBoundUsd: costUsd ?? computeCost({ tokensIn: inputTokens, tokensOut: 0, price }) };
    },
  };
}

/** A column's maxTokens param, when it has a number there. */
function maxTokensOf(column: { params: Record<string, unknown> }): number | null {
  return typeof column.params.maxTokens === "number" ? column.params.maxTokens : null;
}
