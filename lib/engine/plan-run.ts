import { computeCost } from "@/lib/core/cost";
import { renderTemplate } from "@/lib/core/template";
import { estimateTokens } from "@/lib/core/tokens";
import type { Queryable } from "@/lib/db/database";
import { averageOutputTokens, getUserPrice } from "@/lib/db/pricing/pricing";
import { referencePrice } from "@/lib/providers/pricing-reference";

/** What a run will cost before it starts, per model and in total. */
export interface RunPlanEstimate {
  cells: number;
  models: Array<{
    provider: string;
    model: string;
    cells: number;
    inputTokens: number;
    /** The model's own tokenizer where the provider has one (local models), else our chars/4 estimate. */
    inputTokensMethod: "tokenizer" | "estimate";
    outputTokens: number | null;
    outputTokensSource: "maxTokens" | "history" | "unknown";
    /** Null when the price or the output tokens are unknown (then see lowerBoundUsd). */
    costUsd: number | null;
    /** The input's cost alone when the output's is unknown: what the model will cost at least. */
    lowerBoundUsd: number | null;
    costPerCellUsd: number | null;
    priced: boolean;
  }>;
  /** Sum of the known costs, and of the floors of the others. */
  totalCostUsd: number;
  /** True when some model's cost is unknown, so the total is a lower bound. */
  totalIsLowerBound: boolean;
  unpriced: string[];
}

/**
 * Estimates a run as the calling user: input tokens from each rendered row, output tokens from
 * the column's maxTokens or else the model's average in the user's earlier runs, prices from the
 * user's list or else the shipped reference.
 */
export async function planRun(
  tx: Queryable,
  input: {
    prompt: string;
    rows: Array<Record<string, string>>;
    columns: Array<{ provider: string; model: string; params: Record<string, unknown> }>;
    trials: number;
    /** The model's tokenizer, when its provider has one; null otherwise. */
    tokenizerFor?: (column: { provider: string; model: string }) => Promise<((text: string) => Promise<number>) | null>;
  },
): Promise<RunPlanEstimate> {
  const rows = input.rows.length > 0 ? input.rows : [{}];
  const rendered = rows.map((row) => renderTemplate(input.prompt, row).text);
  const estimated = rendered.reduce((sum, text) => sum + estimateTokens(text), 0);
  const models: RunPlanEstimate["models"] = [];
  for (const column of input.columns) {
    const cells = rows.length * input.trials;
    const tokenize = (await input.tokenizerFor?.(column)) ?? null;
    let perTrial = estimated;
    if (tokenize) {
      perTrial = 0;
      for (const text of rendered) perTrial += await tokenize(text);
    }
    const inputTokens = perTrial * input.trials;
    const maxTokens = typeof column.params.maxTokens === "number" ? column.params.maxTokens : null;
    const history = maxTokens == null ? await averageOutputTokens(tx, column) : null;
    const perCellOut = maxTokens ?? (history == null ? null : Math.round(history));
    const price = (await getUserPrice(tx, column)) ?? referencePrice(column.provider, column.model);
    const outputTokens = perCellOut == null ? null : perCellOut * cells;
    // Output free, or its count known: the cost is known. Otherwise the input's cost is a floor.
    const outputFree = price?.outputPerMTok === 0;
    const costUsd = computeCost({ tokensIn: inputTokens, tokensOut: outputTokens ?? (outputFree ? 0 : null), price });
    const floorUsd = costUsd ?? computeCost({ tokensIn: inputTokens, tokensOut: 0, price });
    models.push({
      provider: column.provider,
      model: column.model,
      cells,
      inputTokens,
      inputTokensMethod: tokenize ? "tokenizer" : "estimate",
      outputTokens,
      outputTokensSource: maxTokens != null ? "maxTokens" : history != null ? "history" : "unknown",
      costUsd,
      lowerBoundUsd: floorUsd,
      costPerCellUsd: costUsd == null ? null : costUsd / cells,
      priced: price != null,
    });
  }
  return {
    cells: models.reduce((sum, model) => sum + model.cells, 0),
    models,
    totalCostUsd: models.reduce((sum, model) => sum + (model.costUsd ?? model.lowerBoundUsd ?? 0), 0),
    totalIsLowerBound: models.some((model) => model.costUsd == null),
    unpriced: [...new Set(models.filter((model) => !model.priced).map((model) => `${model.provider}/${model.model}`))],
  };
}
