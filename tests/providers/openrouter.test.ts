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

const MODEL = "openai/gpt-4o-mini";

describe("OpenRouter adapter (OpenAI-compatible chat completions over HTTP)", () => {
  let server: VendorServer;
  let provider: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/api/v1" });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());
  // A fresh adapter per test: its model list is cached per instance.
  const fresh = () => (provider = providerFactories.openrouter.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL }));

  it("posts to /api/v1/chat/completions with a Bearer key and its attribution header; reads usage and cost", async () => {
    fresh();
    server.enqueue({ body: readJsonFixture("openrouter", "chat-completion.json") });
    const result = await provider.generate(textRequest({ model: MODEL, params: { temperature: 0.7, maxTokens: 64, system: "Be brief." } }));

    const [sent] = server.requests;
    expect(sent.path).toBe("/api/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(sent.headers["x-title"]).toBe("Parallaxr");
    expect(sent.body).toMatchObject({
      model: MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello in French." },
      ],
      temperature: 0.7,
      max_tokens: 64,
    });
    expect(result).toEqual({
      text: "Hello! How can I assist you today?",
      tokensIn: 9,
      tokensOut: 10,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
      costUsd: 0.00000735,
    });
  });

  it("streams past OpenRouter's keep-alive comments with onDelta; usage and cost from the last chunk", async () => {
    fresh();
    const chunks = readChunksFixture("openrouter", "chat-completion.chunks.txt");
    server.enqueue({ chunks: [": OPENROUTER PROCESSING\n\n", ": OPENROUTER PROCESSING\n\n", ...sseData(chunks)], chunkDelayMs: 5 });
    const deltas: string[] = [];
    const result = await provider.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) }));

    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(deltas).toEqual(["Bon", "jour"]);
    expect(result).toMatchObject({
      text: "Bonjour",
      tokensIn: 12,
      tokensOut: 3,
      tokensEstimated: false,
      finishReason: "stop",
      costUsd: 0.0000036,
    });
  });

  it("401: auth with only the last four characters", async () => {
    fresh();
    server.enqueue({ status: 401, body: readJsonFixture("openrouter", "error-401-no-auth.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error.message).toBe("OpenRouter rejected the key ending in ...7f3a: check Settings -> Keys");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
  });

  it("404 (no endpoints for the model): model_not_found", async () => {
    fresh();
    server.enqueue({ status: 404, body: readJsonFixture("openrouter", "error-404-no-endpoints.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "meta-llama/llama-3.2-1b-instruct:free" })));
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain("No endpoints found for meta-llama/llama-3.2-1b-instruct:free.");
  });

  it("429 with Retry-After: rate_limited and retryAfterMs", async () => {
    fresh();
    server.enqueue({ status: 429, headers: { "retry-after": "20" }, body: readJsonFixture("openrouter", "error-429-rate-limited.json") });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({
      code: "rate_limited",
      retryAfterMs: 20_000,
    });
  });

  it("502 from the upstream model, and the same error inside a 200 stream: retryable server errors", async () => {
    fresh();
    server.enqueue({ status: 502, body: readJsonFixture("openrouter", "error-502-upstream.json") });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({
      code: "server",
      statusCode: 502,
      retryable: true,
    });

    const [first] = readChunksFixture("openrouter", "chat-completion.chunks.txt");
    server.enqueue({
      chunks: sseData([
        first,
        {
          id: first.id,
          object: "chat.completion.chunk",
          created: first.created,
          model: MODEL,
          provider: "OpenAI",
          error: { code: 502, message: "Provider disconnected" },
          choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
        },
      ]),
    });
    const midStream = await providerErrorOf(provider.generate(textRequest({ model: MODEL, onDelta: () => {} })));
    expect(midStream).toMatchObject({ code: "server", retryable: true });
    expect(midStream.message).toContain("Provider disconnected");
  });

  it("a server slower than the signal: timeout", async () => {
    fresh();
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("openrouter", "chat-completion.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(150) })))).code).toBe(
      "timeout",
    );
  });

  it("an empty body and malformed JSON: server errors", async () => {
    fresh();
    server.enqueue({ headers: { "content-type": "application/json" }, body: "" });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("server");
    server.enqueue({ headers: { "content-type": "application/json" }, body: '{"id":"gen-1",' });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("server");
  });

  it("an unknown parameter is a warning and is not sent", async () => {
    fresh();
    server.enqueue({ body: readJsonFixture("openrouter", "chat-completion.json") });
    const result = await provider.generate(textRequest({ model: MODEL, params: { transforms: ["middle-out"] } }));
    expect(result.warnings).toEqual(['OpenRouter ignores the unknown parameter "transforms".']);
    expect(server.requests[0].body).not.toHaveProperty("transforms");
  });

  it("contextWindow and listModels read GET /models once per adapter (context_length, else top_provider's)", async () => {
    fresh();
    server.route("GET /api/v1/models", { body: readJsonFixture("openrouter", "models.json") });
    await expect(provider.contextWindow!(MODEL)).resolves.toBe(128_000);
    await expect(provider.contextWindow!("qwen/qwen3-32b")).resolves.toBe(40_960);
    await expect(provider.contextWindow!("nobody/nothing")).resolves.toBeNull();
    const models = await provider.listModels();
    expect(models).toContainEqual({
      provider: "openrouter",
      model: "meta-llama/llama-3.3-70b-instruct",
      label: "OpenRouter / Meta: Llama 3.3 70B Instruct",
      contextWindow: 131_072,
      // pricing.prompt "0.00000013" and completion "0.00000039" dollars per token
      price: { inputPerMTok: 0.13, outputPerMTok: 0.39 },
    });
    expect(models).toHaveLength(3);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });

  it("a failed /models is not cached: the next call asks again", async () => {
    fresh();
    server.enqueue({ status: 500, body: { error: { message: "Internal error", code: 500 } } });
    expect((await providerErrorOf(provider.contextWindow!(MODEL))).code).toBe("server");
    server.enqueue({ body: readJsonFixture("openrouter", "models.json") });
    await expect(provider.contextWindow!(MODEL)).resolves.toBe(128_000);
    expect(server.requests).toHaveLength(2);
  });
});
