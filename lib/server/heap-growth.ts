import v8 from "node:v8";

/** V8's heap growing factor the server runs with, in percent over 1 (1.5 times). */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/**
 * PARALLAXR_HEAP_GROWING_PERCENT: how far V8 lets the heap grow past what survived its last full
 * collection before it collects again. 0 keeps V8's own (up to 4 times). A value that is not a
 * whole number from 0 to 1000 gives the default and a warning naming it.
 */
export function heapGrowingPercent(env: Record<string, string | undefined>): { percent: number; warning: string | null } {
  const raw = env.PARALLAXR_HEAP_GROWING_PERCENT?.trim() ?? "";
  if (raw === "") return { percent: DEFAULT_HEAP_GROWING_PERCENT, warning: null };
  const percent = Number(raw);
  if (/^\d{1,4}$/.test(raw) && percent <= 1000) return { percent, warning: null };
  return {
    percent: DEFAULT_HEAP_GROWING_PERCENT,
    warning: `PARALLAXR_HEAP_GROWING_PERCENT must be a whole number from 0 to 1000; got "${raw}", so ${DEFAULT_HEAP_GROWING_PERCENT} is used.`,
  };
}

/**
 * Sets the server's heap growing factor (instrumentation.ts, as the server starts, however it was
 * started: `npm start` or `next start`). A run's calls leave short-lived garbage behind and keep
 * little (about 60 MB live after a 10,000-cell run); with V8's own factor the heap grew to
 * 300-350 MB during such a run and stayed there, with 1.5 times to ~140 MB (bench/README.md).
 * V8 reads the flag at each collection, so setting it after start takes effect from the next one.
 */
export function setHeapGrowth(env: Record<string, string | undefined>, warn: (message: string) => void): void {
  const { percent, warning } = heapGrowingPercent(env);
  if (warning) warn(warning);
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
