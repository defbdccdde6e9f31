/**
 * mulberry32 (Tommy Ettinger, public domain): a 32-bit seeded generator, small and fast enough for
 * 10,000 bootstrap resamples, so an interval is the same on every machine and every run.
 * Returns a function giving numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
