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

/** The aspect ratios Gemini's image models document (imageConfig.aspectRatio). */
export const GEMINI_ASPECT_RATIOS = ["1:1", "2:3", "3:2", "3:4", "4:3", "4:5", "5:4", "9:16", "16:9", "21:9"];

/** The ratio Gemini is sent for a size: as written, or a pixel size's ratio when Gemini makes it; null when it makes neither. */
export function geminiAspectRatio(size: string): string | null {
  const parsed = parseSize(size);
  if (!parsed) return null;
  // 21:9 is a ratio as people write it, not in lowest terms (7:3): try the written form first.
  const candidates = [`${parsed.width}:${parsed.height}`, reduceRatio(parsed.width, parsed.height)];
  return candidates.find((candidate) => GEMINI_ASPECT_RATIOS.includes(candidate)) ?? null;
}

/** The sizes OpenAI's Image API documents for gpt-image models. */
export const OPENAI_IMAGE_SIZES = ["1024x1024", "1536x1024", "1024x1536", "auto"];

// 4096 px a side is the largest any vendor here makes (Gemini's 4K); 16 px keeps a pattern visible.
export const MOCK_MIN_SIDE = 16;
export const MOCK_MAX_SIDE = 4096;
const mockLongSide: Record<string, number> = { "512": 512, "1K": 1024, "2K": 2048, "4K": 4096 };

/** The pixels the mock draws for a size: an aspect ratio gets its long side at image_size (1K unless set), as Gemini does. */
export function mockDimensions(size: string, imageSize: unknown): { width: number; height: number } | null {
  const parsed = parseSize(size);
  if (!parsed) return null;
  if (parsed.kind === "pixels") return { width: parsed.width, height: parsed.height };
  const longSide = typeof imageSize === "string" && mockLongSide[imageSize] ? mockLongSide[imageSize] : 1024;
  const scale = longSide / Math.max(parsed.width, parsed.height);
  return { width: Math.round(parsed.width * scale), height: Math.round(parsed.height * scale) };
}
