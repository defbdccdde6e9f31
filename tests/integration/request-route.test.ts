// route() called in process, as other integration tests call handlers: proxy.ts does not run
// here, so these are the checks route() makes itself: the body limit while reading, strict
// parsing, the nesting bound and public routes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/v1/health/route";
import { GET as listPrompts, POST as postPrompt } from "@/app/api/v1/prompts/route";
import { POST as postRun } from "@/app/api/v1/runs/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import type { AppContext } from "@/lib/server/context";
import { z } from "zod";
import { GET as getRun } from "@/app/api/v1/runs/[id]/route";
import { fileResponse, route } from "@/lib/server/route";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

function json(path: string, body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
    duplex: "half",
  } as RequestInit);
}

describe("route()", () => {
  let test: TestDatabase;
  let access = readAccessConfig({});

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    contextStore.__parallaxrContext = Promise.resolve({
      db: test.db,
      get access() {
        return access;
      },
      worker: null,
    } as unknown as AppContext);
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await test.drop();
  });

  it("cuts off a chunked body at the route's limit with 413, without reading the rest", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const response = await postPrompt(json("/api/v1/prompts", endless));
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("payload_too_large");
    expect(body.error.message).toContain("8 MB (8,388,608 bytes), the limit of POST /api/v1/prompts");
    expect(pulled).toBeLessThan(8 * 16 + 4); // 8 MB in 64 KB chunks, and no more than a few past it
  });

  it("refuses an unknown field by name and params nested 200,000 deep with 400, not 500", async () => {
    const unknown = await postRun(
      json("/api/v1/runs", JSON.stringify({ prompt: "x", models: [{ provider: "mock", model: "echo" }], budget_usd: 0.01 })),
    );
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('unknown field "budget_usd"');

    const params = '{"a":'.repeat(200_000) + "1" + "}".repeat(200_000);
    const deep = await postRun(json("/api/v1/runs", `{"prompt":"x","models":[{"provider":"mock","model":"echo","params":${params}}]}`));
    expect(deep.status).toBe(400);
    const shallowButDeepParams = '{"a":'.repeat(12) + "1" + "}".repeat(12);
    const eleven = await postRun(
      json("/api/v1/runs", `{"prompt":"x","models":[{"provider":"mock","model":"echo","params":${shallowButDeepParams}}]}`),
    );
    expect(eleven.status).toBe(400);
    expect(((await eleven.json()) as { error: { message: string } }).error.message).toContain("deeper than 10 levels");
  });

  it("answers a public route without a caller where every other route needs a token", async () => {
    access = readAccessConfig({ PARALLAXR_REQUIRE_TOKEN: "1" });
    try {
      expect((await health(new Request("http://127.0.0.1:3000/api/v1/health"))).status).toBe(200);
      expect((await listPrompts(new Request("http://127.0.0.1:3000/api/v1/prompts"))).status).toBe(401);
    } finally {
      access = readAccessConfig({});
    }
  });

  it("parses the query in route(): an unknown parameter is a 400 naming it, '_' ones are left alone", async () => {
    const run = (query: string) =>
      getRun(new Request(`http://127.0.0.1:3000/api/v1/runs/7d0c4b7e-3c1a-4c55-9d0e-0b7d8f1a2b3c${query}`), {
        params: Promise.resolve({ id: "7d0c4b7e-3c1a-4c55-9d0e-0b7d8f1a2b3c" }),
      });
    const typo = await run("?outputchars=10");
    expect(typo.status).toBe(400);
    expect(((await typo.json()) as { error: { message: string } }).error.message).toContain(
      'unknown query parameter "outputchars" (did you mean "outputChars"?)',
    );
    const notNumber = await run("?outputChars=ten");
    expect(((await notNumber.json()) as { error: { message: string } }).error.message).toBe(
      "outputChars: outputChars must be a whole number from 0 to 1000000",
    );
    // A range error names the range, not "must be a number" (a client asking for 0 or -1 was told that)
    const negative = await run("?outputChars=-1");
    expect(((await negative.json()) as { error: { message: string } }).error.message).toBe(
      "outputChars: outputChars must be a whole number from 0 to 1000000",
    );
    expect((await run("?outputChars=0")).status).toBe(404); // 0 is valid: parsed, then not found
    expect((await run("?outputChars=10&_=1700000000&_rsc=abc")).status).toBe(404); // parsed, then not found
    const none = await listPrompts(new Request("http://127.0.0.1:3000/api/v1/prompts?limit=5"));
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain('unknown query parameter "limit"');
  });

  it("checks a JSON answer against the route's output schema: a mismatch is a 500 naming the route and the field", async () => {
    const drifted = route({ output: z.strictObject({ deleted: z.literal(true) }) }, async () => ({ deleted: "yes" }) as never);
    const response = await drifted(new Request("http://127.0.0.1:3000/api/v1/example", { method: "DELETE" }));
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("internal");
    expect(body.error.message).toContain("The answer of DELETE /api/v1/example does not match its output schema: deleted:");
    const file = route({}, async () => fileResponse("a,b\n", { filename: "a.csv", contentType: "text/csv" }));
    expect((await file(new Request("http://127.0.0.1:3000/api/v1/example"))).headers.get("content-type")).toBe("text/csv");
  });

  it("answers files as attachments", async () => {
    const response = fileResponse("a,b\n", { filename: 'résultats "1".csv', contentType: "text/csv; charset=utf-8" });
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="r_sultats _1_.csv"; filename*=UTF-8''r%C3%A9sultats%20%221%22.csv`,
    );
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
