import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { providerFactories } from "@/lib/providers/provider-factories";
import type { TextProvider } from "@/lib/providers/types";
import { TEST_API_KEY, providerErrorOf, startVendorServer, textRequest, type VendorServer } from "../helpers/vendor-server";

// What a hostile or broken server at a base URL can send: an answer of 20 MB, a stream that
// never ends, an error page of 1 MB. Each must end as a ProviderError, with no more than the cap
// (10 MB) read, and no page shown to the person.
const MB = 1024 * 1024;
const piece = "a".repeat(64 * 1024);
const twentyMegabytes = 20 * MB;
// What a client may have received beyond the cap: socket and stream buffers, a few MB.
const readAtMost = 16 * MB;

const openAiChunk = `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`;
const anthropicHead = [
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
]
  .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  .join("");
const anthropicChunk = `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } })}\n\n`;
const geminiChunk = `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: piece }], role: "model" }, index: 0 }] })}\n\n`;
const ollamaLine = `${JSON.stringify({ model: "m", created_at: "2023-08-04T08:52:19Z", message: { role: "assistant", content: piece }, done: false })}\n`;

/** A whole JSON answer of `bytes` size: `head`, the piece repeated, `tail`. */
function hugeJson(head: string, tail: string, bytes = twentyMegabytes) {
  return { repeat: piece, head, tail, limitBytes: bytes, headers: { "content-type": "application/json" } };
}

describe("response caps and error bodies, for every adapter", () => {
  let server: VendorServer;
  beforeAll(async () => {
    server = await startVendorServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  const build = (provider: string, prefix = ""): TextProvider =>
    providerFactories[provider].create({ apiKey: TEST_API_KEY, baseURL: `${server.origin}${prefix}` });
  // The stream's own deadline: reading 10 MB takes well under a second here; a reader without a
  // cap would read until this aborts it (a timeout, not the cap's error).
  const streaming = (model = "m") => textRequest({ model, onDelta: () => {}, signal: AbortSignal.timeout(8_000) });

  async function expectCapped(call: Promise<unknown>) {
    const error = await providerErrorOf(call);
    expect(error.code).toBe("server");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("10 MB");
    expect(server.bytesSent).toBeGreaterThan(10 * MB);
    expect(server.bytesSent).toBeLessThan(readAtMost);
    return error;
  }

  const endless: Array<{ provider: string; prefix: string; path: string; head?: string; repeat: string }> = [
    { provider: "openai", prefix: "/v1", path: "POST /v1/chat/completions", repeat: openAiChunk },
    { provider: "groq", prefix: "/openai/v1", path: "POST /openai/v1/chat/completions", repeat: openAiChunk },
    { provider: "openrouter", prefix: "/api/v1", path: "POST /api/v1/chat/completions", repeat: openAiChunk },
    { provider: "openai-compatible", prefix: "/v1", path: "POST /v1/chat/completions", repeat: openAiChunk },
    { provider: "anthropic", prefix: "/v1", path: "POST /v1/messages", head: anthropicHead, repeat: anthropicChunk },
    { provider: "gemini", prefix: "/v1beta", path: "POST /v1beta/models/m:streamGenerateContent", repeat: geminiChunk },
    { provider: "ollama", prefix: "", path: "POST /api/chat", repeat: ollamaLine },
  ];

  for (const { provider, prefix, path, head, repeat } of endless) {
    it(`${provider}: a stream that never ends stops at the 10 MB cap`, async () => {
      server.route(path, { repeat, head });
      const heapBefore = process.memoryUsage().heapUsed;
      await expectCapped(build(provider, prefix).generate(streaming()));
      // the answer read so far is dropped with the error: nothing near the stream's size is kept
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * MB);
    });
  }

  it("openai: a 20 MB answer (not streamed) is refused at the cap, while it is read", async () => {
    server.route(
      "POST /v1/chat/completions",
      hugeJson(
        '{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"',
        '"},"finish_reason":"stop"}]}',
      ),
    );
    await expectCapped(build("openai", "/v1").generate(textRequest()));
  });

  it("anthropic: a 20 MB answer is refused at the cap", async () => {
    server.route(
      "POST /v1/messages",
      hugeJson(
        '{"id":"m","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"',
        '"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}',
      ),
    );
    await expectCapped(build("anthropic", "/v1").generate(textRequest()));
  });

  it("ollama: a 20 MB answer, and a 20 MB model list, are refused at the cap", async () => {
    server.route("POST /api/chat", hugeJson('{"model":"m","message":{"role":"assistant","content":"', '"},"done":true}'));
    await expectCapped(build("ollama").generate(textRequest()));
    server.reset();
    server.route("GET /api/tags", hugeJson('{"models":[{"name":"', '"}]}'));
    await expectCapped(build("ollama").listModels());
  });

  it("openrouter: a model list that never ends is refused at the cap", async () => {
    server.route("GET /api/v1/models", { repeat: piece, head: '{"data":[{"id":"', headers: { "content-type": "application/json" } });
    await expectCapped(build("openrouter", "/api/v1").listModels());
  });

  it("refuses an answer whose Content-Length is over the cap without reading it", async () => {
    server.route("POST /v1/chat/completions", {
      ...hugeJson('{"x":"', '"}'),
      headers: { "content-type": "application/json", "content-length": String(twentyMegabytes + 11) },
    });
    const error = await providerErrorOf(build("openai", "/v1").generate(textRequest()));
    expect(error.message).toContain("10 MB");
    expect(server.bytesSent).toBeLessThan(readAtMost);
  });

  const page = `<!doctype html><html><head><title>Router admin</title></head><body>${"<p>internal-config-line</p>\n".repeat(40_000)}</body></html>`;

  for (const { provider, prefix, path } of [
    { provider: "openai", prefix: "/v1", path: "POST /v1/chat/completions" },
    { provider: "anthropic", prefix: "/v1", path: "POST /v1/messages" },
    { provider: "gemini", prefix: "/v1beta", path: "POST /v1beta/models/m:generateContent" },
    { provider: "ollama", prefix: "", path: "POST /api/chat" },
  ]) {
    it(`${provider}: a 1 MB HTML error page is classified by its status and never shown`, async () => {
      expect(page.length).toBeGreaterThan(1_000_000);
      server.route(path, { status: 502, body: page, headers: { "content-type": "text/html" } });
      const error = await providerErrorOf(build(provider, prefix).generate(textRequest({ model: "m" })));
      expect(error).toMatchObject({ code: "server", retryable: true, statusCode: 502 });
      expect(error.message).not.toMatch(/[<>]/);
      expect(error.message).not.toContain("internal-config-line");
      expect(error.message.length).toBeLessThan(300);
    });
  }

  it("openai: an HTML page inside the error's message field is not shown either", async () => {
    server.route("POST /v1/chat/completions", {
      status: 400,
      body: { error: { message: page.slice(0, 2_000), type: "invalid_request_error" } },
    });
    const error = await providerErrorOf(build("openai", "/v1").generate(textRequest()));
    expect(error.code).toBe("bad_request");
    expect(error.message).not.toMatch(/[<>]/);
  });

  it("does not follow a redirect away from the base URL", async () => {
    // (a server that redirects elsewhere: here to a path of its own, which records whether it was asked)
    server.route("POST /v1/chat/completions", { status: 307, headers: { location: `${server.origin}/internal/meta-data` } });
    const error = await providerErrorOf(build("openai", "/v1").generate(textRequest()));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("redirect");
    expect(server.requests).toHaveLength(1);
  });
});
