import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { providerFactories } from "@/lib/providers/provider-factories";
import type { TextProvider } from "@/lib/providers/types";
import {
  TEST_API_KEY,
  everythingIn,
  ndjson,
  providerErrorOf,
  readChunksFixture,
  readJsonFixture,
  startVendorServer,
  textRequest,
  type VendorServer,
} from "../helpers/vendor-server";

const MODEL = "llama3.2";
const NDJSON = { "content-type": "application/x-ndjson" };

describe("Ollama adapter (native /api/chat, /api/show, /api/tags over HTTP)", () => {
  let server: VendorServer;
  let provider: TextProvider;

  beforeAll(async () => {
    server = await startVendorServer();
    provider = providerFactories.ollama.create({ apiKey: null, baseURL: server.origin });
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("posts to /api/chat with stream false, no auth, the prompt as the user message and params as options", async () => {
    server.enqueue({ body: readJsonFixture("ollama", "chat.json") });
    const result = await provider.generate(
      textRequest({
        model: MODEL,
        params: { temperature: 0.2, maxTokens: 100, topP: 0.9, topK: 20, stopSequences: ["user:"], seed: 42, system: "Be brief." },
      }),
    );

    const [sent] = server.requests;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/api/chat");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: MODEL,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Say hello in French." },
      ],
      stream: false,
      options: { temperature: 0.2, num_predict: 100, top_p: 0.9, top_k: 20, stop: ["user:"], seed: 42 },
    });
    expect(result).toEqual({
      text: "Hello! How are you today?",
      tokensIn: 26,
      tokensOut: 298,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    });
  });

  it("accepts the base URL with a trailing slash or /api", async () => {
    for (const baseURL of [`${server.origin}/`, `${server.origin}/api`]) {
      server.enqueue({ body: readJsonFixture("ollama", "chat.json") });
      await providerFactories.ollama.create({ apiKey: null, baseURL }).generate(textRequest({ model: MODEL }));
    }
    expect(server.requests.map((request) => request.path)).toEqual(["/api/chat", "/api/chat"]);
  });

  it("streams NDJSON with onDelta, lines split anywhere across reads; counts from the done line", async () => {
    const lines = ndjson(readChunksFixture("ollama", "chat.chunks.txt")).join("");
    // Cut the stream at arbitrary points, mid-line and mid-character-sequence, as TCP may.
    const pieces = [lines.slice(0, 37), lines.slice(37, 150), lines.slice(150, 151), lines.slice(151, 400), lines.slice(400)];
    server.enqueue({ headers: NDJSON, chunks: pieces, chunkDelayMs: 5 });
    const deltas: string[] = [];
    const result = await provider.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) }));

    expect(server.requests[0].body.stream).toBe(true);
    expect(deltas).toEqual(["The", " sky", " is blue."]);
    expect(result).toEqual({
      text: "The sky is blue.",
      tokensIn: 26,
      tokensOut: 282,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    });
  });

  it("a cached prompt (no prompt_eval_count): the input count is estimated and flagged", async () => {
    const body = readJsonFixture("ollama", "chat.json");
    delete body.prompt_eval_count;
    server.enqueue({ body });
    const result = await provider.generate(textRequest({ model: MODEL }));
    expect(result).toMatchObject({ tokensIn: Math.floor("Say hello in French.".length / 4), tokensOut: 298, tokensEstimated: true });
  });

  it("behind an authenticating proxy: a key, when set, goes as a Bearer token; a 401 is auth with its last four", async () => {
    const proxied = providerFactories.ollama.create({ apiKey: TEST_API_KEY, baseURL: server.origin });
    server.enqueue({ body: readJsonFixture("ollama", "chat.json") });
    await proxied.generate(textRequest({ model: MODEL }));
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);

    server.enqueue({ status: 401, body: "Unauthorized" });
    const error = await providerErrorOf(proxied.generate(textRequest({ model: MODEL })));
    expect(error.message).toBe("Ollama rejected the key ending in ...7f3a: check Settings -> Keys");
    expect(everythingIn(error)).not.toContain("KEYMATERIAL");

    server.enqueue({ status: 401, body: "Unauthorized" });
    const keyless = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(keyless).toMatchObject({ code: "auth", message: "Ollama needs an API key: add one in Settings -> Keys" });
  });

  it("an abort with the engine's own reason (a stopping worker) is a timeout too", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("worker stopping")), 100);
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("ollama", "chat.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL, signal: controller.signal })))).code).toBe("timeout");
  });

  it("404 for a model it does not have: model_not_found with Ollama's words", async () => {
    server.enqueue({ status: 404, body: readJsonFixture("ollama", "error-404-model-not-found.json") });
    const error = await providerErrorOf(provider.generate(textRequest({ model: "llama9" })));
    expect(error.code).toBe("model_not_found");
    expect(error.message).toBe('Model llama9 not found or unavailable at Ollama: model "llama9" not found, try pulling it first');
  });

  it("429 with Retry-After, 500, and 503 (queue full): rate_limited and retryable server errors", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "2" }, body: { error: "too many requests" } });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({
      code: "rate_limited",
      retryAfterMs: 2_000,
    });
    server.enqueue({ status: 500, body: { error: "llama runner process has terminated: signal: killed" } });
    const crashed = await providerErrorOf(provider.generate(textRequest({ model: MODEL })));
    expect(crashed).toMatchObject({ code: "server", statusCode: 500, retryable: true });
    expect(crashed.message).toContain("llama runner process has terminated");
    server.enqueue({ status: 503, body: { error: "server busy, please try again.  maximum pending requests exceeded" } });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("server");
  });

  it("an error line inside a 200 stream: a server error after the deltas that arrived", async () => {
    const [first] = readChunksFixture("ollama", "chat.chunks.txt");
    server.enqueue({
      headers: NDJSON,
      chunks: ndjson([first, { error: "an error was encountered while running the model: unexpected EOF" }]),
    });
    const deltas: string[] = [];
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL, onDelta: (text) => deltas.push(text) })));
    expect(deltas).toEqual(["The"]);
    expect(error).toMatchObject({ code: "server", retryable: true });
    expect(error.message).toContain("unexpected EOF");
  });

  it("a stream cut off before its done line, or dropped mid-way: server and network errors", async () => {
    const [first, second] = readChunksFixture("ollama", "chat.chunks.txt");
    server.enqueue({ headers: NDJSON, chunks: ndjson([first, second]) });
    const cut = await providerErrorOf(provider.generate(textRequest({ model: MODEL, onDelta: () => {} })));
    expect(cut.code).toBe("server");
    expect(cut.message).toContain("ended before its final line");

    server.enqueue({ headers: NDJSON, chunks: ndjson([first]), dropAfterChunks: true });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL, onDelta: () => {} })))).code).toBe("network");
  });

  it("a server slower than the signal, and a stream that stalls past it: timeout", async () => {
    server.enqueue({ delayMs: 5_000, body: readJsonFixture("ollama", "chat.json") });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(150) })))).code).toBe(
      "timeout",
    );

    server.enqueue({ headers: NDJSON, chunks: ndjson(readChunksFixture("ollama", "chat.chunks.txt")), chunkDelayMs: 500 });
    const stalled = await providerErrorOf(
      provider.generate(textRequest({ model: MODEL, signal: AbortSignal.timeout(300), onDelta: () => {} })),
    );
    expect(stalled.code).toBe("timeout");
  });

  it("an empty body, malformed JSON, or a malformed stream line: server errors", async () => {
    server.enqueue({ headers: { "content-type": "application/json" }, body: "" });
    expect(await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).toMatchObject({
      code: "server",
      message: "Ollama sent an empty or malformed response (status 200).",
    });
    server.enqueue({ headers: { "content-type": "application/json" }, body: '{"message": {"content": "Hel' });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL })))).code).toBe("server");
    server.enqueue({ headers: NDJSON, chunks: ['{"message":{"content":"Hi"},"done":false}\n', "not json\n"] });
    expect((await providerErrorOf(provider.generate(textRequest({ model: MODEL, onDelta: () => {} })))).code).toBe("server");
  });

  it("nothing listening at the base URL: a network error that says to check it", async () => {
    const closed = await startVendorServer();
    await closed.close();
    const nowhere = providerFactories.ollama.create({ apiKey: null, baseURL: closed.origin });
    const error = await providerErrorOf(nowhere.generate(textRequest({ model: MODEL })));
    expect(error.code).toBe("network");
    expect(error.message).toContain("check the base URL and that the server is running");
  });

  it("unknown parameters are warnings and are not sent", async () => {
    server.enqueue({ body: readJsonFixture("ollama", "chat.json") });
    const result = await provider.generate(textRequest({ model: MODEL, params: { num_ctx: 8192 } }));
    expect(result.warnings).toEqual(['Ollama ignores the unknown parameter "num_ctx".']);
    expect(server.requests[0].body).not.toHaveProperty("options");
  });

  it("a parameter of the wrong type is a bad_request and nothing is sent", async () => {
    const error = await providerErrorOf(provider.generate(textRequest({ model: MODEL, params: { temperature: "warm" } })));
    expect(error.code).toBe("bad_request");
    expect(error.message).toBe('Parameter "temperature" must be a number >= 0; got the string "warm".');
    expect(server.requests).toHaveLength(0);
  });

  it("contextWindow reads <architecture>.context_length from POST /api/show; an unknown model is null", async () => {
    server.enqueue({ body: readJsonFixture("ollama", "show.json") });
    await expect(provider.contextWindow!(MODEL)).resolves.toBe(8192);
    expect(server.requests[0]).toMatchObject({ method: "POST", path: "/api/show", body: { model: MODEL } });

    server.enqueue({ status: 404, body: { error: "model 'nothing' not found" } });
    await expect(provider.contextWindow!("nothing")).resolves.toBeNull();
  });

  it("listModels reads GET /api/tags", async () => {
    server.enqueue({ body: readJsonFixture("ollama", "tags.json") });
    const models = await provider.listModels();
    expect(server.requests[0]).toMatchObject({ method: "GET", path: "/api/tags" });
    expect(models).toEqual([
      { provider: "ollama", model: "codellama:13b", label: "Ollama / codellama:13b", description: "13B, Q4_0", contextWindow: null },
      { provider: "ollama", model: "llama3:latest", label: "Ollama / llama3:latest", description: "7B, Q4_0", contextWindow: null },
    ]);
  });
});
