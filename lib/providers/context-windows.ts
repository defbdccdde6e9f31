import table from "./context-windows.json";

const providers: Record<string, Record<string, number>> = table.providers;

/** The date the shipped table of context windows was last checked against the vendors' pages. */
export const contextWindowsChecked: string = table.checked;

// Dated snapshots name their base model: gpt-4o-2024-08-06, claude-opus-4-1-20250805.
const DATE_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The context window of a well-known model from the shipped table, or null when the table does
 * not list it. A dated snapshot reads as its base name; nothing else is guessed.
 */
export function lookupContextWindow(provider: string, model: string): number | null {
  const models = providers[provider];
  if (!models) return null;
  const name = model.trim().replace(/^models\//, "");
  if (Object.hasOwn(models, name)) return models[name];
  const base = name.replace(DATE_SUFFIX, "");
  return Object.hasOwn(models, base) ? models[base] : null;
}

/** The models the table lists for a provider, with their context windows. */
export function tableModels(provider: string): Array<{ model: string; contextWindow: number }> {
  return Object.entries(providers[provider] ?? {}).map(([model, contextWindow]) => ({ model, contextWindow }));
}
