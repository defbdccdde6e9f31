import type { LoadedDataset } from "./draft-store";

/** Why a run cannot start: the prompt's variables that the dataset does not provide. */
export type MissingVariables = { reason: "no-dataset" | "not-in-headers"; names: string[] };

/**
 * The prompt's variables that no dataset column provides, or null when the run may start.
 * Extra dataset columns are allowed; a prompt with no variables needs no dataset.
 */
export function findMissingVariables(variables: string[], dataset: LoadedDataset | null): MissingVariables | null {
  if (variables.length === 0) return null;
  if (!dataset) return { reason: "no-dataset", names: variables };
  const headers = new Set(dataset.headers);
  const names = variables.filter((name) => !headers.has(name));
  return names.length > 0 ? { reason: "not-in-headers", names } : null;
}
