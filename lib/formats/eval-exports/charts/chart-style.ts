import type { CSSProperties } from "react";

// The charts are drawn with SVG presentation attributes and inline styles only, so the same markup
// looks the same on the /evals page (Tailwind) and in the HTML report (its own small stylesheet).

/** Text and lines, each at least 4.5:1 on white. */
export const INK = "#1f2937";
export const MUTED_INK = "#4b5563";
export const GRID = "#e5e7eb";
export const BAR = "#93c5fd";
export const INTERVAL = "#1e3a8a";
export const FONT_FAMILY = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, sans-serif";

/** One colour per model in the cost chart; each at least 3:1 on white, as graphics need. */
export const MODEL_COLOURS = ["#1d4ed8", "#b45309", "#047857", "#7e22ce", "#be123c", "#0f766e", "#4338ca", "#a16207"];

/** Hidden from sight, read by screen readers (the same rule as Tailwind's sr-only). */
export const VISUALLY_HIDDEN: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: "hidden",
  clip: "rect(0, 0, 0, 0)",
  whiteSpace: "nowrap",
  border: 0,
};

/** The longest label drawn beside a bar, in characters; the table and the SVG title have it whole. */
export const LABEL_CHARACTERS = 30;

/** A label cut to fit, with an ellipsis. */
export function fitLabel(label: string, characters: number = LABEL_CHARACTERS): string {
  return label.length <= characters ? label : `${label.slice(0, characters - 1)}…`;
}
