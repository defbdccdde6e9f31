import type { DraftColumn, LoadedDataset } from "./draft-store";
import type { CreateRunInput } from "./run-types";

/** What the plan summary and Run both send about the draft: its rows, its models, its grader and the model grading. */
export type DraftRunInput = Pick<CreateRunInput, "datasetId" | "rows" | "models" | "graderPromptId" | "graderModel">;

/**
 * The part of a run's input that comes from the draft, so the plan asked about and the run
 * started are built by one rule.
 */
export function draftRunInput({
  dataset,
  variableCount,
  columns,
  graderId,
  graderModel = null,
}: {
  dataset: LoadedDataset | null;
  variableCount: number;
  columns: DraftColumn[];
  graderId: string | null;
  /** The model chosen to grade; null (or a model no column has any more): the server's default, the first column's. */
  graderModel?: { provider: string; model: string } | null;
}): DraftRunInput {
  const gradingModel =
    graderId && graderModel && columns.some((column) => column.provider === graderModel.provider && column.model === graderModel.model)
      ? { provider: graderModel.provider, model: graderModel.model }
      : null;
  return {
    ...datasetSource(dataset, variableCount),
    models: columns.map(modelOfColumn),
    ...(graderId ? { graderPromptId: graderId } : {}),
    ...(gradingModel ? { graderModel: gradingModel } : {}),
  };
}

/**
 * Where a run's rows come from: the stored dataset, or none for a prompt without variables (the
 * spec's live run: one row, no dataset stored for it; the server plans one row when neither rows
 * nor datasetId is given).
 */
function datasetSource(dataset: LoadedDataset | null, variableCount: number): Pick<CreateRunInput, "datasetId" | "rows"> {
  if (dataset?.id) return { datasetId: dataset.id };
  if (dataset) return { rows: dataset.rows };
  return variableCount === 0 ? {} : { rows: [] };
}

function modelOfColumn({ provider, model, params }: DraftColumn) {
  return Object.keys(params).length > 0 ? { provider, model, params } : { provider, model };
}
