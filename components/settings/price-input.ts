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

/** Both price fields of a form, or the message to show when either is not a number. */
export function readPriceFields(
  input: string,
  output: string,
): { ok: true; inputPerMTok: number | null; outputPerMTok: number | null } | { ok: false; message: string } {
  const inputPerMTok = readPrice(input);
  const outputPerMTok = readPrice(output);
  if (Number.isNaN(inputPerMTok) || Number.isNaN(outputPerMTok)) {
    return { ok: false, message: "Prices are numbers of dollars per million tokens, like 0.15; leave one empty if unknown." };
  }
  return { ok: true, inputPerMTok, outputPerMTok };
}
