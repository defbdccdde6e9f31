import type { LoadedDataset } from "./draft-store";

/** The name under which a grader sees the generator's output: {{output}}. */
export const OUTPUT_VARIABLE = "output";

/** Why a run cannot start: the variables of the prompt (and grader) nothing provides. */
export type RunValidationProblem = {
  /** No dataset is loaded but the prompt has variables. */
  noDataset: boolean;
  /** The prompt's variables missing from the dataset's headers. */
  generator: string[];
  /** The grader's variables missing from the headers and {{output}}, with the grader's name. */
  grader: { name: string; names: string[] } | null;
};

/**
 * What stops a run: the prompt's variables must be dataset headers; a grader's must be headers
 * or {{output}}. Extra dataset columns are fine; a prompt with no variables needs no dataset.
 * Returns null when the run may start.
 */
export function findRunProblem(
  variables: string[],
  dataset: Pick<LoadedDataset, "headers"> | null,
  grader: { name: string; variables: string[] } | null = null,
): RunValidationProblem | null {
  const headers = new Set(dataset?.headers ?? []);
  const generator = variables.filter((name) => !headers.has(name));
  const graderMissing = grader ? grader.variables.filter((name) => name !== OUTPUT_VARIABLE && !headers.has(name)) : [];
  if (generator.length === 0 && graderMissing.length === 0) return null;
  return {
    noDataset: dataset === null,
    generator,
    grader: grader && graderMissing.length > 0 ? { name: grader.name, names: graderMissing } : null,
  };
}
