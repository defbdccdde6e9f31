// How a cell shows its numbers. Kept small and pure so the grid, a future detail modal and the
// summary row all read the same.

/**
 * Token counts as the grid shows them ("12k | 0.5k"): below 100 the integer, then thousands with
 * one decimal up to 10k ("0.5k", "1.2k"), whole thousands up to a million ("12k"), then millions
 * with one decimal ("1.2M"). Trailing ".0" is dropped ("1k", "2M").
 */
export function formatTokenCount(count: number | null): string {
  if (count === null || !Number.isFinite(count)) return "–";
  const value = Math.max(0, count);
  if (Math.round(value) < 100) return String(Math.round(value));
  if (value < 9_950) return `${trimZero((value / 1000).toFixed(1))}k`;
  const thousands = Math.round(value / 1000);
  if (thousands < 1000) return `${thousands}k`;
  return `${trimZero((value / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith(".0") ? text.slice(0, -2) : text;
}

/** `312 ms` below a second, `2.4 s` from a second up. */
export function formatLatency(milliseconds: number | null): string {
  if (milliseconds === null || !Number.isFinite(milliseconds)) return "–";
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** The first `limit` characters of a model's output, with an ellipsis when there was more. */
export function previewText(text: string, limit = 200): string {
  const characters = Array.from(text);
  return characters.length <= limit ? text : `${characters.slice(0, limit).join("")}…`;
}
