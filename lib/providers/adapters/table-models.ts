import { lookupContextWindow, tableModels } from "../context-windows";
import type { ModelInfo } from "../types";

/** The picker's list for a provider whose models come from the shipped table. */
export function listTableModels(provider: string, label: string): ModelInfo[] {
  return tableModels(provider).map(({ model, contextWindow }) => ({
    provider,
    model,
    label: `${label} / ${model}`,
    contextWindow,
  }));
}

/** contextWindow() for a provider whose models come from the shipped table. */
export function tableContextWindow(provider: string): (model: string) => Promise<number | null> {
  return async (model) => lookupContextWindow(provider, model);
}
