// The model picker's view of `GET /api/v1/models`: the models, which providers are set up, and
// which could not be asked for their list (and why).
import type { ModelInfo } from "@/lib/providers/types";
import { requestJson } from "./api";

/** A model the caller can pick, with its context window and price when known (GET /api/v1/models). */
export type CatalogModel = ModelInfo;

/** A provider and whether the caller has what it needs (a key, a base URL) to use it. */
export type CatalogProvider = { id: string; label: string; needsKey: boolean; configured: boolean };

/** A configured provider whose model list could not be had now, with the reason. */
export type UnavailableProvider = { provider: string; code: string; message: string };

/** Everything the model picker shows. */
export type ModelCatalog = {
  models: CatalogModel[];
  providers: CatalogProvider[];
  unavailable: UnavailableProvider[];
};

// Callers that ask at the same moment (the workbench and the picker on page load) share one
// request: the answer asks every configured vendor for its list, which is worth doing once.
let inFlight: Promise<ModelCatalog> | null = null;

/** The models, providers and unavailable providers for the caller. */
export function getModelCatalog(): Promise<ModelCatalog> {
  inFlight ??= requestJson<ModelCatalog>("/api/v1/models").finally(() => {
    inFlight = null;
  });
  return inFlight;
}

const contextFormat = new Intl.NumberFormat("en", { notation: "compact", maximumSignificantDigits: 3 });

/** "128k context", "1.05M context"; null when the window is unknown. */
export function formatContextWindow(tokens: number | null | undefined): string | null {
  if (!tokens || tokens <= 0) return null;
  return `${contextFormat.format(tokens).replace("K", "k")} context`;
}

const priceFormat = new Intl.NumberFormat("en", { style: "currency", currency: "USD", maximumSignificantDigits: 3 });

/** "$0.15 / $0.60 per 1M" (in / out), "free", or "no price" — never a silent $0. */
export function formatModelPrice(price: CatalogModel["price"]): string {
  if (!price || price.inputPerMTok == null || price.outputPerMTok == null) return "no price";
  if (price.inputPerMTok === 0 && price.outputPerMTok === 0) return "free";
  return `${priceFormat.format(price.inputPerMTok)} / ${priceFormat.format(price.outputPerMTok)} per 1M`;
}
