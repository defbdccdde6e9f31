import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import contextWindows from "@/lib/providers/context-windows.json";
import { providerFactories } from "@/lib/providers/provider-factories";
import type { TextProvider } from "@/lib/providers/types";
import {
  TEST_API_KEY,
  everythingIn,
  providerErrorOf,
  readChunksFixture,
  readJsonFixture,
  sseNamedEvents,
  startVendorServer,
  textRequest,
  type VendorServer,
} from "../helpers/vendor-server";

const MODEL = "claude-sonnet-4-5";

describe("Anthropic adapter (Messages API over HTTP)", () => {
  let server: VendorServer;
  let provider: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/v1" });
    provider = providerFactories.anthropic.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("sends the prompt as the user message to /messages with x-api-key and anthropic-version, params mapped", async () => {
    server.enqueue({ body: readJsonFixture("anthropic", "message.json") });
    const result = await provider.generate(
      textRequest({ model: MODEL, params: { temperature: 0.3, maxTokens: 256, topK: 20, stopSequences: ["###"], system: "Be brief." } }),
    );

    const [sent] = server.requests;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe(TEST_API_KEY);
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({
      model: MODEL,
      max_tokens: 256,
      temperature: 0.3,
      top_k: 20,
      stop_sequences: ["###"],
      system: [{ type: "text", text: "Be brief." }],
      messages: [{ role: "user", content: [{ type: "text", text: "Say hello in French." }] }],
    });
    expect(sent.body.stream).toBeUndefined();
    expect(result).toEqual({
      text: readJsonFixture("anthropic", "message.json").content[0].text,
      tokensIn: 12,
      tokensOut: 29,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    });
  });

  it("streams named SSE events with onDelta; usage from message_start and message_delta", async () => {
    const events = readChunksFixture("anthropic", "message.chunks.txt");
    server.enqueue({ chunks: sseNamedEvents(events), chunkDelayMs: 5 });
    const deltas: string[] = [];
    const result = await provider.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) }));

    expect(server.requests[0].body.stream).toBe(true);
    const expected = events.filter((event) => event.type === "content_block_delta").map((event) => event.delta.text);
    expect(deltas).toEqual(expected);
    expect(result).toMatchObject({ text: expected.join(""), tokensIn: 12, tokensOut: 30, tokensEstimated: false, finishReason: "stop" });
  });

  it("401 authentication_error: auth with only the key's last four characters", async () => {
    server.enqueue({ status: 401, body: readJsonFixture("anthropic", "error-401-authentication.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error).toMatchObject({ code: "auth", retryable: false, statusCode: 401 });
    expect(error.message).toBe("Anthropic rejected the key ending in ...7f3a: check Settings -> Keys");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
  });

  it("404 not_found_error: model_not_found", async () => {
    server.enqueue({ status: 404, body: readJsonFixture("anthropic", "error-404-not-found.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "claude-nonexistent-9" })));
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain("Model claude-nonexistent-9 not found or unavailable at Anthropic");
  });

  it("429 rate_limit_error with Retry-After: rate_limited and retryAfterMs", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "12" }, body: readJsonFixture("anthropic", "error-429-rate-limit.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error).toMatchObject({ code: "rate_limited", retryAfterMs: 12_000, retryable: true });
  });

  it("500 api_error and 529 overloaded_error: retryable server errors", async () => {
    server.enqueue({ status: 500, body: { type: "error", error: { type: "api_error", message: "Internal server error" } } });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server", statusCode: 500 });

    server.enqueue({ status: 529, body: readJsonFixture("anthropic", "error-529-overloaded.json") });
    const overloaded = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(overloaded).toMatchObject({ code: "server", statusCode: 529, retryable: true });
  });

  it("an overloaded_error event inside a 200 stream: a retryable server error", async () => {
    const [messageStart] = readChunksFixture("anthropic", "message.chunks.txt");
    server.enqueue({
      chunks: sseNamedEvents([
        messageStart,
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } as { type: string },
      ]),
    });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL, onDelta: () => {} })));
    expect(error).toMatchObject({ code: "server", retryable: true });
    expect(error.message).toContain("Overloaded");
  });

  it("a prompt over the window: Anthropic has no code for it, so it stays a bad_request with the vendor's words", async () => {
    server.enqueue({ status: 400, body: readJsonFixture("anthropic", "error-400-prompt-too-long.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("prompt is too long: 208310 tokens > 200000 maximum");
  });

  it("a server slower than the signal: timeout", async () => {
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("anthropic", "message.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(150) })));
    expect(error.code).toBe("timeout");
  });

  it("an empty body and malformed JSON: server errors", async () => {
    server.enqueue({ headers: { "content-type": "application/json" }, body: "" });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server" });
    server.enqueue({ headers: { "content-type": "application/json" }, body: '{"type":"message","content":[' });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server" });
  });

  it("params Anthropic lacks (seed, penalties) and the SDK's clamping are warnings", async () => {
    server.enqueue({ body: readJsonFixture("anthropic", "message.json") });
    const result = await provider.generate(textRequest({ model: MODEL, params: { seed: 1, presencePenalty: 0.5, temperature: 1.5 } }));
    expect(server.requests[0].body).not.toHaveProperty("seed");
    expect(result.warnings).toContain('Anthropic does not support the parameter "seed"; it was not sent.');
    expect(result.warnings).toContain('Anthropic does not support the parameter "presencePenalty"; it was not sent.');
    // Anthropic's temperature stops at 1; the AI SDK clamps and says so.
    expect(result.warnings).toContain("Anthropic (temperature): 1.5 exceeds anthropic maximum of 1.0. clamped to 1.0");
    expect(server.requests[0].body.temperature).toBe(1);
  });

  it("context windows come from the shipped table, dated ids included", async () => {
    await expect(provider.contextWindow!("claude-sonnet-4-5-20250929")).resolves.toBe(200_000);
    await expect(provider.contextWindow!("claude-haiku-4-5")).resolves.toBe(200_000);
    await expect(provider.contextWindow!("claude-unknown")).resolves.toBeNull();
    // the picker lists exactly the table's Anthropic models, each with its window
    const listed = await provider.listModels();
    expect(listed.map((model) => [model.provider, model.model, model.contextWindow])).toEqual(
      Object.entries(contextWindows.providers.anthropic).map(([model, window]) => ["anthropic", model, window]),
    );
    expect(listed).toContainEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      label: "Anthropic / claude-sonnet-4-5",
      contextWindow: 200_000,
    });
  });
});
