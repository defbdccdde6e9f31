// The request gate against the production server: what a request must be before any route runs.
// Each attack here was answered 200/201 (or 500) before the gate existed.
import { expect, test } from "@playwright/test";
import { chunkedFiller, rawRequest } from "./helpers/raw-request";

function appOrigin(baseURL: string | undefined): string {
  return new URL(baseURL ?? "http://127.0.0.1:3100").origin;
}

const MB = 1024 * 1024;

test.describe("request gate", () => {
  test("a JSON body sent as text/plain gets 415", async ({ request }) => {
    const answer = await request.post("/api/v1/prompts", {
      headers: { "content-type": "text/plain" },
      data: JSON.stringify({ name: "pwned-text-plain", text: "x" }),
    });
    expect(answer.status()).toBe(415);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
    // a form body too
    const form = await request.post("/api/v1/prompts", { form: { name: "pwned-form" } });
    expect(form.status()).toBe(415);
    // application/json with a charset is JSON
    const json = await request.post("/api/v1/prompts", {
      headers: { "content-type": "application/json; charset=utf-8" },
      data: JSON.stringify({ name: "gate-json-charset", text: "x" }),
    });
    expect(json.status()).toBe(201);
  });

  test("another Origin, or Sec-Fetch-Site cross-site or same-site, gets 403 on every state change", async ({ request, baseURL }) => {
    const app = appOrigin(baseURL);
    const crossOrigin = await request.post("/api/v1/prompts", {
      headers: { origin: "http://evil.example" },
      data: { name: "pwned-origin", text: "x" },
    });
    expect(crossOrigin.status()).toBe(403);
    expect(((await crossOrigin.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    const otherPort = await request.post("/api/v1/prompts", {
      headers: { origin: "http://127.0.0.1:3199" },
      data: { name: "pwned-port", text: "x" },
    });
    expect(otherPort.status()).toBe(403);
    const crossSite = await request.post("/api/v1/prompts", {
      headers: { "sec-fetch-site": "cross-site" },
      data: { name: "pwned-fetch-site", text: "x" },
    });
    expect(crossSite.status()).toBe(403);
    const sameSite = await request.post("/api/v1/prompts", {
      headers: { "sec-fetch-site": "same-site" },
      data: { name: "pwned-same-site", text: "x" },
    });
    expect(sameSite.status()).toBe(403);
    // bodiless state changes are checked too
    expect((await request.delete("/api/v1/cache", { headers: { origin: "http://evil.example" } })).status()).toBe(403);
    expect((await request.post("/api/v1/seed", { headers: { "sec-fetch-site": "cross-site" } })).status()).toBe(403);
    // the app's own origin, and no Origin at all (curl, the CLI), pass
    const own = await request.post("/api/v1/prompts", {
      headers: { origin: app, "sec-fetch-site": "same-origin" },
      data: { name: "gate-same-origin", text: "x" },
    });
    expect(own.status()).toBe(201);
    const names = ((await (await request.get("/api/v1/prompts")).json()) as { prompts: Array<{ name: string }> }).prompts.map(
      (p) => p.name,
    );
    expect(names.filter((name) => name.startsWith("pwned-"))).toEqual([]);
  });

  test("a body over the limit gets 413, with a true Content-Length and with none, and the server stays up", async ({ baseURL }) => {
    test.setTimeout(120_000);
    const app = appOrigin(baseURL);
    const size = 9 * MB; // over the 8 MB of POST /api/v1/prompts
    const declared = await rawRequest({
      url: `${app}/api/v1/prompts`,
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(size) },
      body: Buffer.alloc(size, " "),
    });
    expect(declared.status).toBe(413);
    const error = (JSON.parse(declared.text) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("payload_too_large");
    expect(error.message).toContain("8 MB");
    expect(error.message).toContain("/api/v1/prompts");

    const chunked = await rawRequest({
      url: `${app}/api/v1/prompts`,
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: chunkedFiller(12 * MB),
    });
    expect(chunked.status).toBe(413);
    expect(chunked.text).toContain("payload_too_large");

    const health = await rawRequest({ url: `${app}/api/v1/health` });
    expect(health.status).toBe(200);
  });

  test("a 50 MB dataset of 100,000 rows is stored whole", async ({ request }) => {
    test.setTimeout(120_000);
    const filler = "lorem ipsum dolor sit amet, ".repeat(17);
    const rows = Array.from({ length: 100_000 }, (_, index) => ({
      id: String(index + 1),
      city: `city-${index + 1}`,
      text: `${index + 1} ${filler}`,
    }));
    const body = Buffer.from(JSON.stringify({ name: "fifty-megabytes.json", headers: ["id", "city", "text"], rows }));
    expect(body.length).toBeGreaterThan(50_000_000);
    const answer = await request.post("/api/v1/datasets", {
      headers: { "content-type": "application/json" },
      data: body,
      timeout: 110_000,
    });
    expect(answer.status(), await answer.text()).toBe(201);
    const stored = (await answer.json()) as { id: string; rowCount: number };
    expect(stored.rowCount).toBe(100_000);
    const last = (await (await request.get(`/api/v1/datasets/${stored.id}?limit=100000`)).json()) as {
      rows: Array<Record<string, string>>;
    };
    expect(last.rows.at(-1)).toEqual(rows.at(-1));
  });

  test("an unknown envelope field is a 400 naming it, not a silent no-budget run", async ({ request }) => {
    const answer = await request.post("/api/v1/runs", {
      data: { prompt: "x", models: [{ provider: "mock", model: "echo" }], budget_usd: 0.01 },
    });
    expect(answer.status()).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toContain("budget_usd");
  });

  test("model params nested 200,000 levels deep are a 400, not a 500", async ({ baseURL }) => {
    const app = appOrigin(baseURL);
    const depth = 200_000;
    const params = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
    const body = `{"prompt":"x","models":[{"provider":"mock","model":"echo","params":${params}}]}`;
    const answer = await rawRequest({ url: `${app}/api/v1/runs`, method: "POST", headers: { "content-type": "application/json" }, body });
    expect(answer.status, answer.text).toBe(400);
    expect((await rawRequest({ url: `${app}/api/v1/health` })).status).toBe(200);
  });

  test("pages and API answers carry the security headers", async ({ request }) => {
    for (const path of ["/", "/api/v1/health", "/api/v1/prompts"]) {
      const headers = (await request.get(path)).headers();
      const csp = headers["content-security-policy"] ?? "";
      for (const directive of [
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "connect-src 'self'",
      ]) {
        expect(csp, `${path} CSP`).toContain(directive);
      }
      expect(headers["x-frame-options"], path).toBe("DENY");
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBe("no-referrer");
      expect(headers["permissions-policy"], path).toContain("camera=()");
    }
  });
});
