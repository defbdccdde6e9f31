import type { DraftColumn, LoadedDataset } from "./draft-store";
import type { CreateRunInput } from "./run-types";

/** What the plan summary and Run both send about the draft: its rows, its models and its grader. */
export type DraftRunInput = Pick<CreateRunInput, "datasetId" | "rows" | "models" | "graderPromptId">;

/**
 * The part of a run's input that comes from the draft, so the plan asked about and the run
 * started are built by one rule.
 */
export function draftRunInput({
  dataset,
  variableCount,
  columns,
  graderId,
}: {
  dataset: LoadedDataset | null;
  variableCount: number;
  columns: DraftColumn[];
  graderId: string | null;
}): DraftRunInput {
  return {
    ...datasetSource(dataset, variableCount),
    models: columns.map(modelOfColumn),
    ...(graderId ? { graderPromptId: graderId } : {}),
  };
}

/** Where a run's rows come from: the stored dataset, or one empty row for a prompt without variables. */
function datasetSource(dataset: LoadedDataset | null, variableCount: number): Pick<CreateRunInput, "datasetId" | "rows"> {
  if (dataset?.id) return { datasetId: dataset.id };
  if (dataset) return { rows: dataset.rows };
  return variableCount === 0 ? { rows: [{}] } : { rows: [] };
}

function modelOfColumn({ provider, model, params }: DraftColumn) {
  return Object.keys(params).length > 0 ? { provider, model, params } : { provider, model };
}
