/**
 * The toolbar's purple pill, without hover: 32 px high, so the metric, grader and upload pills
 * line up. Focus rings come from the global :focus-visible rule in app/globals.css.
 */
export const pillBaseClassName =
  "inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full border border-accent-line bg-accent-soft px-3 text-sm font-medium whitespace-nowrap text-accent-strong transition-colors";

/** The pill for a <button> or <select>: hover only while enabled, dimmed when disabled. */
export const pillClassName = `${pillBaseClassName} enabled:cursor-pointer enabled:hover:border-accent enabled:hover:bg-white disabled:cursor-not-allowed disabled:opacity-60`;
