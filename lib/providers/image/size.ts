/** A requested size: pixels (`1024x1536`) or an aspect ratio (`4:5`). */
export type ParsedSize = { kind: "pixels"; width: number; height: number } | { kind: "ratio"; width: number; height: number };

/** Reads `WIDTHxHEIGHT` or `W:H`; null for anything else (the adapter says what it takes). */
export function parseSize(size: string): ParsedSize | null {
  const pixels = /^\s*(\d{1,5})\s*[xX×]\s*(\d{1,5})\s*$/.exec(size);
  if (pixels) {
    const width = Number(pixels[1]);
    const height = Number(pixels[2]);
    return width > 0 && height > 0 ? { kind: "pixels", width, height } : null;
  }
  const ratio = /^\s*(\d{1,3})\s*:\s*(\d{1,3})\s*$/.exec(size);
  if (ratio) {
    const width = Number(ratio[1]);
    const height = Number(ratio[2]);
    return width > 0 && height > 0 ? { kind: "ratio", width, height } : null;
  }
  return null;
}

/** The aspect ratio of a size in lowest terms, e.g. 1024x1536 -> "2:3". */
export function reduceRatio(width: number, height: number): string {
  const divisor = gcd(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
