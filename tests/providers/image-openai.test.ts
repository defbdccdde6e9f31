import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import type { ImageModelProvider } from "@/lib/providers/image/types";
import { TEST_API_KEY, readFixture, startVendorServer, type VendorServer } from "../helpers/vendor-server";

async function jpegBase64(): Promise<string> {
  const image = sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 210, g: 90, b: 30 } } });
  return (await image.jpeg().toBuffer()).toString("base64");
}

describe("OpenAI image adapter (POST /v1/images/generations over HTTP)", () => {
  let server: VendorServer;
  let provider: ImageModelProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/v1" });
    provider = imageProviderFactories.openai.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("sends the job's parameters and provider_options, and returns the decoded image with a receipt", async () => {
    server.enqueue({ body: readFixture("image-openai", "images-response.json").replace("__IMAGE_BASE64__", await jpegBase64()) });
    const result = await provider.generate({
      model: "gpt-image-1.5",
      prompt: "A glossy food portrait of ramen",
      size: "1024x1024",
      quality: null,
      n: 1,
      seed: 101,
      outputFormat: "jpeg",
      background: null,
      providerOptions: { quality: "high", moderation: "low", output_compression: 80 },
      signal: AbortSignal.timeout(10_000),
    });

    const [sent] = server.requests;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/images/generations");
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    // null means "the vendor's default" and is not sent; the seed is not an Image API field.
    expect(sent.body).toEqual({
      model: "gpt-image-1.5",
      prompt: "A glossy food portrait of ramen",
      n: 1,
      size: "1024x1024",
      output_format: "jpeg",
      quality: "high",
      moderation: "low",
      output_compression: 80,
    });

    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ mediaType: "image/jpeg", width: 48, height: 32 });
    expect((await sharp(result.images[0].data).metadata()).format).toBe("jpeg");
    expect(result.warnings).toEqual(["OpenAI's Image API takes no seed: the seed is recorded but not sent."]);
    expect(result.receipt).toMatchObject({
      provider: "openai",
      model: "gpt-image-1.5",
      endpoint: `${server.baseURL}/images/generations`,
      request: sent.body,
      response: { created: 1767726210, size: "1024x1024", quality: "high", background: "opaque", output_format: "jpeg" },
      usage: { input_tokens: 52, output_tokens: 4160, total_tokens: 4212, input_tokens_details: { text_tokens: 52, image_tokens: 0 } },
      costUsd: null,
    });
    const receipt = JSON.stringify(result.receipt);
    expect(receipt).not.toContain("KEYMATERIAL");
    expect(receipt).not.toContain("b64_json");
  });

  it("returns every image of n in order", async () => {
    const one = await jpegBase64();
    const two = (
      await sharp({ create: { width: 20, height: 10, channels: 3, background: "#0a0" } })
        .png()
        .toBuffer()
    ).toString("base64");
    server.enqueue({ body: { created: 1, data: [{ b64_json: one }, { b64_json: two, revised_prompt: "ramen, glossy" }] } });
    const result = await provider.generate({ model: "gpt-image-1-mini", prompt: "ramen", n: 2, signal: AbortSignal.timeout(10_000) });
    expect(result.images.map((image) => [image.mediaType, image.width])).toEqual([
      ["image/jpeg", 48],
      ["image/png", 20],
    ]);
    expect(result.receipt.response.revised_prompts).toEqual([null, "ramen, glossy"]);
    expect(server.requests[0].body).toEqual({ model: "gpt-image-1-mini", prompt: "ramen", n: 2 });
  });
});
