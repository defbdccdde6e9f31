// Typed fetch helpers for Settings -> Prices: the caller's own prices and the shipped reference.
import { requestJson } from "./api";

/** A price the person set, in dollars per million tokens (null: unknown). */
export type UserPrice = {
  provider: string;
  /** A model id, or "*" for every model of the provider. */
  model: string;
  inputPerMTok: number | null;
  outputPerMTok: number | null;
  perImage: number | null;
  checkedAt: string | null;
  source: string | null;
};

/** A price from the list shipped with Parallaxr. */
export type ReferencePrice = { provider: string; model: string; inputPerMTok: number | null; outputPerMTok: number | null };

/** The shipped list, with when it was checked and what it covers. */
export type PriceReference = { checkedAt: string; note: string; prices: ReferencePrice[] };

/** The caller's prices and the reference list. */
export function listPrices(): Promise<{ prices: UserPrice[]; reference: PriceReference }> {
  return requestJson("/api/v1/prices");
}

/** Sets (or replaces) the caller's price for a provider's model. */
export function savePrice(price: {
  provider: string;
  model: string;
  inputPerMTok: number | null;
  outputPerMTok: number | null;
  perImage?: number | null;
}): Promise<unknown> {
  return requestJson("/api/v1/prices", { method: "PUT", body: JSON.stringify(price) });
}

/** Removes the caller's price; the reference price (if any) applies again. */
export function deletePrice({ provider, model }: { provider: string; model: string }): Promise<unknown> {
  const query = new URLSearchParams({ provider, model });
  return requestJson(`/api/v1/prices?${query}`, { method: "DELETE" });
}
