import { APICallError } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyHttpFailure, classifyProviderError, type ErrorContext } from "@/lib/providers/adapters/classify-error";
import { ProviderError } from "@/lib/providers/provider-error";
import { providerFactories } from "@/lib/providers/provider-factories";
import {
  TEST_API_KEY,
  everythingIn,
  readChunksFixture,
  readJsonFixture,
  sseData,
  startVendorServer,
  textRequest,
  type VendorServer,
} from "../helpers/vendor-server";

const context: ErrorContext = {
  provider: "OpenAI",
  model: "gpt-4o",
  apiKey: TEST_API_KEY,
  codes: { contextOverflow: ["context_length_exceeded"], modelNotFound: ["model_not_found"] },
};

function http(status: number, body: unknown = {}, headers: Record<string, string> = {}, now?: Date): ProviderError {
  return classifyHttpFailure({ status, body, headers, context: { ...context, now: now ? () => now : undefined } });
}

describe("classifyProviderError: errors it does not know stay loud", () => {
  it("returns null for our own bugs, so callers rethrow them unchanged", () => {
    expect(classifyProviderError(new TypeError("Cannot read properties of undefined (reading 'text')"), context)).toBeNull();
    expect(classifyProviderError(new RangeError("bad index"), context)).toBeNull();
    expect(classifyProviderError("a string", context)).toBeNull();
    expect(classifyProviderError({ no: "message" }, context)).toBeNull();
    expect(classifyProviderError(undefined, context)).toBeNull();
  });

  it("passes a ProviderError through as it is", () => {
    const error = new ProviderError({ code: "timeout", message: "x" });
    expect(classifyProviderError(error, context)).toBe(error);
  });

  it("rethrows an error thrown by the caller's onDelta unchanged, through a real streaming call", async () => {
    const server: VendorServer = await startVendorServer({ prefix: "/v1" });
    try {
      server.enqueue({ chunks: sseData(readChunksFixture("openai", "chat-completion.chunks.txt")) });
      const provider = providerFactories.openai.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
      const bug = new Error("bug in the caller's onDelta");
      await expect(
        provider.generate(
          textRequest({
            model: "gpt-4o",
            onDelta: () => {
              throw bug;
            },
          }),
        ),
      ).rejects.toBe(bug);
    } finally {
      await server.close();
    }
  });
});

describe("classifyHttpFailure: status, headers and body codes, never message text", () => {
  it("maps statuses to codes", () => {
    expect(http(401).code).toBe("auth");
    expect(http(403).code).toBe("auth");
    expect(http(404).code).toBe("model_not_found");
    expect(http(408).code).toBe("timeout");
    expect(http(429).code).toBe("rate_limited");
    expect(http(400).code).toBe("bad_request");
    expect(http(422).code).toBe("bad_request");
    expect(http(500).code).toBe("server");
    expect(http(502).code).toBe("server");
    expect(http(529).code).toBe("server");
  });

  it("reads the vendor's code from the error body, wherever the status points", () => {
    expect(http(400, readJsonFixture("openai", "error-400-context-length-exceeded.json")).code).toBe("context_overflow");
    expect(http(400, { error: { code: "model_not_found", message: "gone" } }).code).toBe("model_not_found");
    // The same words without the code are just a bad request: message text decides nothing.
    expect(http(400, { error: { message: "This model's maximum context length is 128000 tokens." } }).code).toBe("bad_request");
  });

  it("only 409 among other 4xx is worth retrying", () => {
    expect(http(409)).toMatchObject({ code: "bad_request", retryable: true });
    expect(http(400)).toMatchObject({ code: "bad_request", retryable: false });
  });

  it("reads Retry-After as seconds or an HTTP date, and retry-after-ms before both", () => {
    const now = new Date("2026-11-26T10:00:00Z");
    expect(http(429, {}, { "Retry-After": "30" }).retryAfterMs).toBe(30_000);
    expect(http(429, {}, { "retry-after": "Thu, 26 Nov 2026 10:00:45 GMT" }, now).retryAfterMs).toBe(45_000);
    expect(http(429, {}, { "retry-after-ms": "250", "retry-after": "30" }).retryAfterMs).toBe(250);
    expect(http(429, {}, { "retry-after": "soon" }).retryAfterMs).toBeNull();
    expect(http(503, {}, { "retry-after": "5" })).toMatchObject({ code: "server", retryAfterMs: 5_000 });
  });

  it("never shows the key: a vendor that echoes it gets it replaced by its last four characters", () => {
    const error = http(400, { error: { message: `Key ${TEST_API_KEY} is not allowed to use this model` } });
    expect(error.message).toContain("Key ...7f3a is not allowed");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
    const forbidden = http(403, { error: { message: `Project of ${TEST_API_KEY} has no access` } });
    expect(forbidden.message).toBe("OpenAI rejected the key ending in ...7f3a (Project of ...7f3a has no access): check Settings -> Keys");
  });

  it("drops a cause that would carry the key into logs, keeping a redacted summary", () => {
    const echoed = new APICallError({
      message: `Bad key ${TEST_API_KEY}`,
      url: "http://x",
      requestBodyValues: {},
      statusCode: 400,
      responseBody: JSON.stringify({ error: { message: `Bad key ${TEST_API_KEY}`, code: "bad_key" } }),
    });
    const error = classifyProviderError(echoed, context)!;
    expect(error.code).toBe("bad_request");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
    expect((error.cause as Error).message).toContain("Bad key ...7f3a");
  });

  it("does not hint at keys too short to hide their last four characters", () => {
    const error = classifyHttpFailure({ status: 401, body: {}, headers: {}, context: { ...context, apiKey: "abc123" } });
    expect(error.message).toBe("OpenAI rejected the key: check Settings -> Keys");
  });

  it("classifies an APICallError the SDK made from a 2xx it could not parse as a server error", () => {
    const error = new APICallError({
      message: "Invalid JSON response",
      url: "http://x",
      requestBodyValues: {},
      statusCode: 200,
      responseBody: "",
    });
    expect(classifyProviderError(error, context)).toMatchObject({ code: "server", statusCode: 200 });
  });
});

describe("the vendor server helper", () => {
  let server: VendorServer;
  beforeAll(async () => {
    server = await startVendorServer();
  });
  afterAll(() => server.close());

  it("records method, path, query, headers and the JSON body, and answers in order", async () => {
    server.enqueue({ status: 201, headers: { "x-test": "1" }, body: { ok: true } });
    const response = await fetch(`${server.origin}/v1/things?alt=sse`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ a: 1 }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-test")).toBe("1");
    await expect(response.json()).resolves.toEqual({ ok: true });
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/v1/things", body: { a: 1 }, rawBody: '{"a":1}' });
    expect(server.requests[0].query.get("alt")).toBe("sse");
    expect(server.requests[0].headers.authorization).toBe("Bearer t");
  });

  it("says so, with a 501, when a test scripted no answer", async () => {
    const response = await fetch(`${server.origin}/nothing`);
    expect(response.status).toBe(501);
    expect(await response.text()).toContain("no scripted response for GET /nothing");
  });
});
