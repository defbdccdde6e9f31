import { createHash } from "node:crypto";
import { ProviderError } from "../provider-error";
import type { ModelInfo } from "../types";
import { ImageProviderError } from "./image-provider-error";
import { imageJobProblem } from "./job-check";
import { mockDimensions } from "./size";
import type { GeneratedImage, ImageModelProvider, ImageOutputFormat } from "./types";

/** How the mock image model behaves; provider_options `mock_latency_ms` and `mock_failure_rate` override per job. */
export interface MockImageBehaviour {
  latencyMs: number;
  /** Share of calls that fail as a vendor's 500 would (retryable). */
  failureRate: number;
}

/** Options of the mock image provider. */
export interface MockImageProviderOptions {
  behaviour?: Partial<MockImageBehaviour>;
  random?: () => number;
  /** Called at the start of every call (before any failure), e.g. to log calls across processes. */
  onCall?: (call: MockImageCall) => void;
}

/** One call the mock received: enough to tell jobs apart and count each one's calls. */
export interface MockImageCall {
  model: string;
  prompt: string;
  /** The hash of everything that shapes the image (the same for the same job). */
  fingerprint: string;
}

/** The mock image provider, with the count of calls it received (tests assert each job called once). */
export interface MockImageProvider extends ImageModelProvider {
  readonly stats: { calls: number; byFingerprint: Map<string, number> };
}

/** The environment variables that tune the mock for a whole process (the CLI, the server). */
export const MOCK_IMAGE_LATENCY_VARIABLE = "PARALLAXR_MOCK_IMAGE_LATENCY_MS";
export const MOCK_IMAGE_FAILURE_RATE_VARIABLE = "PARALLAXR_MOCK_IMAGE_FAILURE_RATE";

/** The behaviour an environment asks for; the composition root passes process.env. */
export function mockImageBehaviourFromEnv(env: Record<string, string | undefined>): Partial<MockImageBehaviour> {
  const behaviour: Partial<MockImageBehaviour> = {};
  const latency = Number(env[MOCK_IMAGE_LATENCY_VARIABLE]);
  if (env[MOCK_IMAGE_LATENCY_VARIABLE] && Number.isFinite(latency) && latency >= 0) behaviour.latencyMs = latency;
  const rate = Number(env[MOCK_IMAGE_FAILURE_RATE_VARIABLE]);
  if (env[MOCK_IMAGE_FAILURE_RATE_VARIABLE] && Number.isFinite(rate) && rate >= 0 && rate <= 1) behaviour.failureRate = rate;
  return behaviour;
}

const behaviourKeys = new Set(["mock_latency_ms", "mock_failure_rate", "mock_fail"]);

/**
 * A keyless image model for trying batch runs without spending anything: `provider: mock`, any
 * model name. It makes a real image in the requested format and size whose colours and stripes
 * come from a hash of everything that shapes it (prompt, seed, size, model, quality, background,
 * output format, provider_options, and the image's index), so the same job always gives the same
 * bytes and any change gives a visibly different picture.
 *
 * `mock_fail: server | rate_limited | content_policy | auth` in provider_options makes a call fail
 * that way, for trying how a batch records each failure.
 */
export function createMockImageProvider(options: MockImageProviderOptions = {}): MockImageProvider {
  const random = options.random ?? Math.random;
  const stats = { calls: 0, byFingerprint: new Map<string, number>() };
  return {
    id: "mock",
    kind: "image",
    stats,

    async generate(request) {
      const problem = imageJobProblem("mock", request);
      if (problem) throw new ImageProviderError({ kind: "option_rejected", message: problem });
      const started = performance.now();
      const providerOptions = request.providerOptions ?? {};
      const shaping = Object.fromEntries(Object.entries(providerOptions).filter(([key]) => !behaviourKeys.has(key)));
      const outputFormat: ImageOutputFormat = request.outputFormat ?? "png";
      // Checked by imageJobProblem above: the size parses and is within the mock's sides.
      const { width, height } = mockDimensions(request.size ?? "1024x1024", providerOptions.image_size) ?? { width: 0, height: 0 };
      const n = request.n ?? 1;
      const inputs = {
        model: request.model,
        prompt: request.prompt,
        size: request.size ?? "1024x1024",
        seed: request.seed ?? null,
        quality: request.quality ?? null,
        background: request.background ?? null,
        output_format: outputFormat,
        provider_options: sortKeys(shaping),
      };
      const fingerprint = createHash("sha256").update(JSON.stringify(inputs)).digest("hex");
      stats.calls += 1;
      stats.byFingerprint.set(fingerprint, (stats.byFingerprint.get(fingerprint) ?? 0) + 1);
      options.onCall?.({ model: request.model, prompt: request.prompt, fingerprint });

      const latencyMs = numberOption(providerOptions.mock_latency_ms) ?? options.behaviour?.latencyMs ?? 0;
      const failureRate = numberOption(providerOptions.mock_failure_rate) ?? options.behaviour?.failureRate ?? 0;
      if (latencyMs > 0) await wait(latencyMs, request.signal, request.timeoutMs);
      failOnPurpose(providerOptions.mock_fail);
      if (failureRate > 0 && random() < failureRate) {
        throw new ProviderError({
          code: "server",
          statusCode: 500,
          message: `The mock image model failed on purpose (failure rate ${failureRate}).`,
        });
      }

      const images: GeneratedImage[] = [];
      for (let index = 0; index < n; index += 1) {
        const seed = createHash("sha256").update(`${fingerprint}|${index}`).digest();
        const data = await encode(drawPattern(width, height, seed), width, height, outputFormat, request.quality ?? null);
        images.push({ data, mediaType: `image/${outputFormat}`, width, height });
      }
      return {
        images,
        warnings: [],
        receipt: {
          provider: "mock",
          model: request.model,
          endpoint: "mock://images",
          request: { ...inputs, n, provider_options: providerOptions },
          response: { id: `mock-${fingerprint.slice(0, 16)}`, width, height, output_format: outputFormat },
          usage: { images: n },
          costUsd: 0,
          latencyMs: Math.round(performance.now() - started),
        },
      };
    },

    async listModels(): Promise<ModelInfo[]> {
      return [
        {
          provider: "mock",
          model: "mock-image",
          label: "mock-image",
          description: "A keyless image model that draws a pattern from its inputs",
        },
      ];
    },
  };
}

/** Stripes at an angle in two colours, crossed by a checkerboard in a third: all from the hash. */
function drawPattern(width: number, height: number, seed: Buffer): Buffer {
  const colours = [0, 3, 6].map((offset) => [seed[offset], seed[offset + 1], seed[offset + 2]]);
  const angle = (seed[9] / 256) * Math.PI;
  const period = 8 + (seed[10] % 57);
  const cell = 16 + (seed[11] % 113);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const pixels = Buffer.alloc(width * height * 3);
  let offset = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const stripe = Math.floor((x * cos + y * sin) / period) & 1;
      const checker = (Math.floor(x / cell) + Math.floor(y / cell)) & 1;
      const base = colours[stripe];
      const over = colours[2];
      for (let channel = 0; channel < 3; channel += 1) {
        pixels[offset + channel] = checker ? (base[channel] * 3 + over[channel]) >> 2 : base[channel];
      }
      offset += 3;
    }
  }
  return pixels;
}

const jpegQuality: Record<string, number> = { low: 60, medium: 80, high: 92 };

async function encode(
  pixels: Buffer,
  width: number,
  height: number,
  format: ImageOutputFormat,
  quality: string | null,
): Promise<Uint8Array> {
  // sharp (a native library) loads on the first image, not at every start of the server or CLI
  const { default: sharp } = await import("sharp");
  const image = sharp(pixels, { raw: { width, height, channels: 3 } });
  const level = (quality && jpegQuality[quality]) || 85;
  const encoded = format === "png" ? image.png() : format === "jpeg" ? image.jpeg({ quality: level }) : image.webp({ quality: level });
  return new Uint8Array(await encoded.toBuffer());
}

function failOnPurpose(mode: unknown): void {
  switch (mode) {
    case undefined:
    case null:
      return;
    case "server":
      throw new ProviderError({
        code: "server",
        statusCode: 500,
        message: "The mock image model answered 500 on purpose (mock_fail: server).",
      });
    case "rate_limited":
      throw new ProviderError({
        code: "rate_limited",
        statusCode: 429,
        retryAfterMs: 1000,
        message: "The mock image model is rate limiting on purpose (mock_fail: rate_limited).",
      });
    case "content_policy":
      throw new ImageProviderError({
        kind: "content_policy",
        statusCode: 400,
        message: "The mock image model refused the prompt on purpose (mock_fail: content_policy).",
      });
    case "auth":
      throw new ProviderError({
        code: "auth",
        statusCode: 401,
        message: "The mock image model rejected the key on purpose (mock_fail: auth).",
      });
    default:
      throw new ImageProviderError({
        kind: "option_rejected",
        message: `mock_fail must be server, rate_limited, content_policy or auth, not ${JSON.stringify(mode)}.`,
      });
  }
}

function numberOption(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

function wait(ms: number, signal: AbortSignal, timeoutMs: number | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timedOut = timeoutMs !== undefined && timeoutMs < ms;
    const aborted = () => {
      clearTimeout(timer);
      reject(new ProviderError({ code: "timeout", message: "The call to the mock image model was aborted before it answered." }));
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", aborted);
        if (timedOut)
          reject(new ProviderError({ code: "timeout", message: `The mock image model did not answer within ${timeoutMs} ms.` }));
        else resolve();
      },
      timedOut ? timeoutMs : ms,
    );
    if (signal.aborted) aborted();
    else signal.addEventListener("abort", aborted, { once: true });
  });
}
