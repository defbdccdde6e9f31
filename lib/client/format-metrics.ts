// How a cell shows its numbers. Kept small and pure so the grid, a future detail modal and the
// summary row all read the same.

/** `12k` or `0.5k`-style token counts: thousands with at most one decimal from 1000 up, else the integer. */
export function formatTokenCount(count: number | null): string {
  if (count === null || !Number.isFinite(count)) return "–";
  if (count < 1000) return String(Math.round(count));
  const thousands = Math.round(count / 100) / 10;
  return `${Number.isInteger(thousands) ? thousands.toFixed(0) : thousands.toFixed(1)}k`;
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
