/** A price field as typed: empty is unknown (null); anything else is sent as a number for the API to judge. */
export function readPrice(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, "");
  if (trimmed === "") return null;
  const value = Number(trimmed);
  // Not a number: let the API's own message say so rather than guessing here.
  return Number.isFinite(value) ? value : Number.NaN;
}

/** The text a price input starts with. */
export function priceText(value: number | null): string {
  return value === null ? "" : String(value);
}
