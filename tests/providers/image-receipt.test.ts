import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createMockImageProvider } from "@/lib/providers/image/mock";
import { imageExtension, imageReceiptFile } from "@/lib/providers/image/receipt";

describe("image receipt files", () => {
  it("hold the call's request, response, usage and cost, and the image's own facts, without bytes or secrets", async () => {
    const result = await createMockImageProvider().generate({
      model: "mock-image",
      prompt: "ramen",
      size: "64x48",
      n: 2,
      outputFormat: "jpeg",
      providerOptions: { quality: "high", api_key: "sk-live-SHOULDNOTAPPEAR", nested: { auth_token: "tok-SHOULDNOTAPPEAR", tokens: 3 } },
      signal: AbortSignal.timeout(10_000),
    });
    const second = imageReceiptFile(result, 1);
    expect(second).toMatchObject({
      receipt_version: 1,
      provider: "mock",
      model: "mock-image",
      cost_usd: 0,
      usage: { images: 2 },
      image: { index: 1, count: 2, media_type: "image/jpeg", width: 64, height: 48, bytes: result.images[1].data.byteLength },
      warnings: [],
    });
    expect(second.image.sha256).toBe(createHash("sha256").update(result.images[1].data).digest("hex"));
    expect(second.image.sha256).not.toBe(imageReceiptFile(result, 0).image.sha256);
    const text = JSON.stringify(second);
    expect(text).not.toContain("SHOULDNOTAPPEAR");
    expect(second.request).toMatchObject({
      provider_options: { quality: "high", api_key: "[masked]", nested: { auth_token: "[masked]", tokens: 3 } },
    });
    expect(text.length).toBeLessThan(2_000);
    expect(() => imageReceiptFile(result, 2)).toThrow("there is no image 2");
  });

  it("names extensions as the spec's outputs do", () => {
    expect(["image/jpeg", "image/png", "image/webp"].map(imageExtension)).toEqual(["jpg", "png", "webp"]);
    expect(() => imageExtension("image/gif")).toThrow("only PNG, JPEG and WebP");
  });
});
