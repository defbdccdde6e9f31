import type { Queryable } from "../database";

// Two of a workbench cell's warnings are facts of its column, not of the cell: the model's context
// window is unknown, and the model has no price. Each cell of such a column said so in sentences
// naming the model, ~150 bytes of every row (and every model of an OpenAI-compatible server has
// no known window). A cell stores a short code for each instead (execute-cell.ts writes them), and
// whoever reads cells spells the codes out with the column's provider and model (cell-columns.ts),
// so the API and the page see the sentences as before. Cells saved before keep their sentences.

/** What a cell stores for "the context window of this column's model is unknown". */
export const WINDOW_UNKNOWN = "@window-unknown";
/** What a cell stores for "this column's model has no price". */
export const NO_PRICE = "@no-price";

/** The model of a run's column, by column index. */
export type ColumnModels = Map<number, { provider: string; model: string }>;

/** Whether warnings (as stored) hold a code to spell out. */
export function hasColumnWarnings(warnings: string[] | null): boolean {
  return warnings !== null && warnings.some((warning) => warning === WINDOW_UNKNOWN || warning === NO_PRICE);
}

/** Warnings as stored, with the codes spelled out for the column's model (left as they are without one). */
export function spellColumnWarnings(warnings: string[], column: { provider: string; model: string } | undefined): string[] {
  if (!column) return warnings;
  return warnings.map((warning) =>
    warning === WINDOW_UNKNOWN
      ? `Context window unknown for model ${column.model}`
      : warning === NO_PRICE
        ? `No price for ${column.provider}/${column.model}: the cost is unknown (not 0). Set one in Settings -> Prices.`
        : warning,
  );
}

/** The models of a run's columns, read once and only when first asked for. */
export function columnModelsOf(tx: Queryable, runId: string): () => Promise<ColumnModels> {
  let read: Promise<ColumnModels> | null = null;
  return () => (read ??= readColumnModels(tx, runId));
}

/** The models of a run's columns, by column index (they never change once the run is created). */
export async function readColumnModels(tx: Queryable, runId: string): Promise<ColumnModels> {
  const { rows } = await tx.query<{ column_index: number; provider: string; model: string }>(
    "select column_index, provider, model from run_columns where run_id = $1",
    [runId],
  );
  return new Map(rows.map((row) => [row.column_index, { provider: row.provider, model: row.model }]));
}
