/** A model's price in US dollars per million tokens (and per image, for image models). */
export interface Price {
  inputPerMTok: number | null;
  outputPerMTok: number | null;
  perImage?: number | null;
}

/**
 * Cost in US dollars: tokens in x input price + tokens out x output price. Null, never a false 0,
 * when the price or the counts are unknown.
 */
export function computeCost({
  tokensIn,
  tokensOut,
  price,
}: {
  tokensIn: number | null;
  tokensOut: number | null;
  price: Price | null;
}): number | null {
  if (!price || price.inputPerMTok == null || price.outputPerMTok == null) return null;
  if (tokensIn == null || tokensOut == null) return null;
  return (tokensIn * price.inputPerMTok + tokensOut * price.outputPerMTok) / 1_000_000;
}
