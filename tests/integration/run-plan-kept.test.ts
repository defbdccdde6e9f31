import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getRunRoute } from "@/app/api/v1/runs/[id]/route";
import { POST as postRun } from "@/app/api/v1/runs/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { upsertUserPrice } from "@/lib/db/pricing/pricing";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

// The plan a run was created with is the run's: GET /api/v1/runs/{id} answers it, so a page
// reloaded while the run is active shows the plan of the run that runs (issue 10, item 4), not
// nothing and not a new estimate with today's prices and history.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("GET /api/v1/runs/{id}: the plan the run was created with", () => {
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

  const post = (body: unknown) => postRun(new Request("http://test/api/v1/runs", { method: "POST", body: JSON.stringify(body) }));
  const get = (id: string) =>
    getRunRoute(new Request(`http://test/api/v1/runs/${id}`), { params: Promise.resolve({ id }) } as never) as Promise<Response>;

  it("answers the creation's plan, unchanged by a price set afterwards", async () => {
    const created = await post({
      prompt: "Describe {{city}}.",
      rows: [{ city: "Paris" }, { city: "Lima" }, { city: "Oslo" }],
      models: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "echo" },
      ],
    });
    expect(created.status).toBe(201);
    const { id, plan } = (await created.json()) as { id: string; plan: { cells: number } };
    expect(plan.cells).toBe(6);

    // A price set after the start changes what a new estimate would say, not the run's plan.
    await asUser(test.db, localUserId, (tx) =>
      upsertUserPrice(tx, { provider: "mock", model: "fast", inputPerMTok: 50, outputPerMTok: 100, perImage: null }),
    );
    const answer = await get(id);
    expect(answer.status).toBe(200);
    const run = (await answer.json()) as { plan: unknown };
    expect(run.plan).toEqual(plan);
  });

  it("answers null for a run stored without one (created before plans were kept)", async () => {
    const created = await post({ prompt: "Say hello.", models: [{ provider: "mock", model: "fast" }] });
    const { id } = (await created.json()) as { id: string };
    await asUser(test.db, localUserId, (tx) => tx.query("update runs set config = config - 'plan' where id = $1", [id]));
    const run = (await (await get(id)).json()) as { plan: unknown };
    expect(run.plan).toBeNull();
  });
});
