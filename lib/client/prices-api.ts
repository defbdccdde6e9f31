// Typed fetch helpers for Settings -> Prices: the caller's own prices and the shipped reference.
import type { PriceReference, UserPrice } from "@/lib/api/responses";
import type { PriceKey, SavePriceRequest } from "@/lib/api/schemas";
import { requestJson } from "./api";

export type { PriceReference, UserPrice };

/** A price from the list shipped with Parallaxr. */
export type ReferencePrice = PriceReference["prices"][number];

/** The caller's prices and the reference list. */
export function listPrices(): Promise<{ prices: UserPrice[]; reference: PriceReference }> {
  return requestJson("/api/v1/prices");
}

/** Sets (or replaces) the caller's price for a provider's model. */
export function savePrice(price: SavePriceRequest): Promise<unknown> {
  return requestJson("/api/v1/prices", { method: "PUT", body: JSON.stringify(price) });
}

/** Removes the caller's price; the reference price (if any) applies again. */
export function deletePrice({ provider, model }: PriceKey): Promise<unknown> {
  const query = new URLSearchParams({ provider, model });
  return requestJson(`/api/v1/prices?${query}`, { method: "DELETE" });
}
