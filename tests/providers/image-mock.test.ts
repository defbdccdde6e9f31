import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { createMockImageProvider, mockImageBehaviourFromEnv } from "@/lib/providers/image/mock";
import type { ImageGenerationRequest } from "@/lib/providers/image/types";
import { providerErrorOf } from "../helpers/vendor-server";

function job(overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest {
  return {
    model: "mock-image",
    prompt: "A glossy food portrait of ramen",
    size: "256x192",
    seed: 101,
    n: 1,
    outputFormat: "png",
    providerOptions: { quality: "high" },
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  };
}

async function bytesOf(overrides: Partial<ImageGenerationRequest> = {}): Promise<Buffer> {
  const result = await createMockImageProvider().generate(job(overrides));
  return Buffer.from(result.images[0].data);
}

describe("mock image provider", () => {
  it("makes the same bytes for the same job, from a fresh provider too", async () => {
    const first = await bytesOf();
    const second = await bytesOf();
    expect(second.equals(first)).toBe(true);
  });

  it.each<[string, Partial<ImageGenerationRequest>]>([
    ["prompt", { prompt: "A glossy food portrait of udon" }],
    ["seed", { seed: 102 }],
    ["size", { size: "192x256" }],
    ["model", { model: "mock-image-2" }],
    ["provider option", { providerOptions: { quality: "low" } }],
    ["nested provider option", { providerOptions: { quality: "high", style: { tone: "warm" } } }],
  ])("makes a visibly different image when the %s changes", async (_what, change) => {
    const base = await bytesOf();
    const changed = await bytesOf(change);
    expect(changed.equals(base)).toBe(false);
    // Different pixels, not only different file bytes: compare the decoded pictures at one size.
    const pixels = async (bytes: Buffer) => sharp(bytes).resize(64, 64, { fit: "fill" }).raw().toBuffer();
    const [a, b] = await Promise.all([pixels(base), pixels(changed)]);
    let differing = 0;
    for (let index = 0; index < a.length; index += 1) if (Math.abs(a[index] - b[index]) > 24) differing += 1;
    expect(differing / a.length).toBeGreaterThan(0.2);
  });

  it("ignores its own behaviour knobs when drawing (a latency change is not a new picture)", async () => {
    const base = await bytesOf();
    const slow = await bytesOf({ providerOptions: { quality: "high", mock_latency_ms: 5 } });
    expect(slow.equals(base)).toBe(true);
  });

  it.each([
    ["png", "256x192", 256, 192],
    ["jpeg", "1024x1536", 1024, 1536],
    ["webp", "320x320", 320, 320],
  ] as const)("writes a real %s of the requested size %s", async (format, size, width, height) => {
    const result = await createMockImageProvider().generate(job({ outputFormat: format, size }));
    const metadata = await sharp(result.images[0].data).metadata();
    expect(metadata.format).toBe(format);
    expect([metadata.width, metadata.height]).toEqual([width, height]);
    expect(result.images[0]).toMatchObject({ mediaType: `image/${format}`, width, height });
  });

  it("draws an aspect ratio at image_size on its long side, as Gemini does", async () => {
    const result = await createMockImageProvider().generate(job({ size: "4:5", providerOptions: { image_size: "1K" } }));
    const metadata = await sharp(result.images[0].data).metadata();
    expect([metadata.width, metadata.height]).toEqual([819, 1024]);
  });

  it("makes n different images in one call, and a receipt without bytes", async () => {
    const result = await createMockImageProvider().generate(job({ n: 3 }));
    expect(result.images).toHaveLength(3);
    const distinct = new Set(result.images.map((image) => Buffer.from(image.data).toString("base64")));
    expect(distinct.size).toBe(3);
    expect(result.receipt).toMatchObject({ provider: "mock", model: "mock-image", costUsd: 0, usage: { images: 3 } });
    expect(result.receipt.request).toMatchObject({
      prompt: "A glossy food portrait of ramen",
      seed: 101,
      n: 3,
      provider_options: { quality: "high" },
    });
    expect(JSON.stringify(result.receipt).length).toBeLessThan(2_000);
  });

  it("counts every call, per job fingerprint", async () => {
    const provider = createMockImageProvider();
    await provider.generate(job());
    await provider.generate(job({ seed: 7 }));
    await provider.generate(job());
    expect(provider.stats.calls).toBe(3);
    expect([...provider.stats.byFingerprint.values()].sort()).toEqual([1, 2]);
  });

  it("fails at its failure rate as a retryable server error, and waits its latency", async () => {
    const provider = createMockImageProvider({ behaviour: { failureRate: 0.5, latencyMs: 40 }, random: () => 0.3 });
    const started = performance.now();
    const error = await providerErrorOf(provider.generate(job()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(error).toMatchObject({ code: "server", retryable: true });
    const lucky = createMockImageProvider({ behaviour: { failureRate: 0.5 }, random: () => 0.7 });
    await expect(lucky.generate(job())).resolves.toBeDefined();
  });

  it("reads its behaviour from the environment", () => {
    expect(mockImageBehaviourFromEnv({ PARALLAXR_MOCK_IMAGE_LATENCY_MS: "250", PARALLAXR_MOCK_IMAGE_FAILURE_RATE: "0.1" })).toEqual({
      latencyMs: 250,
      failureRate: 0.1,
    });
    expect(mockImageBehaviourFromEnv({ PARALLAXR_MOCK_IMAGE_FAILURE_RATE: "2" })).toEqual({});
  });

  it("fails on purpose the way mock_fail says", async () => {
    const provider = createMockImageProvider();
    const kinds = [];
    for (const mode of ["server", "rate_limited", "content_policy", "auth", "nonsense"]) {
      kinds.push(imageErrorKind(await providerErrorOf(provider.generate(job({ providerOptions: { mock_fail: mode } })))));
    }
    expect(kinds).toEqual(["server", "rate_limited", "content_policy", "auth", "option_rejected"]);
  });

  it("times out when its latency is longer than the call's timeout", async () => {
    const error = await providerErrorOf(createMockImageProvider({ behaviour: { latencyMs: 5_000 } }).generate(job({ timeoutMs: 30 })));
    expect(error.code).toBe("timeout");
  });

  it("refuses a size it cannot make, naming it", async () => {
    const error = await providerErrorOf(createMockImageProvider().generate(job({ size: "big" })));
    expect(imageErrorKind(error)).toBe("option_rejected");
    expect(error.message).toContain('"big"');
    const huge = await providerErrorOf(createMockImageProvider().generate(job({ size: "9000x9000" })));
    expect(huge.message).toContain("9000x9000");
  });
});

describe("mock image provider, cancelled", () => {
  it("stops waiting when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const call = createMockImageProvider({ behaviour: { latencyMs: 5_000 } }).generate(job({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    const error = await providerErrorOf(call);
    expect(error.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
