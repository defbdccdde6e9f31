import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PUT as putKeyRoute } from "@/app/api/v1/keys/[provider]/route";
import { POST as testKeyRoute } from "@/app/api/v1/keys/[provider]/test/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { generateAccessToken, hashAccessToken } from "@/lib/auth/access-token";
import { sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import { upsertProviderKey } from "@/lib/db/keys/provider-keys";
import { insertAccessToken } from "@/lib/db/tokens/api-tokens";
import { createCredentialSource } from "@/lib/engine/credential-source";
import type { Environment } from "@/lib/environment";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, userA, type TestDatabase } from "../helpers/databases";
import { readJsonFixture, startVendorServer, type VendorServer } from "../helpers/vendor-server";

const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };
const secretKey = Buffer.alloc(32, 9);
const KEY = "sk-test-SSRF-0000000000000000000000000a11";

// A server that listens beyond loopback needs tokens: it serves several people, so none of them
// may point the server at its own network.
const tokenMode: Environment = { HOST: "0.0.0.0" };
const tokenModeAllowingPrivate: Environment = { HOST: "0.0.0.0", PARALLAXR_ALLOW_PRIVATE_BASE_URLS: "1" };

describe("base URLs and the server's own network (SSRF)", () => {
  let test: TestDatabase;
  let internal: VendorServer;
  let token: string;

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    internal = await startVendorServer({ prefix: "/v1" });
    token = generateAccessToken();
    await asUser(test.db, userA, (tx) =>
      insertAccessToken(tx, { name: "ssrf test", tokenHash: hashAccessToken(token), last4: token.slice(-4) }),
    );
  });
  afterEach(() => internal.reset());
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await internal.close();
    await test.drop();
  });

  function installApp(env: Environment) {
    const providers = createProviderRegistry([], {
      factories: providerFactories,
      credentials: createCredentialSource({ db: test.db, secretKey, env }),
    });
    contextStore.__parallaxrContext = Promise.resolve({ db: test.db, providers, secretKey, access: readAccessConfig(env) } as AppContext);
  }
  const headers = () => ({ authorization: `Bearer ${token}` });
  const put = (provider: string, body: unknown) =>
    putKeyRoute(new Request(`http://test/api/v1/keys/${provider}`, { method: "PUT", headers: headers(), body: JSON.stringify(body) }), {
      params: Promise.resolve({ provider }),
    });
  const tryKey = async (provider: string, model: string) => {
    const response = await testKeyRoute(
      new Request(`http://test/api/v1/keys/${provider}/test`, { method: "POST", headers: headers(), body: JSON.stringify({ model }) }),
      { params: Promise.resolve({ provider }) },
    );
    return (await response.json()) as { ok: boolean; code?: string; message?: string };
  };
  const messageOf = async (response: Response) => ((await response.json()) as { error: { message: string; field?: string } }).error;

  const privateUrls = [
    "http://169.254.169.254/latest/meta-data/",
    "http://127.0.0.1:8080/v1",
    "http://localhost:11434",
    "http://10.0.0.5/v1",
    "http://172.16.3.4/v1",
    "http://192.168.1.20:1234/v1",
    "http://[::1]:8080/v1",
    "http://[fd00::1]/v1",
    "http://0.0.0.0:8080/v1",
  ];

  it("refuses loopback, private and metadata addresses at save in token mode, saying how to allow them", async () => {
    installApp(tokenMode);
    for (const baseUrl of privateUrls) {
      const response = await put("openai", { apiKey: KEY, baseUrl });
      expect(response.status, baseUrl).toBe(400);
      const error = await messageOf(response);
      expect(error.field).toBe("baseUrl");
      expect(error.message).toContain("PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1");
    }
    // keyless servers too: the URL alone is what would be reached
    expect((await put("ollama", { baseUrl: "http://127.0.0.1:11434" })).status).toBe(400);
    // a public address is fine
    expect((await put("openai", { apiKey: KEY, baseUrl: "https://gateway.example.com/v1" })).status).toBe(200);
  });

  it("allows them with PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1, and for the local user of a loopback server", async () => {
    installApp(tokenModeAllowingPrivate);
    expect((await put("openai", { apiKey: KEY, baseUrl: "http://169.254.169.254/" })).status).toBe(200);
    expect((await put("openai", { apiKey: KEY, baseUrl: internal.baseURL })).status).toBe(200);
    installApp({});
    const local = await putKeyRoute(
      new Request("http://test/api/v1/keys/ollama", { method: "PUT", body: JSON.stringify({ baseUrl: "http://127.0.0.1:11434" }) }),
      { params: Promise.resolve({ provider: "ollama" }) },
    );
    expect(local.status).toBe(200);
  });

  it("refuses file:, data:, ftp: and credentials in the URL always", async () => {
    for (const env of [tokenMode, tokenModeAllowingPrivate, {}]) {
      installApp(env);
      for (const baseUrl of [
        "file:///etc/passwd",
        "data:text/plain,hi",
        "ftp://example.com/v1",
        "https://user:pass@api.example.com/v1",
        "gopher://example.com/",
      ]) {
        const response =
          env === tokenMode || env === tokenModeAllowingPrivate
            ? await put("openai", { apiKey: KEY, baseUrl })
            : await putKeyRoute(
                new Request("http://test/api/v1/keys/openai", { method: "PUT", body: JSON.stringify({ apiKey: KEY, baseUrl }) }),
                {
                  params: Promise.resolve({ provider: "openai" }),
                },
              );
        expect(response.status, `${baseUrl} with ${JSON.stringify(env)}`).toBe(400);
      }
    }
  });

  it("refuses at call time a private URL stored before the server went multi-user, and one from the environment", async () => {
    internal.route("POST /v1/chat/completions", { body: readJsonFixture("openai", "chat-completion.json") });
    internal.route("POST /api/chat", { body: readJsonFixture("ollama", "chat.json") });
    // Stored while the server was loopback-only (straight into the table, as an old row would be).
    await asUser(test.db, userA, (tx) =>
      upsertProviderKey(tx, { provider: "openai", sealed: sealSecret(secretKey, KEY), last4: "0a11", baseUrl: internal.baseURL }),
    );
    installApp(tokenMode);
    const stored = await tryKey("openai", "gpt-4o-mini");
    expect(stored).toMatchObject({ ok: false, code: "bad_request" });
    expect(stored.message).toContain("PARALLAXR_ALLOW_PRIVATE_BASE_URLS");

    installApp({ ...tokenMode, OLLAMA_BASE_URL: internal.origin });
    const fromEnv = await tryKey("ollama", "llama3.2");
    expect(fromEnv).toMatchObject({ ok: false, code: "bad_request" });
    expect(internal.requests).toHaveLength(0);

    // and with the setting, both are reached
    installApp({ ...tokenModeAllowingPrivate, OLLAMA_BASE_URL: internal.origin });
    await expect(tryKey("openai", "gpt-4o-mini")).resolves.toMatchObject({ ok: true });
    await expect(tryKey("ollama", "llama3.2")).resolves.toMatchObject({ ok: true });
    expect(internal.requests).toHaveLength(2);
  });
});
