/** How a prompt's variables and a dataset's columns match up. */
export type DatasetFit = {
  /** Variables no column provides, in the prompt's order. */
  missing: string[];
  /** Columns no variable uses, in the dataset's order. */
  unused: string[];
};

/**
 * Compares a prompt's variables with the active dataset's headers. With no dataset loaded
 * (`headers` null) it reports nothing: the run's own check says a dataset is needed.
 */
export function datasetFit(variables: string[], headers: string[] | null): DatasetFit {
  return fit(variables, headers, new Set());
}

/**
 * The same for a grader, whose `{{output}}` (or `outputName`) is filled with the generator's
 * answer rather than from a column.
 */
export function graderFit(graderVariables: string[], headers: string[] | null, outputName = "output"): DatasetFit {
  return fit(graderVariables, headers, new Set([outputName]));
}

function fit(variables: string[], headers: string[] | null, provided: Set<string>): DatasetFit {
  if (headers === null) return { missing: [], unused: [] };
  const columns = new Set(headers);
  const used = new Set(variables);
  const missing = [...new Set(variables)].filter((name) => !columns.has(name) && !provided.has(name));
  const unused = headers.filter((header) => !used.has(header));
  return { missing, unused };
}
