import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listPrompts } from "@/app/api/v1/prompts/route";
import { POST as signIn } from "@/app/api/v1/session/route";
import { DELETE as revokeRoute } from "@/app/api/v1/tokens/[id]/route";
import { GET as listTokensRoute, POST as createTokenRoute } from "@/app/api/v1/tokens/route";
import { readAccessConfig, sessionCookieName } from "@/lib/auth/access-config";
import { createAccessToken } from "@/lib/auth/access-tokens";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { insertPrompt } from "@/lib/db/prompts/prompts";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, userB, type TestDatabase } from "../helpers/databases";

// Route handlers find the app through the process's context; each test sets the access mode.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("access tokens", () => {
  let test: TestDatabase;
  const useServer = (env: Record<string, string>, controlToken: string | null = null) => {
    contextStore.__parallaxrContext = Promise.resolve({ db: test.db, access: readAccessConfig(env), controlToken } as AppContext);
  };
  const get = (headers: Record<string, string> = {}) => listPrompts(new Request("http://127.0.0.1:3000/api/v1/prompts", { headers }));

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    await asUser(test.db, localUserId, (tx) => insertPrompt(tx, { name: "local's prompt", text: "x", type: "generator" }));
    await asUser(test.db, userB, (tx) => insertPrompt(tx, { name: "b's prompt", text: "y", type: "generator" }));
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await test.drop();
  });

  it("a server bound beyond loopback refuses a request without a token (401), and serves one with a token as its user", async () => {
    useServer({ HOST: "0.0.0.0" });
    const refused = await get();
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toContain("parallaxr token create");

    const { token } = await createAccessToken(test.db, { userId: userB, name: "b's laptop" });
    const served = await get({ authorization: `Bearer ${token}` });
    expect(served.status).toBe(200);
    expect((await served.json()).prompts.map((prompt: { name: string }) => prompt.name)).toEqual(["b's prompt"]);
  });

  it("PARALLAXR_REQUIRE_TOKEN=1 asks for tokens on loopback too; without it loopback is the local user", async () => {
    useServer({ PARALLAXR_REQUIRE_TOKEN: "1" });
    expect((await get()).status).toBe(401);
    useServer({});
    const local = await get();
    expect(local.status).toBe(200);
    expect((await local.json()).prompts.map((prompt: { name: string }) => prompt.name)).toEqual(["local's prompt"]);
  });

  it("a wrong, malformed or revoked token is refused even where none is needed", async () => {
    useServer({});
    expect((await get({ authorization: "Bearer pxr_" + "A".repeat(43) })).status).toBe(401);
    expect((await get({ authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);

    const created = await createTokenRoute(
      new Request("http://127.0.0.1:3000/api/v1/tokens", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "to revoke" }),
      }),
    );
    expect(created.status).toBe(201);
    const { token, id, last4 } = (await created.json()) as { token: string; id: string; last4: string };
    expect(token).toMatch(/^pxr_[A-Za-z0-9_-]{43}$/);
    expect(last4).toBe(token.slice(-4));
    expect((await get({ authorization: `Bearer ${token}` })).status).toBe(200);

    const listed = await (await listTokensRoute(new Request("http://127.0.0.1:3000/api/v1/tokens"))).json();
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(listed.tokens.map((entry: { name: string }) => entry.name)).toContain("to revoke");

    const revoked = await revokeRoute(new Request(`http://127.0.0.1:3000/api/v1/tokens/${id}`, { method: "DELETE" }), {
      params: Promise.resolve({ id: id.slice(0, 8) }),
    });
    expect(revoked.status).toBe(200);
    expect((await get({ authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it("stores tokens hashed: the database never holds the token itself", async () => {
    const { token } = await createAccessToken(test.db, { userId: localUserId, name: "hash check" });
    const { rows } = await test.db.query<{ token_hash: string }>("select token_hash from api_tokens where name = 'hash check'");
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    const { rows: leaks } = await test.db.query("select 1 from api_tokens where token_hash = $1 or name = $1 or last4 = $1", [token]);
    expect(leaks).toHaveLength(0);
  });

  it("the sign-in route checks the token and sets it in an HttpOnly, SameSite=Strict cookie that then authenticates", async () => {
    useServer({ HOST: "0.0.0.0" });
    const post = (token: string) =>
      signIn(
        new Request("http://127.0.0.1:3000/api/v1/session", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token }),
        }),
      );
    const wrong = await post("pxr_" + "B".repeat(43));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const { token } = await createAccessToken(test.db, { userId: userB, name: "browser" });
    const signedIn = await post(token);
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^${sessionCookieName}=`));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const served = await get({ cookie: cookie.split(";")[0] });
    expect(served.status).toBe(200);
    expect((await served.json()).prompts.map((prompt: { name: string }) => prompt.name)).toEqual(["b's prompt"]);
  });

  it("the server's control token (from its data folder's lock) acts as the local user", async () => {
    const controlToken = "pxr_" + "C".repeat(43);
    useServer({ HOST: "0.0.0.0" }, controlToken);
    const served = await get({ authorization: `Bearer ${controlToken}` });
    expect(served.status).toBe(200);
    expect((await served.json()).prompts.map((prompt: { name: string }) => prompt.name)).toEqual(["local's prompt"]);
    expect((await get({ authorization: `Bearer ${controlToken.slice(0, -1)}D` })).status).toBe(401);
  });
});
