import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { imageJobProblem } from "@/lib/providers/image/job-check";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import { TEST_API_KEY, providerErrorOf, startVendorServer, type VendorServer } from "../helpers/vendor-server";

describe("what each provider cannot make, known before any call", () => {
  it.each([
    ["openai", { size: "1024x1536" }, null],
    ["openai", { size: "auto" }, null],
    ["openai", { size: "4:5" }, `OpenAI's gpt-image models make sizes 1024x1024, 1536x1024, 1024x1536, auto, not "4:5".`],
    ["gemini", { size: "4:5" }, null],
    ["gemini", { size: "21:9" }, null],
    ["gemini", { size: "1024x1536" }, null],
    ["gemini", { size: "1024x1000" }, expect.stringContaining('Gemini cannot make size "1024x1000"')],
    ["flux", { size: "1440x816" }, null],
    ["flux", { size: "16:9" }, null],
    ["flux", { size: "large" }, expect.stringContaining('not "large"')],
    ["flux", { n: 2 }, expect.stringContaining("one image per request, not n=2")],
    ["openrouter", { size: "4:5", n: 1 }, null],
    ["openrouter", { n: 4 }, expect.stringContaining("not n=4")],
    ["mock", { size: "4:5", providerOptions: { image_size: "4K" } }, null],
    ["mock", { size: "8x8" }, "The mock makes images of 16 to 4096 px a side, not 8x8."],
    ["mock", { n: 11 }, "The mock makes 1 to 10 images per call, not n=11."],
    ["openai", { n: 0 }, "n must be a whole number of images, 1 or more, not 0."],
    ["someone-else", { size: "whatever" }, null],
  ])("%s %j -> %s", (provider, job, problem) => {
    expect(imageJobProblem(provider, job)).toEqual(problem);
  });

  describe("the adapters apply the same rule before sending", () => {
    let server: VendorServer;
    beforeAll(async () => {
      server = await startVendorServer();
    });
    afterAll(() => server.close());

    it.each(["openai", "gemini", "flux", "openrouter"] as const)("%s refuses a size it cannot make without a request", async (provider) => {
      const adapter = imageProviderFactories[provider].create({ apiKey: TEST_API_KEY, baseURL: server.origin });
      const error = await providerErrorOf(
        adapter.generate({ model: "m", prompt: "p", size: "not-a-size", n: 1, signal: AbortSignal.timeout(5_000) }),
      );
      expect(imageErrorKind(error)).toBe("option_rejected");
      expect(error.message).toBe(imageJobProblem(provider, { size: "not-a-size", n: 1 }));
      expect(server.requests).toHaveLength(0);
    });
  });
});
