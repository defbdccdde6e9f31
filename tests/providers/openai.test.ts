import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { providerFactories } from "@/lib/providers/provider-factories";
import type { TextProvider } from "@/lib/providers/types";
import {
  TEST_API_KEY,
  everythingIn,
  providerErrorOf,
  readChunksFixture,
  readJsonFixture,
  sseData,
  startVendorServer,
  textRequest,
  type VendorServer,
} from "../helpers/vendor-server";

describe("OpenAI adapter (chat completions over HTTP)", () => {
  let server: VendorServer;
  let provider: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/v1" });
    provider = providerFactories.openai.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => {
    server.reset();
    vi.restoreAllMocks();
  });
  afterAll(() => server.close());

  it("sends the prompt as the user message to /chat/completions, with the key as a Bearer token and the params mapped", async () => {
    server.enqueue({ body: readJsonFixture("openai", "chat-completion.json") });
    const result = await provider.generate(
      textRequest({
        model: "gpt-4o",
        params: { temperature: 0.2, maxTokens: 400, topP: 0.9, stopSequences: ["END"], system: "Be brief.", seed: 7 },
      }),
    );

    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(sent.body).toMatchObject({
      model: "gpt-4o",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello in French." },
      ],
      temperature: 0.2,
      max_tokens: 400,
      top_p: 0.9,
      stop: ["END"],
      seed: 7,
    });
    expect(sent.body.stream).toBeUndefined();

    const recorded = readJsonFixture("openai", "chat-completion.json");
    expect(result).toEqual({
      text: recorded.choices[0].message.content,
      tokensIn: 16,
      tokensOut: 363,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    });
  });

  it("streams with onDelta: each delta as it arrives, then the same result with usage from the final chunk", async () => {
    const chunks = readChunksFixture("openai", "chat-completion.chunks.txt");
    server.enqueue({ chunks: sseData(chunks), chunkDelayMs: 5 });
    const deltas: string[] = [];
    const result = await provider.generate(textRequest({ model: "gpt-4o", onDelta: (text) => deltas.push(text) }));

    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const expectedText = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(expectedText);
    expect(result).toMatchObject({ text: expectedText, tokensIn: 16, tokensOut: 300, tokensEstimated: false, finishReason: "stop" });
  });

  it("401: an auth error naming only the key's last four characters, and the key nowhere at all", async () => {
    const logged: unknown[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args) => void logged.push(...args));
    }
    server.enqueue({ status: 401, body: readJsonFixture("openai", "error-401-invalid-api-key.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));

    expect(error.code).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.statusCode).toBe(401);
    expect(error.message).toBe("OpenAI rejected the key ending in ...7f3a: check Settings -> Keys");
    expect(everythingIn(error)).not.toContain(TEST_API_KEY);
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
    expect(everythingIn(logged)).not.toContain("KEYMATERIAL");
  });

  it("404 with code model_not_found: model_not_found naming the model", async () => {
    server.enqueue({ status: 404, body: readJsonFixture("openai", "error-404-model-not-found.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-9-turbo" })));
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain("Model gpt-9-turbo not found or unavailable at OpenAI");
    expect(error.retryable).toBe(false);
  });

  it("429: rate_limited with retryAfterMs from retry-after-ms, else from retry-after", async () => {
    const body = readJsonFixture("openai", "error-429-rate-limit.json");
    server.enqueue({ status: 429, headers: { "retry-after-ms": "1400", "retry-after": "2" }, body });
    const precise = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(precise).toMatchObject({ code: "rate_limited", retryable: true, retryAfterMs: 1400, statusCode: 429 });

    server.enqueue({ status: 429, headers: { "retry-after": "7" }, body });
    const seconds = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(seconds.retryAfterMs).toBe(7000);
    expect(seconds.message).toContain("retry after 7 s");
  });

  it("429 insufficient_quota: rate_limited but not retryable, pointing at billing", async () => {
    server.enqueue({
      status: 429,
      body: {
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          type: "insufficient_quota",
          param: null,
          code: "insufficient_quota",
        },
      },
    });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(error).toMatchObject({ code: "rate_limited", retryable: false });
    expect(error.message).toContain("quota or credit is used up");
  });

  it("500: a retryable server error", async () => {
    server.enqueue({ status: 500, body: readJsonFixture("openai", "error-500-server-error.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(error).toMatchObject({ code: "server", retryable: true, statusCode: 500 });
    expect(error.message).toContain("The server had an error while processing your request");
  });

  it("400 with code context_length_exceeded: context_overflow", async () => {
    server.enqueue({ status: 400, body: readJsonFixture("openai", "error-400-context-length-exceeded.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(error).toMatchObject({ code: "context_overflow", retryable: false, statusCode: 400 });
  });

  it("another 400 (an unsupported parameter the vendor refused): bad_request with the vendor's reason", async () => {
    server.enqueue({
      status: 400,
      body: {
        error: {
          message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: "invalid_request_error",
          param: "max_tokens",
          code: "unsupported_parameter",
        },
      },
    });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o", params: { maxTokens: 10 } })));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("Use 'max_completion_tokens' instead");
  });

  it("a server slower than the request's signal: timeout, promptly", async () => {
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("openai", "chat-completion.json") });
    const started = Date.now();
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o", signal: AbortSignal.timeout(150) })));
    expect(error.code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a stream that stalls past the signal: timeout, after the deltas that did arrive", async () => {
    const chunks = readChunksFixture("openai", "chat-completion.chunks.txt");
    server.enqueue({ chunks: sseData(chunks), chunkDelayMs: 400 });
    const deltas: string[] = [];
    const error = await providerErrorOf(
      provider.generate(textRequest({ model: "gpt-4o", signal: AbortSignal.timeout(1_000), onDelta: (text) => deltas.push(text) })),
    );
    expect(error.code).toBe("timeout");
    // some of the recorded text arrived, in order, and not all of it (how much depends on timing)
    const streamed = deltas.join("");
    const recorded = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(streamed).not.toBe("");
    expect(recorded.slice(0, streamed.length)).toBe(streamed);
    expect(streamed.length).toBeLessThan(recorded.length);
  });

  it("an empty body: a server error that says so", async () => {
    server.enqueue({ status: 200, headers: { "content-type": "application/json" }, body: "" });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(error).toMatchObject({ code: "server", retryable: true });
    expect(error.message).toBe("OpenAI sent an empty or malformed response (status 200).");
  });

  it("malformed JSON: a server error", async () => {
    server.enqueue({ status: 200, headers: { "content-type": "application/json" }, body: '{"id":"chatcmpl-1","choices":[{"mess' });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(error.code).toBe("server");
    expect(error.message).toContain("empty or malformed");
  });

  it("an empty stream (200, no events): a server error, not an empty answer", async () => {
    server.enqueue({ chunks: [] });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o", onDelta: () => {} })));
    expect(error.code).toBe("server");
  });

  it("parameters it cannot honour are warnings, not sent: one OpenAI lacks, an unknown key, and the SDK's own", async () => {
    server.enqueue({ body: readJsonFixture("openai", "chat-completion.json") });
    const result = await provider.generate(textRequest({ model: "o3-mini", params: { topK: 40, temprature: 0.3, temperature: 0.5 } }));

    expect(server.requests[0].body).not.toHaveProperty("top_k");
    expect(server.requests[0].body).not.toHaveProperty("temprature");
    expect(result.warnings).toContain('OpenAI does not support the parameter "topK"; it was not sent.');
    expect(result.warnings).toContain('OpenAI ignores the unknown parameter "temprature".');
    // The AI SDK knows o3-mini is a reasoning model that takes no temperature.
    expect(result.warnings).toContain("OpenAI (temperature): temperature is not supported for reasoning models");
  });

  it("a parameter of the wrong type is a bad_request naming it, and nothing is sent", async () => {
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o", params: { stopSequences: "END" } })));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain('"stopSequences"');
    expect(server.requests).toHaveLength(0);
  });

  it("no key: an auth error before any request", async () => {
    const keyless = providerFactories.openai.create({ apiKey: null, baseURL: server.baseURL });
    const error = await providerErrorOf(keyless.generate(textRequest({ model: "gpt-4o" })));
    expect(error.code).toBe("auth");
    expect(error.message).toBe("OpenAI needs an API key: add one in Settings -> Keys.");
    expect(server.requests).toHaveLength(0);
  });

  it("a dropped connection and a refused one: network errors", async () => {
    server.enqueue({ drop: true });
    const dropped = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o" })));
    expect(dropped).toMatchObject({ code: "network", retryable: true });

    const closed = await startVendorServer();
    await closed.close();
    const nowhere = providerFactories.openai.create({ apiKey: TEST_API_KEY, baseURL: `${closed.origin}/v1` });
    const refused = await providerErrorOf(nowhere.generate(textRequest({ model: "gpt-4o" })));
    expect(refused.code).toBe("network");
    expect(refused.message).toContain("ECONNREFUSED");
  });

  it("an abort with the engine's own reason, streaming or not, is a timeout", async () => {
    for (const onDelta of [undefined, () => {}]) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("worker stopping")), 100);
      server.enqueue({ delayMs: 5_000, body: readJsonFixture("openai", "chat-completion.json") });
      const error = await providerErrorOf(provider.generate(textRequest({ model: "gpt-4o", signal: controller.signal, onDelta })));
      expect(error.code).toBe("timeout");
    }
  });

  it("a host name that does not resolve: a network error", async () => {
    const unresolvable = providerFactories.openai.create({ apiKey: TEST_API_KEY, baseURL: "http://no-such-host.invalid/v1" });
    const error = await providerErrorOf(unresolvable.generate(textRequest({ model: "gpt-4o" })));
    expect(error.code).toBe("network");
    expect(error.message).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it("context windows and the model list come from the shipped table", async () => {
    await expect(provider.contextWindow!("gpt-4o")).resolves.toBe(128_000);
    await expect(provider.contextWindow!("gpt-4o-2024-08-06")).resolves.toBe(128_000);
    await expect(provider.contextWindow!("gpt-4.1-mini")).resolves.toBe(1_047_576);
    await expect(provider.contextWindow!("my-fine-tune")).resolves.toBeNull();
    const models = await provider.listModels();
    expect(models).toContainEqual({ provider: "openai", model: "gpt-4o", label: "OpenAI / gpt-4o", contextWindow: 128_000 });
    expect(server.requests).toHaveLength(0);
  });
});
