/** "1 row", "1,234 rows". */
export function formatRowCount(count: number): string {
  return count === 1 ? "1 row" : `${count.toLocaleString("en")} rows`;
}

/** The preview table's caption: "First 50 of 1,234 rows", or "All 12 rows" when all are shown. */
export function previewCaption(shown: number, total: number): string {
  if (shown >= total) return total === 1 ? "The only row" : `All ${formatRowCount(total)}`;
  return `First ${shown.toLocaleString("en")} of ${formatRowCount(total)}`;
}
