import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/v1/health/route";
import { POST as postRun } from "@/app/api/v1/runs/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

// The route handlers find the database through the process's app context; this file gives them
// its own PGlite and the mock provider. The handlers answer as the local user.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("POST /api/v1/runs: run sizes", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    contextStore.__parallaxrContext = Promise.resolve({
      db: test.db,
      providers: createProviderRegistry([createMockProvider()]),
      access: readAccessConfig({}),
      worker: null,
    } as unknown as AppContext);
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await test.drop();
  });

  const post = (body: unknown, query = "") =>
    postRun(new Request(`http://test/api/v1/runs${query}`, { method: "POST", body: JSON.stringify(body) }));
  const runCount = async () => (await test.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n;

  for (const query of ["", "?dryRun=true"]) {
    it(`answers a 1 MB prompt x 6,000 rows with 413 naming the limit, in seconds${query ? " (dry run)" : ""}`, async () => {
      const start = performance.now();
      const response = await post(
        {
          prompt: `${"Read this carefully. ".repeat(47_000)}{{n}}`,
          rows: Array.from({ length: 6_000 }, (_, n) => ({ n: String(n) })),
          models: [{ provider: "mock", model: "fast" }],
        },
        query,
      );
      expect(performance.now() - start).toBeLessThan(5_000);
      expect(response.status).toBe(413);
      const body = await response.json();
      expect(body.error.code).toBe("payload_too_large");
      expect(body.error.field).toBe("rows");
      expect(body.error.message).toContain("PARALLAXR_MAX_RENDERED_CHARS_PER_RUN");
      expect(await runCount()).toBe(0);
      // and the server still answers
      expect((await health(new Request("http://test/api/v1/health"))).status).toBe(200);
    }, 60_000);

    it(`answers 100,000 rows x 16 models x 100 trials with 413 before any insert${query ? " (dry run)" : ""}`, async () => {
      const start = performance.now();
      const response = await post(
        {
          prompt: "Classify {{n}}",
          rows: Array.from({ length: 100_000 }, (_, n) => ({ n: String(n) })),
          models: Array.from({ length: 16 }, (_, index) => ({ provider: "mock", model: `m${index}` })),
          trials: 100,
        },
        query,
      );
      expect(performance.now() - start).toBeLessThan(10_000);
      expect(response.status).toBe(413);
      const body = await response.json();
      expect(body.error.code).toBe("payload_too_large");
      expect(body.error.message).toContain("160,000,000 cells");
      expect(body.error.message).toContain("PARALLAXR_MAX_CELLS_PER_RUN");
      expect(await runCount()).toBe(0);
    }, 60_000);
  }

  it("reads the per-run cap from PARALLAXR_MAX_CELLS_PER_RUN", async () => {
    process.env.PARALLAXR_MAX_CELLS_PER_RUN = "10";
    try {
      const response = await post({
        prompt: "q {{n}}",
        rows: Array.from({ length: 11 }, (_, n) => ({ n: String(n) })),
        models: [{ provider: "mock", model: "fast" }],
      });
      expect(response.status).toBe(413);
      expect((await response.json()).error.message).toContain("11 cells");
      const small = await post({
        prompt: "q {{n}}",
        rows: Array.from({ length: 10 }, (_, n) => ({ n: String(n) })),
        models: [{ provider: "mock", model: "fast" }],
      });
      expect(small.status).toBe(201);
    } finally {
      delete process.env.PARALLAXR_MAX_CELLS_PER_RUN;
    }
  });

  it("answers 429 once the caller's queued cells would pass PARALLAXR_MAX_QUEUED_CELLS_PER_USER: the request fits, the queue does not", async () => {
    // runs of the tests above wait in the queue too (no worker here): the cap leaves room for 15 more
    const {
      rows: [{ n: waiting }],
    } = await test.db.query<{ n: number }>("select count(*)::int as n from run_cells where status in ('queued', 'running')");
    process.env.PARALLAXR_MAX_QUEUED_CELLS_PER_USER = String(waiting + 15);
    try {
      const rows = Array.from({ length: 10 }, (_, n) => ({ n: String(n) }));
      const first = await post({ prompt: "q {{n}}", rows, models: [{ provider: "mock", model: "slow" }] });
      expect(first.status).toBe(201);
      const second = await post({ prompt: "q {{n}}", rows, models: [{ provider: "mock", model: "slow" }] });
      expect(second.status).toBe(429);
      const body = await second.json();
      expect(body.error.code).toBe("too_many_requests");
      expect(body.error.message).toContain("PARALLAXR_MAX_QUEUED_CELLS_PER_USER");
    } finally {
      delete process.env.PARALLAXR_MAX_QUEUED_CELLS_PER_USER;
    }
  });
});
