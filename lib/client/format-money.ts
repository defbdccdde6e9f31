// Dollar amounts as the workbench shows them: plain numbers, enough digits to tell tiny per-cell
// costs apart ($0.00012), and never a made-up $0 for a cost nobody knows.

/** "$0.15", "$0.075", "$0.00012", "$12.40"; "$0.00" for zero. Null (unknown) is "–". */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  if (value === 0) return "$0.00";
  const magnitude = Math.abs(value);
  if (magnitude >= 1) return `${value < 0 ? "-" : ""}$${magnitude.toFixed(2)}`;
  // Two significant digits below a dollar, and at least cents: 0.075 -> 3 decimals, 0.0031 -> 4.
  const decimals = Math.min(8, Math.max(2, Math.ceil(-Math.log10(magnitude)) + 1));
  let text = magnitude.toFixed(decimals);
  // Trailing zeros past the cents say nothing ("0.150" -> "0.15").
  while (text.length > text.indexOf(".") + 3 && text.endsWith("0")) text = text.slice(0, -1);
  return `${value < 0 ? "-" : ""}$${text}`;
}

/** "$0.15 / 1M" for a price per million tokens; "–" when unknown. */
export function formatPricePerMillion(value: number | null | undefined): string {
  if (value === null || value === undefined) return "–";
  return `${formatPlainUsd(value)} / 1M`;
}

/** A price as typed and stored, without rounding: 0.15 -> "$0.15", 2.5 -> "$2.50", 0.075 -> "$0.075". */
export function formatPlainUsd(value: number): string {
  const text = String(value);
  const decimals = text.includes(".") ? text.split(".")[1].length : 0;
  return `$${decimals >= 2 ? text : value.toFixed(2)}`;
}
