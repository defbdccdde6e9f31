import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import type { ImageModelProvider } from "@/lib/providers/image/types";
import { TEST_API_KEY, providerErrorOf, readFixture, startVendorServer, type VendorServer } from "../helpers/vendor-server";

describe("OpenRouter image adapter (chat completions with modalities image and text over HTTP)", () => {
  let server: VendorServer;
  let provider: ImageModelProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/api/v1" });
    provider = imageProviderFactories.openrouter.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("asks for image output with image_config, decodes the data URL, and keeps OpenRouter's cost", async () => {
    const png = (
      await sharp({ create: { width: 30, height: 30, channels: 3, background: "#c33" } })
        .png()
        .toBuffer()
    ).toString("base64");
    server.enqueue({ body: readFixture("image-openrouter", "chat-completion-image.json").replace("__IMAGE_BASE64__", png) });
    const result = await provider.generate({
      model: "google/gemini-2.5-flash-image",
      prompt: "A glossy food portrait of ramen",
      size: "4:5",
      seed: 3,
      n: 1,
      providerOptions: { image_size: "2K", provider: { order: ["google-ai-studio"] } },
      signal: AbortSignal.timeout(10_000),
    });
    const [sent] = server.requests;
    expect(sent.path).toBe("/api/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(sent.body).toEqual({
      model: "google/gemini-2.5-flash-image",
      messages: [{ role: "user", content: "A glossy food portrait of ramen" }],
      modalities: ["image", "text"],
      image_config: { aspect_ratio: "4:5", image_size: "2K" },
      seed: 3,
      provider: { order: ["google-ai-studio"] },
    });
    expect(result.images[0]).toMatchObject({ mediaType: "image/png", width: 30, height: 30 });
    expect(result.receipt).toMatchObject({
      provider: "openrouter",
      costUsd: 0.0387,
      usage: { prompt_tokens: 9, completion_tokens: 1290, cost: 0.0387 },
      response: { id: "gen-1767726210-pQ4bXn2kRz7Yf8Tc3vWm", provider: "Google AI Studio", finish_reasons: ["stop"] },
    });
    expect(JSON.stringify(result.receipt)).not.toContain("KEYMATERIAL");
  });

  it("does not fetch an image sent as a link: that answer is malformed", async () => {
    server.enqueue({
      body: {
        choices: [
          { finish_reason: "stop", message: { images: [{ type: "image_url", image_url: { url: `${server.origin}/secret.png` } }] } },
        ],
      },
    });
    const error = await providerErrorOf(provider.generate({ model: "m", prompt: "p", signal: AbortSignal.timeout(10_000) }));
    expect(imageErrorKind(error)).toBe("malformed");
    expect(server.requests).toHaveLength(1);
  });

  it("reports a choice ended by the content filter as a refusal", async () => {
    server.enqueue({ body: { choices: [{ finish_reason: "content_filter", message: { role: "assistant", content: "" } }] } });
    const error = await providerErrorOf(provider.generate({ model: "m", prompt: "p", signal: AbortSignal.timeout(10_000) }));
    expect(imageErrorKind(error)).toBe("content_policy");
  });
});
