import { cacheKey, hashText } from "@/lib/core/cache-key";
import { renderTemplate } from "@/lib/core/template";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import { prepareEvalCell } from "./execute-eval-cell";
import { prepareMatrixCell } from "./execute-matrix-cell";

/** A claimed cell with its input rendered: what is sent, and the keys it is known by. */
export interface PreparedCell {
  cell: ClaimedCell;
  /** The rendered prompt, exactly as the provider receives it. */
  input: string;
  missing: string[];
  /** The row's variables as the provider is told them (the mock echoes them), in the row's order. */
  variables: Record<string, string>;
  inputHash: string;
  /** Null when the run does not use the cache. */
  cacheKey: string | null;
}

/** Renders a claimed cell's prompt with its row and computes its cache key. */
export function prepareCell(settings: RunSettings, cell: ClaimedCell): PreparedCell {
  if (settings.kind === "eval") return prepareEvalCell(settings, cell);
  if (settings.kind === "matrix") return prepareMatrixCell(settings, cell);
  const { values, variables } = settings.experimentColumns
    ? experimentVariables(settings.experimentColumns, cell.variables)
    : workbenchVariables(cell);
  const rendered = renderTemplate(settings.promptText, values);
  return {
    cell,
    input: rendered.text,
    missing: rendered.missing,
    variables,
    inputHash: hashText(rendered.text),
    cacheKey: settings.cache
      ? cacheKey({ provider: cell.provider, model: cell.model, params: cell.params, input: rendered.text, trial: cell.trial })
      : null,
  };
}

function workbenchVariables(cell: ClaimedCell): { values: Record<string, string>; variables: Record<string, string> } {
  const variables = Object.fromEntries(Object.entries(cell.variables).map(([key, value]) => [key, value == null ? "" : String(value)]));
  return { values: cell.variables, variables };
}

/**
 * An experiment row's variables (specs/experiments-cli.md): every column but provider and model,
 * in the CSV's order (a stored row's keys lose their order); a blank cell has no value, so its
 * placeholder stays with a warning, but the row's variables still list it as the CSV has it.
 */
function experimentVariables(
  columns: readonly string[],
  row: Record<string, unknown>,
): { values: Record<string, string>; variables: Record<string, string> } {
  const values: Record<string, string> = {};
  const variables: Record<string, string> = {};
  for (const column of columns) {
    if (column === "provider" || column === "model") continue;
    const raw = Object.prototype.hasOwnProperty.call(row, column) ? row[column] : undefined;
    const value = raw == null ? "" : String(raw);
    define(variables, column, value);
    if (value !== "") define(values, column, value);
  }
  return { values, variables };
}

function define(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
