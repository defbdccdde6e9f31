import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getLimits } from "@/app/api/v1/limits/route";
import { POST as resetThrottle } from "@/app/api/v1/limits/reset-throttle/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, userB, type TestDatabase } from "../helpers/databases";

// Settings -> Limits' Reset: POST /api/v1/limits/reset-throttle lifts one credential's throttle.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("POST /api/v1/limits/reset-throttle", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    contextStore.__parallaxrContext = Promise.resolve({
      db: test.db,
      providers: createProviderRegistry([createMockProvider()]),
      access: readAccessConfig({}),
      worker: null,
    } as unknown as AppContext);
    await test.db.query(
      `insert into provider_limits (user_id, provider, max_concurrency, adaptive_limit, decreased_at) values
         ($1, 'mock/flaky', null, 2, now()), ($1, 'mock/slow', null, 3, now()), ($1, 'openai', 6, 1.5, now()), ($2, 'mock/flaky', null, 2, now())`,
      [localUserId, userB],
    );
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await test.drop();
  });

  const reset = (body: unknown) =>
    resetThrottle(new Request("http://test/api/v1/limits/reset-throttle", { method: "POST", body: JSON.stringify(body) }));
  const throttles = async (userId: string) =>
    Object.fromEntries(
      (
        await test.db.query<{ provider: string; adaptive_limit: number | null; max_concurrency: number | null }>(
          "select provider, adaptive_limit, max_concurrency from provider_limits where user_id = $1",
          [userId],
        )
      ).rows.map((row) => [row.provider, [row.adaptive_limit, row.max_concurrency]]),
    );

  it("lists each throttled credential, and lifts the one named, keeping the person's own limits", async () => {
    const listed = (await (await getLimits(new Request("http://test/api/v1/limits"))).json()) as {
      limits: Array<{ provider: string; adaptiveLimit: number | null }>;
    };
    expect(listed.limits.map((limit) => [limit.provider, limit.adaptiveLimit])).toEqual([
      ["mock/flaky", 2],
      ["mock/slow", 3],
      ["openai", 1],
    ]);
    const response = await reset({ credential: "mock/flaky" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ saved: true });
    expect(await reset({ credential: "openai" }).then((answer) => answer.status)).toBe(200);
    expect(await throttles(localUserId)).toEqual({ "mock/flaky": [null, null], "mock/slow": [3, null], openai: [null, 6] });
    // another user's throttle of the same name is theirs
    expect((await throttles(userB))["mock/flaky"]).toEqual([2, null]);
  });

  it("answers 404 for a credential that is not throttled, and 400 for one that is no credential's name", async () => {
    const again = await reset({ credential: "mock/flaky" });
    expect(again.status).toBe(404);
    expect((await again.json()).error).toMatchObject({ code: "not_found", message: "mock/flaky is not throttled.", field: "credential" });
    for (const body of [
      { credential: "../x" },
      { credential: "mock/" },
      { credential: "a".repeat(41) },
      { credential: "mock/slow", all: true },
      {},
    ]) {
      const response = await reset(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await throttles(localUserId))["mock/slow"]).toEqual([3, null]);
  });
});
