/** The name under which a grader sees the generator's output: {{output}}. */
export const OUTPUT_VARIABLE = "output";

/** Why a run cannot start: the variables of the prompt (and grader) nothing provides. */
export type RunValidationProblem = {
  /** No dataset is loaded (no rows are given) but the prompt has variables. */
  noDataset: boolean;
  /** The prompt's variables missing from the dataset's headers. */
  generator: string[];
  /** The grader's variables missing from the headers and {{output}}, with the grader's name. */
  grader: { name: string; names: string[] } | null;
};

/**
 * What stops a run: the prompt's variables must be dataset headers; a grader's must be headers
 * or {{output}}. Extra dataset columns are fine; a prompt with no variables needs no dataset.
 * Returns null when the run may start. The page's validation dialog and POST /api/v1/runs both
 * ask this function, so the server refuses exactly what the page refuses.
 */
export function findRunProblem(
  variables: readonly string[],
  dataset: { headers: readonly string[] } | null,
  grader: { name: string; variables: readonly string[] } | null = null,
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

/**
 * The problem as one message naming each missing variable, for the API's 400:
 * "The prompt uses {{topic}} and {{tone}}, which are not columns of the dataset (its columns: text). ..."
 */
export function describeRunProblem(problem: RunValidationProblem, headers: readonly string[]): string {
  const parts: string[] = [];
  if (problem.generator.length > 0) {
    const one = problem.generator.length === 1;
    const where = problem.noDataset
      ? "but the run has no dataset or rows"
      : one
        ? "which is not a column of the dataset"
        : "which are not columns of the dataset";
    parts.push(`The prompt uses ${listNames(problem.generator)}, ${where}.`);
  }
  if (problem.grader) {
    const neither =
      problem.grader.names.length === 1 ? "which is neither a column of the dataset" : "which are neither columns of the dataset";
    parts.push(`The grader "${problem.grader.name}" uses ${listNames(problem.grader.names)}, ${neither} nor {{${OUTPUT_VARIABLE}}}.`);
  }
  parts.push(
    problem.noDataset
      ? "Give a dataset (or rows) with a column for each, or remove them from the prompt."
      : `Its columns are: ${headers.join(", ") || "(none)"}. Rename a column or the variable so they match.`,
  );
  return parts.join(" ");
}

function listNames(names: readonly string[]): string {
  const quoted = names.map((name) => `{{${name}}}`);
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}
