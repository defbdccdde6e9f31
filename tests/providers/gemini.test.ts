import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { providerFactories } from "@/lib/providers/provider-factories";
import type { TextProvider } from "@/lib/providers/types";
import {
  TEST_API_KEY,
  everythingIn,
  providerErrorOf,
  readChunksFixture,
  readJsonFixture,
  startVendorServer,
  textRequest,
  type VendorServer,
} from "../helpers/vendor-server";

const MODEL = "gemini-2.5-flash";

/** SSE with CRLF line endings: valid framing that a parser splitting on "\n\n" alone would miss. */
function crlfSse(chunks: unknown[]): string[] {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`);
}

describe("Gemini adapter (Google Generative AI over HTTP)", () => {
  let server: VendorServer;
  let provider: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer({ prefix: "/v1beta" });
    provider = providerFactories.gemini.create({ apiKey: TEST_API_KEY, baseURL: server.baseURL });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("posts to models/<model>:generateContent with x-goog-api-key (not in the URL), params in generationConfig", async () => {
    server.enqueue({ body: readJsonFixture("gemini", "generate-content.json") });
    const result = await provider.generate(
      textRequest({
        model: MODEL,
        params: { temperature: 0.4, maxTokens: 128, topP: 0.8, topK: 32, stopSequences: ["STOP"], seed: 3, system: "Be brief." },
      }),
    );

    const [sent] = server.requests;
    expect(sent.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(sent.headers["x-goog-api-key"]).toBe(TEST_API_KEY);
    expect(sent.query.has("key")).toBe(false);
    expect(sent.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Say hello in French." }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: { temperature: 0.4, maxOutputTokens: 128, topP: 0.8, topK: 32, stopSequences: ["STOP"], seed: 3 },
    });
    const recorded = readJsonFixture("gemini", "generate-content.json");
    expect(result).toMatchObject({
      text: recorded.candidates[0].content.parts[0].text,
      tokensIn: 9,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    });
    // candidatesTokenCount + thoughtsTokenCount: thinking tokens are billed as output.
    expect(result.tokensOut).toBe(28 + 244);
  });

  it("streams from :streamGenerateContent?alt=sse with onDelta; usage from the last chunk", async () => {
    const chunks = readChunksFixture("gemini", "stream-generate-content.chunks.txt");
    server.enqueue({ chunks: crlfSse(chunks), chunkDelayMs: 5 });
    const deltas: string[] = [];
    const result = await provider.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) }));

    expect(server.requests[0].path).toBe(`/v1beta/models/${MODEL}:streamGenerateContent`);
    expect(server.requests[0].query.get("alt")).toBe("sse");
    expect(deltas).toEqual(["There are **3**", ' "r"s in strawberry.\n\nst**r**awbe**rr**y']);
    expect(result).toMatchObject({ text: deltas.join(""), tokensIn: 9, tokensOut: 23 + 185, finishReason: "stop" });
  });

  it("a bad key (400 INVALID_ARGUMENT, reason API_KEY_INVALID): auth, with only the last four characters", async () => {
    server.enqueue({ status: 400, body: readJsonFixture("gemini", "error-400-api-key-invalid.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error).toMatchObject({ code: "auth", statusCode: 400, retryable: false });
    expect(error.message).toBe("Gemini rejected the key ending in ...7f3a: check Settings -> Keys");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");
  });

  it("404 NOT_FOUND: model_not_found", async () => {
    server.enqueue({ status: 404, body: readJsonFixture("gemini", "error-404-not-found.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "gemini-9.0-ultra" })));
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain("Model gemini-9.0-ultra not found or unavailable at Gemini");
  });

  it("429 RESOURCE_EXHAUSTED: rate_limited, with the wait from the body's RetryInfo when no header says", async () => {
    server.enqueue({ status: 429, body: readJsonFixture("gemini", "error-429-resource-exhausted.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error).toMatchObject({ code: "rate_limited", retryAfterMs: 34_400, retryable: true });

    server.enqueue({ status: 429, headers: { "retry-after": "3" }, body: readJsonFixture("gemini", "error-429-resource-exhausted.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).retryAfterMs).toBe(3_000);
  });

  it("500 INTERNAL: a retryable server error", async () => {
    server.enqueue({ status: 500, body: readJsonFixture("gemini", "error-500-internal.json") });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server", retryable: true });
  });

  it("an input over the window: Gemini has no code for it, so it stays a bad_request with Google's words", async () => {
    server.enqueue({ status: 400, body: readJsonFixture("gemini", "error-400-input-too-long.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("exceeds the maximum number of tokens allowed (1048576)");
  });

  it("a server slower than the signal: timeout", async () => {
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("gemini", "generate-content.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(150) })));
    expect(error.code).toBe("timeout");
  });

  it("an empty body and malformed JSON: server errors", async () => {
    server.enqueue({ headers: { "content-type": "application/json" }, body: "" });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server" });
    server.enqueue({ headers: { "content-type": "application/json" }, body: '{"candidates": [' });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({ code: "server" });
  });

  it("an unknown parameter is a warning and is not sent", async () => {
    server.enqueue({ body: readJsonFixture("gemini", "generate-content.json") });
    const result = await provider.generate(textRequest({ model: MODEL, params: { safety: "off" } }));
    expect(result.warnings).toEqual(['Gemini ignores the unknown parameter "safety".']);
    expect(JSON.stringify(server.requests[0].body)).not.toContain('safety":"off');
  });

  it("context windows come from the shipped table", async () => {
    await expect(provider.contextWindow!(MODEL)).resolves.toBe(1_048_576);
    await expect(provider.contextWindow!(`models/${MODEL}`)).resolves.toBe(1_048_576);
    await expect(provider.contextWindow!("gemini-unknown")).resolves.toBeNull();
  });
});
