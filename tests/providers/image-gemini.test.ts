import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import type { ImageGenerationRequest, ImageModelProvider } from "@/lib/providers/image/types";
import {
  TEST_API_KEY,
  providerErrorOf,
  readFixture,
  readJsonFixture,
  startVendorServer,
  type VendorServer,
} from "../helpers/vendor-server";

async function pngBase64(): Promise<string> {
  const image = sharp({ create: { width: 40, height: 50, channels: 3, background: { r: 30, g: 90, b: 210 } } });
  return (await image.png().toBuffer()).toString("base64");
}

const job = (overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest => ({
  model: "gemini-2.5-flash-image",
  prompt: "A glossy food portrait of ramen",
  size: "4:5",
  n: 1,
  outputFormat: "jpeg",
  providerOptions: { image_size: "2K" },
  signal: AbortSignal.timeout(10_000),
  ...overrides,
});

describe("Gemini image adapter (generateContent with imageConfig over HTTP)", () => {
  let server: VendorServer;
  let provider: ImageModelProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/v1beta" });
    provider = imageProviderFactories.gemini.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("asks for image output with the aspect ratio and image size, and decodes the inline image", async () => {
    server.enqueue({ body: readFixture("image-gemini", "generate-content-image.json").replace("__IMAGE_BASE64__", await pngBase64()) });
    const result = await provider.generate(job({ seed: 7 }));

    const [sent] = server.requests;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash-image:generateContent");
    expect(sent.headers["x-goog-api-key"]).toBe(TEST_API_KEY);
    expect(sent.query.get("key")).toBeNull();
    expect(sent.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "A glossy food portrait of ramen" }] }],
      generationConfig: { responseModalities: ["TEXT", "IMAGE"], seed: 7, imageConfig: { aspectRatio: "4:5", imageSize: "2K" } },
    });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ mediaType: "image/png", width: 40, height: 50 });
    // Gemini chose PNG although JPEG was asked: said, not hidden.
    expect(result.warnings).toEqual(["Gemini chooses the image format itself: output_format jpeg was asked, image/png came back."]);
    expect(result.receipt).toMatchObject({
      provider: "gemini",
      endpoint: `${server.baseURL}/models/gemini-2.5-flash-image:generateContent`,
      response: {
        response_id: "kW9daLzJE4m7nvgP5qGz8Qk",
        model_version: "gemini-2.5-flash-image",
        finish_reasons: ["STOP"],
        text: "Here is a glossy portrait of a bowl of ramen.",
      },
      usage: { promptTokenCount: 11, candidatesTokenCount: 1300, totalTokenCount: 1311 },
    });
    expect(JSON.stringify(result.receipt)).not.toContain("KEYMATERIAL");
    expect(JSON.stringify(result.receipt)).not.toContain("inlineData");
  });

  it("sends a pixel size as its aspect ratio, written ratios as written", async () => {
    const body = readFixture("image-gemini", "generate-content-image.json").replace("__IMAGE_BASE64__", await pngBase64());
    server.enqueue({ body }, { body });
    await provider.generate(job({ size: "1024x1536", providerOptions: {} }));
    await provider.generate(job({ size: "21:9", providerOptions: {} }));
    expect(server.requests.map((request) => request.body.generationConfig.imageConfig)).toEqual([
      { aspectRatio: "2:3" },
      { aspectRatio: "21:9" },
    ]);
  });

  it("refuses a size Gemini cannot make before calling it", async () => {
    const error = await providerErrorOf(provider.generate(job({ size: "1000x1001" })));
    expect(imageErrorKind(error)).toBe("option_rejected");
    expect(error.message).toContain('"1000x1001"');
    expect(error.message).toContain("4:5");
    expect(server.requests).toHaveLength(0);
  });

  it("reports a candidate stopped for image safety as a content-policy refusal", async () => {
    server.enqueue({ body: readJsonFixture("image-gemini", "candidate-image-safety.json") });
    const error = await providerErrorOf(provider.generate(job()));
    expect(imageErrorKind(error)).toBe("content_policy");
    expect(error.message).toContain("IMAGE_SAFETY");
  });

  it("reports an answer with text and no image as malformed, with the finish reason", async () => {
    server.enqueue({ body: { candidates: [{ content: { parts: [{ text: "I can only describe it." }] }, finishReason: "STOP" }] } });
    const error = await providerErrorOf(provider.generate(job()));
    expect(imageErrorKind(error)).toBe("malformed");
    expect(error.message).toContain("STOP");
  });
});
