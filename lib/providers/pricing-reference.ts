import type { Price } from "@/lib/core/cost";
import reference from "./pricing-reference.json";

/** The shipped reference prices, and the date they were checked. */
export const pricingReference = reference as {
  checkedAt: string;
  note: string;
  prices: Array<{ provider: string; model: string; inputPerMTok: number; outputPerMTok: number; perImage?: number }>;
};

/**
 * The reference price of provider/model: an exact entry, a dated id's base name
 * (gpt-4o-2024-08-06 -> gpt-4o), or the provider's "*" entry (free local models). Null when unknown.
 */
export function referencePrice(provider: string, model: string): Price | null {
  const entries = pricingReference.prices.filter((entry) => entry.provider === provider);
  const base = model.replace(/-\d{4}-\d{2}-\d{2}$/, "");
  const entry = entries.find((e) => e.model === model) ?? entries.find((e) => e.model === base) ?? entries.find((e) => e.model === "*");
  return entry ? { inputPerMTok: entry.inputPerMTok, outputPerMTok: entry.outputPerMTok, perImage: entry.perImage ?? null } : null;
}
