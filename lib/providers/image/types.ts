import type { ModelInfo } from "../types";

/** The file formats an image can be asked for; every adapter and the mock take these three. */
export type ImageOutputFormat = "png" | "jpeg" | "webp";

/** One call of an image model: one matrix job's parameters, as the batch engine hands them over. */
export interface ImageGenerationRequest {
  model: string;
  prompt: string;
  /** Pixels as `WIDTHxHEIGHT` ("1024x1536") or an aspect ratio ("4:5"); each adapter says which it can make. */
  size?: string | null;
  quality?: string | null;
  /** Images wanted from this one call (the matrix's `n`). */
  n?: number | null;
  seed?: number | null;
  outputFormat?: ImageOutputFormat | null;
  /** OpenAI's `background`; the matrix writes it beside the other scalars. */
  background?: string | null;
  /**
   * The matrix's provider_options, passed through as they are: keys an adapter knows are mapped
   * to the vendor's field, the others are sent under their own name for the vendor to judge.
   */
  providerOptions?: Record<string, unknown>;
  /** The whole call, polling and download included, ends after this long (a `timeout` error). */
  timeoutMs?: number;
  signal: AbortSignal;
}

/** One image an image model made. */
export interface GeneratedImage {
  data: Uint8Array;
  /** `image/png`, `image/jpeg` or `image/webp`, read from the bytes, not taken from the vendor's word. */
  mediaType: string;
  width: number | null;
  height: number | null;
}

/**
 * What a call leaves on record, one per call (every image of it shares it): the request as sent
 * without any key or secret header, what the vendor said about the answer, and usage and cost
 * when the vendor reports them. A receipt never holds image bytes.
 */
export interface ImageReceipt {
  provider: string;
  model: string;
  /** The vendor's endpoint, without query string (a signed URL's signature is not kept). */
  endpoint: string;
  /** The body we sent (or, for the mock, the inputs it drew from). */
  request: Record<string, unknown>;
  /** Vendor metadata: ids, created time, revised prompts, finish reasons, the format it says it made. */
  response: Record<string, unknown>;
  /** Token or credit counts as the vendor reported them, or null when it reported none. */
  usage: Record<string, unknown> | null;
  /** US dollars when the vendor itself states them; prices from the reference are the batch's business. */
  costUsd: number | null;
  /** Milliseconds from the first request to the last byte. */
  latencyMs: number;
}

/** What an image call returned. */
export interface ImageGenerationResult {
  images: GeneratedImage[];
  receipt: ImageReceipt;
  /** Options the adapter could not honour and said so (never dropped silently). */
  warnings: string[];
}

/** An image-model provider: one adapter per vendor, and the mock. */
export interface ImageModelProvider {
  readonly id: string;
  readonly kind: "image";
  generate(request: ImageGenerationRequest): Promise<ImageGenerationResult>;
  listModels(): Promise<ModelInfo[]>;
}
