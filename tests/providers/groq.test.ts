import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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

const MODEL = "llama-3.3-70b-versatile";

describe("Groq adapter (OpenAI-compatible chat completions over HTTP)", () => {
  let server: VendorServer;
  let provider: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/openai/v1" });
    provider = providerFactories.groq.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("posts to /openai/v1/chat/completions with a Bearer key, the prompt as the user message, params mapped", async () => {
    server.enqueue({ body: readJsonFixture("groq", "chat-completion.json") });
    const result = await provider.generate(
      textRequest({ model: MODEL, params: { temperature: 0, maxTokens: 700, topP: 1, stopSequences: ["\n\n\n"], seed: 42 } }),
    );

    const [sent] = server.requests;
    expect(sent.path).toBe("/openai/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(sent.body).toMatchObject({
      model: MODEL,
      messages: [{ role: "user", content: "Say hello in French." }],
      temperature: 0,
      max_tokens: 700,
      top_p: 1,
      stop: ["\n\n\n"],
      seed: 42,
    });
    expect(result).toMatchObject({
      text: readJsonFixture("groq", "chat-completion.json").choices[0].message.content,
      tokensIn: 45,
      tokensOut: 607,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    });
  });

  it("streams with onDelta; usage from the final chunk", async () => {
    const chunks = readChunksFixture("groq", "chat-completion.chunks.txt");
    server.enqueue({ chunks: sseData(chunks), chunkDelayMs: 5 });
    const deltas: string[] = [];
    const result = await provider.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) }));
    expect(server.requests[0].body.stream).toBe(true);
    expect(deltas.join("")).toBe(chunks.map((chunk) => chunk.choices[0].delta.content ?? "").join(""));
    expect(result).toMatchObject({ text: deltas.join(""), tokensIn: 45, tokensOut: 662, finishReason: "stop" });
  });

  it("401 invalid_api_key: auth with only the last four characters", async () => {
    server.enqueue({ status: 401, body: readJsonFixture("groq", "error-401-invalid-api-key.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error.code).toBe("auth");
    expect(error.message).toBe("Groq rejected the key ending in ...7f3a: check Settings -> Keys");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
  });

  it("404 model_not_found: model_not_found", async () => {
    server.enqueue({ status: 404, body: readJsonFixture("groq", "error-404-model-not-found.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: "llama-9-900b" })))).code).toBe("model_not_found");
  });

  it("429 with Retry-After: rate_limited and retryAfterMs", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "4" }, body: readJsonFixture("groq", "error-429-rate-limit.json") });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({
      code: "rate_limited",
      retryAfterMs: 4_000,
    });
  });

  it("500 and 503: retryable server errors", async () => {
    server.enqueue({ status: 500, body: { error: { message: "Internal Server Error", type: "internal_server_error" } } });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server", statusCode: 500 });
    server.enqueue({ status: 503, body: { error: { message: "Service Unavailable", type: "internal_server_error" } } });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server", statusCode: 503 });
  });

  it("400 context_length_exceeded: context_overflow", async () => {
    server.enqueue({ status: 400, body: readJsonFixture("groq", "error-400-context-length-exceeded.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("context_overflow");
  });

  it("a server slower than the signal: timeout", async () => {
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("groq", "chat-completion.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(150) })))).code).toBe(
      "timeout",
    );
  });

  it("an empty body and malformed JSON: server errors", async () => {
    server.enqueue({ headers: { "content-type": "application/json" }, body: "" });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("server");
    server.enqueue({ headers: { "content-type": "application/json" }, body: "<html>502 Bad Gateway</html>" });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("server");
  });

  it("penalties Groq does not support are warnings and are not sent", async () => {
    server.enqueue({ body: readJsonFixture("groq", "chat-completion.json") });
    const result = await provider.generate(textRequest({ model: MODEL, params: { frequencyPenalty: 0.5 } }));
    expect(result.warnings).toEqual(['Groq does not support the parameter "frequencyPenalty"; it was not sent.']);
    expect(server.requests[0].body).not.toHaveProperty("frequency_penalty");
  });

  it("context windows come from the shipped table", async () => {
    await expect(provider.contextWindow!(MODEL)).resolves.toBe(131_072);
    await expect(provider.contextWindow!("some-new-model")).resolves.toBeNull();
  });
});
