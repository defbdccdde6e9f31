import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PUT as putKeyRoute } from "@/app/api/v1/keys/[provider]/route";
import { POST as testKeyRoute } from "@/app/api/v1/keys/[provider]/test/route";
import { GET as listKeysRoute } from "@/app/api/v1/keys/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createCredentialSource } from "@/lib/engine/credential-source";
import type { Environment } from "@/lib/environment";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";
import { readJsonFixture, startVendorServer, type VendorServer } from "../helpers/vendor-server";

// The route handlers find the app through the process's context; each test gives them this
// file's PGlite, a registry reading the environment it names, and the local user's access.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };
const secretKey = Buffer.alloc(32, 7);
const OPENAI_KEY = "sk-test-EXFILTRATE-ME-00000000000000007f3a";

describe("a saved key is sent only to the base URL it was saved with", () => {
  let test: TestDatabase;
  // The attacker's listener records every request; the vendor answers like OpenAI.
  let listener: VendorServer;
  let vendor: VendorServer;

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    listener = await startVendorServer({ prefix: "/v1" });
    vendor = await startVendorServer({ prefix: "/v1" });
  });
  afterEach(() => {
    listener.reset();
    vendor.reset();
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await listener.close();
    await vendor.close();
    await test.drop();
  });

  /** Points the route handlers at this file's database, as the local user, with env as the server's environment. */
  function useApp(env: Environment = {}) {
    const providers = createProviderRegistry([], {
      factories: providerFactories,
      credentials: createCredentialSource({ db: test.db, secretKey, env }),
    });
    contextStore.__parallaxrContext = Promise.resolve({ db: test.db, providers, secretKey, access: readAccessConfig(env) } as AppContext);
  }
  const put = (provider: string, body: unknown) =>
    putKeyRoute(new Request(`http://test/api/v1/keys/${provider}`, { method: "PUT", body: JSON.stringify(body) }), {
      params: Promise.resolve({ provider }),
    });
  const tryKey = async (provider: string, model: string) => {
    const response = await testKeyRoute(
      new Request(`http://test/api/v1/keys/${provider}/test`, { method: "POST", body: JSON.stringify({ model }) }),
      {
        params: Promise.resolve({ provider }),
      },
    );
    return (await response.json()) as { ok: boolean; code?: string; message?: string };
  };
  const keysSeenBy = (server: VendorServer) =>
    server.requests.map((request) => JSON.stringify(request.headers)).filter((headers) => headers.includes(OPENAI_KEY));

  it("refuses a new base URL without the key, and the next Test never sends the key there (the reported attack)", async () => {
    useApp();
    listener.route("POST /v1/chat/completions", { body: readJsonFixture("openai", "chat-completion.json") });
    expect((await put("openai", { apiKey: OPENAI_KEY })).status).toBe(200);

    const redirect = await put("openai", { baseUrl: listener.baseURL });
    await tryKey("openai", "gpt-4o-mini");
    // what the review saw: `Authorization: Bearer sk-...` at the listener
    expect(keysSeenBy(listener)).toEqual([]);
    expect(listener.requests).toHaveLength(0);

    expect(redirect.status).toBe(400);
    const { error } = (await redirect.json()) as { error: { field: string; message: string } };
    expect(error.field).toBe("baseUrl");
    expect(error.message).toContain("bound to the base URL it was saved with");
    expect(error.message).toContain("https://api.openai.com/v1");

    // The key stays where it was saved: the default URL.
    const listed = (await (await listKeysRoute(new Request("http://test/api/v1/keys"))).json()) as {
      keys: Array<{ provider: string; baseUrl: string | null }>;
    };
    expect(listed.keys.find((key) => key.provider === "openai")?.baseUrl).toBeNull();
  });

  it("takes a vendor's non-default base URL with the key entered beside it, and sends the key there", async () => {
    useApp();
    vendor.route("POST /v1/chat/completions", { body: readJsonFixture("openai", "chat-completion.json") });
    const saved = await put("openai", { apiKey: OPENAI_KEY, baseUrl: vendor.baseURL });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ provider: "openai", last4: "7f3a", baseUrl: vendor.baseURL });

    await expect(tryKey("openai", "gpt-4o-mini")).resolves.toMatchObject({ ok: true });
    expect(vendor.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${OPENAI_KEY}`]);

    // The same URL again without the key changes nothing and is no error.
    expect((await put("openai", { baseUrl: `${vendor.baseURL}/` })).status).toBe(200);
    // Another one is refused, and the key stays bound to the vendor's URL.
    expect((await put("openai", { baseUrl: listener.baseURL })).status).toBe(400);
    await tryKey("openai", "gpt-4o-mini");
    expect(listener.requests).toHaveLength(0);
    expect(vendor.requests).toHaveLength(2);
  });

  it("refuses a vendor's base URL alone when no key is stored, naming the rule", async () => {
    useApp();
    const response = await put("groq", { baseUrl: listener.baseURL });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("groq needs an API key");
  });

  it("keeps keyless servers working with a base URL alone, and lets it change", async () => {
    useApp();
    const ollamaChat = { body: readJsonFixture("ollama", "chat.json") };
    listener.route("POST /api/chat", ollamaChat);
    vendor.route("POST /api/chat", ollamaChat);
    expect((await put("ollama", { baseUrl: listener.origin })).status).toBe(200);
    await expect(tryKey("ollama", "llama3.2")).resolves.toMatchObject({ ok: true });
    expect((await put("ollama", { baseUrl: vendor.origin })).status).toBe(200);
    await expect(tryKey("ollama", "llama3.2")).resolves.toMatchObject({ ok: true });
    expect(listener.requests).toHaveLength(1);
    expect(vendor.requests).toHaveLength(1);
    expect(vendor.requests[0].headers.authorization).toBeUndefined();

    vendor.route("POST /v1/chat/completions", { body: readJsonFixture("openai", "chat-completion.json") });
    expect((await put("openai-compatible", { baseUrl: vendor.baseURL })).status).toBe(200);
    await expect(tryKey("openai-compatible", "local-model")).resolves.toMatchObject({ ok: true });
  });

  it("binds an Ollama proxy token like any key: a new URL needs the token again", async () => {
    useApp();
    const token = "ollama-proxy-token-00000000d41e";
    expect((await put("ollama", { apiKey: token, baseUrl: vendor.origin })).status).toBe(200);
    expect((await put("ollama", { baseUrl: listener.origin })).status).toBe(400);
    listener.route("POST /api/chat", { body: readJsonFixture("ollama", "chat.json") });
    await tryKey("ollama", "llama3.2");
    expect(listener.requests).toHaveLength(0);
    // with the token entered again, it moves
    expect((await put("ollama", { apiKey: token, baseUrl: listener.origin })).status).toBe(200);
    await expect(tryKey("ollama", "llama3.2")).resolves.toMatchObject({ ok: true });
    expect(listener.requests[0].headers.authorization).toBe(`Bearer ${token}`);
  });

  it("does not let the environment's OPENAI_BASE_URL redirect a key saved for the default URL", async () => {
    useApp();
    expect((await put("openai", { apiKey: OPENAI_KEY })).status).toBe(200);
    listener.route("POST /v1/chat/completions", { body: readJsonFixture("openai", "chat-completion.json") });
    useApp({ OPENAI_BASE_URL: listener.baseURL });
    const answer = await tryKey("openai", "gpt-4o-mini");
    expect(answer).toMatchObject({ ok: false, code: "bad_request" });
    expect(answer.message).toContain("OPENAI_BASE_URL");
    expect(listener.requests).toHaveLength(0);
    expect(keysSeenBy(listener)).toEqual([]);
  });

  it("shows no HTML of a 1 MB error page at a base URL, only the status and a short message", async () => {
    useApp();
    const page = `<!doctype html><html><body><h1>Internal admin</h1><pre>${"secret-internal-row\n".repeat(52_000)}</pre></body></html>`;
    expect(page.length).toBeGreaterThan(1_000_000);
    vendor.route("POST /v1/chat/completions", { status: 404, body: page, headers: { "content-type": "text/html" } });
    expect((await put("openai", { apiKey: OPENAI_KEY, baseUrl: vendor.baseURL })).status).toBe(200);
    const answer = await tryKey("openai", "gpt-4o-mini");
    expect(answer).toMatchObject({ ok: false, code: "model_not_found" });
    expect(answer.message).not.toMatch(/[<>]/);
    expect(answer.message).not.toContain("secret-internal-row");
    expect(answer.message!.length).toBeLessThan(500);

    // A JSON error's message field is shown, cut at 300 characters.
    vendor.route("POST /v1/chat/completions", {
      status: 400,
      body: { error: { message: `Bad request: ${"x".repeat(5_000)}`, type: "invalid_request_error" } },
    });
    const long = await tryKey("openai", "gpt-4o-mini");
    expect(long.message).toContain("Bad request: xxx");
    expect(long.message!.length).toBeLessThan(500);
  });
});
