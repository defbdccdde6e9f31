import { cacheKey, hashText } from "@/lib/core/cache-key";
import { renderTemplate } from "@/lib/core/template";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";

/** A claimed cell with its input rendered: what is sent, and the keys it is known by. */
export interface PreparedCell {
  cell: ClaimedCell;
  /** The rendered prompt, exactly as the provider receives it. */
  input: string;
  missing: string[];
  inputHash: string;
  /** Null when the run does not use the cache. */
  cacheKey: string | null;
}

/** Renders a claimed cell's prompt with its row and computes its cache key. */
export function prepareCell(settings: RunSettings, cell: ClaimedCell): PreparedCell {
  const rendered = renderTemplate(settings.promptText, cell.variables);
  return {
    cell,
    input: rendered.text,
    missing: rendered.missing,
    inputHash: hashText(rendered.text),
    cacheKey: settings.cache
      ? cacheKey({ provider: cell.provider, model: cell.model, params: cell.params, input: rendered.text, trial: cell.trial })
      : null,
  };
}
