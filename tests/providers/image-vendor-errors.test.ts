import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import type { ImageGenerationRequest, ImageModelProvider } from "@/lib/providers/image/types";
import {
  TEST_API_KEY,
  everythingIn,
  providerErrorOf,
  readJsonFixture,
  startVendorServer,
  type VendorResponse,
  type VendorServer,
} from "../helpers/vendor-server";

/**
 * The failures every image vendor can answer with, at the wire: each adapter against a local
 * server speaking its format. For FLUX the failure comes at the submission, the request that
 * carries the key.
 */
interface VendorCase {
  provider: "openai" | "gemini" | "flux" | "openrouter";
  model: string;
  unauthorized: VendorResponse;
  rateLimited: VendorResponse;
  serverError: VendorResponse;
  /** Null for FLUX, whose refusals come from polling (image-flux.test.ts). */
  contentPolicy: VendorResponse | null;
  rejectedOption: { response: VendorResponse; says: string };
  /** A success whose image data is not an image, or null where the vendor sends no image data inline. */
  notAnImage: VendorResponse | null;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): VendorResponse => ({ status, body, headers });
const notPng = Buffer.from("this is not an image at all").toString("base64");

const cases: VendorCase[] = [
  {
    provider: "openai",
    model: "gpt-image-1.5",
    unauthorized: json(401, readJsonFixture("openai", "error-401-invalid-api-key.json")),
    rateLimited: json(429, readJsonFixture("openai", "error-429-rate-limit.json"), { "retry-after": "7" }),
    serverError: json(500, readJsonFixture("openai", "error-500-server-error.json")),
    contentPolicy: json(400, readJsonFixture("image-openai", "error-400-moderation-blocked.json")),
    rejectedOption: {
      response: json(400, readJsonFixture("image-openai", "error-400-unknown-parameter.json")),
      says: "Unknown parameter: 'sparkle'",
    },
    notAnImage: json(200, { created: 1, data: [{ b64_json: notPng }] }),
  },
  {
    provider: "gemini",
    model: "gemini-2.5-flash-image",
    unauthorized: json(400, readJsonFixture("gemini", "error-400-api-key-invalid.json")),
    rateLimited: json(429, readJsonFixture("gemini", "error-429-resource-exhausted.json"), { "retry-after": "7" }),
    serverError: json(500, readJsonFixture("gemini", "error-500-internal.json")),
    contentPolicy: json(200, readJsonFixture("image-gemini", "prompt-blocked.json")),
    rejectedOption: {
      response: json(400, readJsonFixture("image-gemini", "error-400-unknown-field.json")),
      says: 'Unknown name "sparkle"',
    },
    notAnImage: json(200, {
      candidates: [{ content: { parts: [{ inlineData: { mimeType: "image/png", data: notPng } }] }, finishReason: "STOP" }],
    }),
  },
  {
    provider: "flux",
    model: "flux-2-flex",
    unauthorized: json(403, { detail: "Not authenticated - Invalid Authentication" }),
    rateLimited: json(429, { detail: "You have exceeded the number of active tasks (24)." }, { "retry-after": "7" }),
    serverError: json(500, { detail: "Internal Server Error" }),
    contentPolicy: null,
    rejectedOption: { response: json(422, readJsonFixture("image-flux", "error-422-validation.json")), says: "refused the request (422)" },
    notAnImage: null,
  },
  {
    provider: "openrouter",
    model: "google/gemini-2.5-flash-image",
    unauthorized: json(401, readJsonFixture("openrouter", "error-401-no-auth.json")),
    rateLimited: json(429, readJsonFixture("openrouter", "error-429-rate-limited.json"), { "retry-after": "7" }),
    serverError: json(500, { error: { code: 500, message: "Internal Server Error" } }),
    contentPolicy: json(403, readJsonFixture("image-openrouter", "error-403-moderation.json")),
    rejectedOption: {
      response: json(400, { error: { code: 400, message: "sparkle is not a valid parameter" } }),
      says: "sparkle is not a valid parameter",
    },
    notAnImage: json(200, {
      choices: [
        {
          finish_reason: "stop",
          message: {
            role: "assistant",
            content: "",
            images: [{ type: "image_url", image_url: { url: `data:image/png;base64,${notPng}` } }],
          },
        },
      ],
    }),
  },
];

describe.each(cases)("$provider image adapter: failures at the wire", (vendor) => {
  let server: VendorServer;
  let provider: ImageModelProvider;
  const request = (overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest => ({
    model: vendor.model,
    prompt: "A glossy food portrait of ramen",
    size: "1024x1024",
    n: 1,
    providerOptions: {},
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  });

  beforeAll(async () => {
    server = await startVendorServer();
    provider = imageProviderFactories[vendor.provider].create({ apiKey: TEST_API_KEY, baseURL: server.origin }, { pollIntervalMs: 10 });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("reports a refused key as auth, not retryable, without the key", async () => {
    server.enqueue(vendor.unauthorized);
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("...7f3a");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
  });

  it("reports 429 as rate limited, retryable, with Retry-After", async () => {
    server.enqueue(vendor.rateLimited);
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("rate_limited");
    expect(error).toMatchObject({ retryable: true, retryAfterMs: 7_000, statusCode: 429 });
  });

  it("reports 500 as a server error the caller may retry once", async () => {
    server.enqueue(vendor.serverError);
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("server");
    expect(error).toMatchObject({ retryable: true, statusCode: 500 });
    expect(server.requests).toHaveLength(1);
  });

  it.skipIf(vendor.contentPolicy === null)("reports a content-policy refusal as such, not retryable", async () => {
    server.enqueue(vendor.contentPolicy as VendorResponse);
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("content_policy");
    expect(error.retryable).toBe(false);
  });

  it("returns an option the vendor rejects as its error, with its words", async () => {
    server.enqueue(vendor.rejectedOption.response);
    const error = await providerErrorOf(provider.generate(request({ providerOptions: { sparkle: true } })));
    expect(imageErrorKind(error)).toBe("option_rejected");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(vendor.rejectedOption.says);
    // The unknown option was passed through for the vendor to judge.
    expect(server.requests[0].rawBody).toContain("sparkle");
  });

  it("ends a call that does not answer within its timeout as a timeout", async () => {
    server.enqueue({ hang: true });
    const started = performance.now();
    const error = await providerErrorOf(provider.generate(request({ timeoutMs: 300 })));
    expect(imageErrorKind(error)).toBe("timeout");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("did not finish within 0.3 s, the call's timeout.");
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("reports a body that is not JSON as malformed, not retried", async () => {
    server.enqueue({ status: 200, body: '{"data": [{"b64_json": "iVBOR' });
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("malformed");
    expect(error.retryable).toBe(false);
  });

  it("reports an empty success as malformed", async () => {
    server.enqueue({ status: 200, body: {} });
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("malformed");
  });

  it.skipIf(vendor.notAnImage === null)("reports image data that is not an image as malformed", async () => {
    server.enqueue(vendor.notAnImage as VendorResponse);
    const error = await providerErrorOf(provider.generate(request()));
    expect(imageErrorKind(error)).toBe("malformed");
    expect(error.message).toContain("not an image");
  });
});
