import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "@/lib/providers/provider-error";
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

// A llama.cpp server, LM Studio or vLLM answers in OpenAI's format; OpenAI's recorded bodies stand in.
const MODEL = "qwen2.5-7b-instruct";

describe("OpenAI-compatible adapter (LM Studio, vLLM, llama.cpp) over HTTP", () => {
  let server: VendorServer;
  let keyless: TextProvider;
  let keyed: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/v1" });
    keyless = providerFactories["openai-compatible"].create({ apiKey: null, baseURL: server.baseURL });
    keyed = providerFactories["openai-compatible"].create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("needs no key: posts to <base>/chat/completions with no Authorization header", async () => {
    server.enqueue({ body: readJsonFixture("openai", "chat-completion.json") });
    const result = await keyless.generate(
      textRequest({ model: MODEL, params: { temperature: 0.1, maxTokens: 32, stopSequences: ["</s>"] } }),
    );

    const [sent] = server.requests;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({
      model: MODEL,
      messages: [{ role: "user", content: "Say hello in French." }],
      temperature: 0.1,
      max_tokens: 32,
      stop: ["</s>"],
    });
    expect(result).toMatchObject({ tokensIn: 16, tokensOut: 363, tokensEstimated: false, finishReason: "stop" });
  });

  it("sends a key as a Bearer token when one is set", async () => {
    server.enqueue({ body: readJsonFixture("openai", "chat-completion.json") });
    await keyed.generate(textRequest({ model: MODEL }));
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });

  it("streams with include_usage so the final chunk's token counts arrive", async () => {
    const chunks = readChunksFixture("openai", "chat-completion.chunks.txt");
    server.enqueue({ chunks: sseData(chunks) });
    const deltas: string[] = [];
    const result = await keyless.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) }));
    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(result).toMatchObject({ text: deltas.join(""), tokensIn: 16, tokensOut: 300, tokensEstimated: false });
  });

  it("a server that reports no usage: chars/4 estimates, flagged as estimated", async () => {
    const body = readJsonFixture("openai", "chat-completion.json");
    delete body.usage;
    server.enqueue({ body });
    const result = await keyless.generate(textRequest({ model: MODEL }));
    expect(result.tokensEstimated).toBe(true);
    expect(result.tokensIn).toBe(Math.floor("Say hello in French.".length / 4));
    expect(result.tokensOut).toBe(Math.floor([...body.choices[0].message.content].length / 4));
  });

  it("401: auth naming the server, with only the last four characters", async () => {
    server.enqueue({
      status: 401,
      body: { error: { message: "Invalid API Key", type: "invalid_request_error", code: "invalid_api_key" } },
    });
    const error = await providerErrorOf(keyed.generate(textRequest({ model: MODEL })));
    expect(error.code).toBe("auth");
    expect(error.message).toBe(
      `${new URL(server.baseURL).host} (OpenAI-compatible) rejected the key ending in ...7f3a: check Settings -> Keys`,
    );
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
  });

  it("404: model_not_found", async () => {
    server.enqueue({ status: 404, body: { error: { message: "The model `nope` does not exist.", type: "NotFoundError", code: 404 } } });
    expect((await providerErrorOf(keyless.generate(textRequest({ model: "nope" })))).code).toBe("model_not_found");
  });

  it("429 with Retry-After, and 500: rate_limited and server", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "1" }, body: { error: { message: "busy" } } });
    expect(await providerErrorOf(keyless.generate(textRequest({ model: MODEL })))).toMatchObject({
      code: "rate_limited",
      retryAfterMs: 1_000,
    });
    server.enqueue({ status: 500, body: { error: { code: 500, message: "Internal Server Error", type: "server_error" } } });
    expect((await providerErrorOf(keyless.generate(textRequest({ model: MODEL })))).code).toBe("server");
  });

  it("llama.cpp's exceed_context_size_error: context_overflow", async () => {
    server.enqueue({ status: 400, body: readJsonFixture("openai-compatible", "error-400-exceed-context-size.json") });
    const error = await providerErrorOf(keyless.generate(textRequest({ model: MODEL })));
    expect(error.code).toBe("context_overflow");
    expect(error.message).toContain("request (4476 tokens) exceeds the available context size (4096 tokens)");
  });

  it("a server slower than the signal: timeout", async () => {
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("openai", "chat-completion.json") });
    expect((await providerErrorOf(keyless.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(150) })))).code).toBe("timeout");
  });

  it("an empty body and malformed JSON: server errors", async () => {
    server.enqueue({ headers: { "content-type": "application/json" }, body: "" });
    expect((await providerErrorOf(keyless.generate(textRequest({ model: MODEL })))).code).toBe("server");
    server.enqueue({ headers: { "content-type": "application/json" }, body: '{"choices":' });
    expect((await providerErrorOf(keyless.generate(textRequest({ model: MODEL })))).code).toBe("server");
  });

  it("topK (not in the chat completions API) is a warning and is not sent", async () => {
    server.enqueue({ body: readJsonFixture("openai", "chat-completion.json") });
    const result = await keyless.generate(textRequest({ model: MODEL, params: { topK: 40 } }));
    expect(result.warnings).toEqual([
      `${new URL(server.baseURL).host} (OpenAI-compatible) does not support the parameter "topK"; it was not sent.`,
    ]);
    expect(server.requests[0].body).not.toHaveProperty("top_k");
  });

  it("knows no models or windows of its own (nothing is guessed)", async () => {
    await expect(keyless.listModels()).resolves.toEqual([]);
    await expect(keyless.contextWindow!(MODEL)).resolves.toBeNull();
  });

  it("without a base URL the factory refuses, saying what to set", () => {
    expect(() => providerFactories["openai-compatible"].create({ apiKey: null, baseURL: null })).toThrow(ProviderError);
    expect(() => providerFactories["openai-compatible"].create({ apiKey: null, baseURL: " " })).toThrow(/needs a base URL/);
  });
});
