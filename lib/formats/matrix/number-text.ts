/**
 * Numbers as the matrix's markdown and terminal lines write them (specs/matrix-comparisons.md):
 * tokens with thousands separators (12,500), cost in dollars to four decimals ($0.0098) or
 * "unknown" (never $0 for an unknown price), duration in seconds to a tenth (4.2s). Written by
 * hand rather than with toLocaleString so the files are the same on every machine's locale.
 */

/** 12500 -> "12,500"; null -> "unknown". */
export function tokensText(tokens: number | null): string {
  if (tokens === null) return "unknown";
  return String(Math.round(tokens)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** 0.00981 -> "$0.0098"; null -> "unknown". */
export function costText(costUsd: number | null): string {
  return costUsd === null ? "unknown" : `$${costUsd.toFixed(4)}`;
}

/** 4.21 -> "4.2s"; null -> "unknown". */
export function durationText(seconds: number | null): string {
  return seconds === null ? "unknown" : `${seconds.toFixed(1)}s`;
}
