import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postRun } from "@/app/api/v1/runs/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { insertPrompt } from "@/lib/db/prompts/prompts";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

// POST /api/v1/runs as a client sends it: the answers the page and other clients read. The
// decisions themselves are tested on both databases in run-admission-suite.ts.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("POST /api/v1/runs: what the server refuses before a run starts", () => {
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
  const models = [{ provider: "mock", model: "fast" }];

  it("answers 400 naming each variable no row provides, and pays for nothing", async () => {
    const response = await post({ prompt: "Summarise {{missing}} for {{audience}}.", rows: [{ audience: "kids" }], models });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("bad_request");
    expect(error.field).toBe("rows");
    expect(error.message).toBe(
      "rows: The prompt uses {{missing}}, which is not a column of the dataset. Its columns are: audience. Rename a column or the variable so they match.",
    );
    expect((await test.db.query<{ n: number }>("select count(*)::int as n from run_cells")).rows[0].n).toBe(0);
  });

  it("answers 409 with the active run's id to a second start of the same prompt", async () => {
    const prompt = await asUser(test.db, localUserId, (tx) =>
      insertPrompt(tx, { name: "Greeting", text: "Say hello.", type: "generator" }),
    );
    const first = await post({ promptId: prompt.id, models });
    expect(first.status).toBe(201);
    const { id } = await first.json();
    const second = await post({ promptId: prompt.id, models });
    expect(second.status).toBe(409);
    const { error } = await second.json();
    expect(error).toEqual({
      code: "conflict",
      message: `This prompt already has a run in progress (${id}). Open it, or cancel it before starting another.`,
      runId: id,
    });
  });
});
