import type { Price } from "@/lib/core/cost";
import { referencePrice } from "@/lib/providers/pricing-reference";

/**
 * The price that applies to provider/model, decided in this one place for run plans, the worker
 * and the model picker: the price stored for the user (their own, or one recorded from a vendor's
 * live list), else a price the vendor lists right now (the picker asks OpenRouter), else the
 * shipped reference. Null when none is known: such a model shows no cost, never $0.
 */
export function applicablePrice({
  provider,
  model,
  stored,
  listed = null,
}: {
  provider: string;
  model: string;
  stored: Price | null;
  listed?: Price | null;
}): Price | null {
  return stored ?? listed ?? referencePrice(provider, model);
}
