import { createHash } from "node:crypto";
import type { ImageGenerationResult } from "./types";

/** The receipt file of one image (`receipt-<image name>.json`), in the snake_case of run.json. */
export interface ImageReceiptFile {
  receipt_version: 1;
  provider: string;
  model: string;
  endpoint: string;
  /** The request as sent, without keys: secrets are in headers, never here; secret-looking options are masked. */
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  usage: Record<string, unknown> | null;
  /** What the vendor itself states, in dollars; null when it states none (the batch prices it from the reference). */
  cost_usd: number | null;
  latency_ms: number;
  image: { index: number; count: number; media_type: string; width: number | null; height: number | null; bytes: number; sha256: string };
  warnings: string[];
}

// Option names that look like credentials. Nobody should put a key in provider_options, but a
// receipt is a file people share, so such a value is masked rather than written.
const secretName = /(^|[_-])(api[_-]?key|key|secret|token|password|authorization)$/i;

/**
 * The receipt of image `index` of a call: the call's receipt (one per call, shared by its images)
 * with this image's own facts. Usage and cost are the call's, stated once per call: with n > 1
 * every image's receipt repeats them, so sum them per call, not per image.
 */
export function imageReceiptFile(result: ImageGenerationResult, index: number): ImageReceiptFile {
  const image = result.images[index];
  if (!image) throw new RangeError(`The call returned ${result.images.length} images; there is no image ${index}.`);
  const { receipt } = result;
  return {
    receipt_version: 1,
    provider: receipt.provider,
    model: receipt.model,
    endpoint: receipt.endpoint,
    request: maskSecrets(receipt.request) as Record<string, unknown>,
    response: receipt.response,
    usage: receipt.usage,
    cost_usd: receipt.costUsd,
    latency_ms: receipt.latencyMs,
    image: {
      index,
      count: result.images.length,
      media_type: image.mediaType,
      width: image.width,
      height: image.height,
      bytes: image.data.byteLength,
      sha256: createHash("sha256").update(image.data).digest("hex"),
    },
    warnings: result.warnings,
  };
}

/** The file extension an image is written with: `.jpg` for JPEG, as the spec's outputs show. */
export function imageExtension(mediaType: string): "png" | "jpg" | "webp" {
  if (mediaType === "image/jpeg") return "jpg";
  if (mediaType === "image/webp") return "webp";
  if (mediaType === "image/png") return "png";
  throw new RangeError(`No file extension for ${mediaType}: only PNG, JPEG and WebP images are written.`);
}

function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, secretName.test(key) && typeof inner === "string" ? "[masked]" : maskSecrets(inner)]),
  );
}
