import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getBaselineRoute } from "@/app/api/v1/evals/runs/[runId]/route";
import { createEvalSchema } from "@/lib/api/evals";
import { localUserId } from "@/lib/auth/local-user";
import { readAccessConfig } from "@/lib/auth/access-config";
import { asUser } from "@/lib/db/as-user";
import { findEvalRun } from "@/lib/db/evals/find-eval-run";
import { createEval } from "@/lib/engine/create-eval";
import { NotFoundError } from "@/lib/engine/errors";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { findEvalBaseline } from "@/lib/services/eval-baseline";
import { evalRunId } from "@/lib/services/evals";
import {
  createPgliteTestDatabase,
  createServerTestDatabase,
  postgresServerAvailable,
  userA,
  userB,
  type TestDatabase,
} from "../helpers/databases";

// The lookup behind `parallaxr eval run --baseline RUN_ID` (issue 12): an EvalRun found by its
// 8-hex run_id, which is computed, not stored, so the query computes it for every prompt x model
// of every eval run the caller can see. On PGlite and on the Postgres server; the route on PGlite.

const CONFIG = `models: [mock/fast, mock/echo]
prompts:
  - name: first
    template: "Say {word}"
  - name: second
    template: "Repeat {word}"
test_cases:
  - name: t1
    inputs: {word: hello}
`;

const input = createEvalSchema.parse({ config: CONFIG, configName: "eval.yaml" });

function lookupSuite(name: string, open: () => Promise<TestDatabase | null>) {
  describe(name, () => {
    let test: TestDatabase | null = null;
    beforeAll(async () => {
      test = await open();
    });
    afterAll(() => test?.drop());

    it("finds each prompt x model of an eval by its run_id, an older eval's too; another user finds nothing", async () => {
      if (!test) return;
      const { db } = test;
      const older = await createEval({ db }, { userId: userA, input });
      const created = await createEval({ db }, { userId: userA, input });
      expect(evalRunId(older.id, 0, 0)).not.toBe(evalRunId(created.id, 0, 0));
      for (const [variant, column] of [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ]) {
        const runId = evalRunId(created.id, variant, column);
        expect(await asUser(db, userA, (tx) => findEvalRun(tx, { runId }))).toEqual({ evalId: created.id, variant, column });
        expect(await asUser(db, userB, (tx) => findEvalRun(tx, { runId }))).toBeNull();
      }
      expect(await asUser(db, userA, (tx) => findEvalRun(tx, { runId: evalRunId(older.id, 1, 0) }))).toEqual({
        evalId: older.id,
        variant: 1,
        column: 0,
      });

      const baseline = await findEvalBaseline({ db }, { userId: userA, runId: evalRunId(created.id, 1, 1) });
      expect(baseline.evalId).toBe(created.id);
      expect(baseline.run).toMatchObject({ run_id: evalRunId(created.id, 1, 1), prompt_name: "second", model: "mock/echo" });
      await expect(findEvalBaseline({ db }, { userId: userB, runId: evalRunId(created.id, 1, 1) })).rejects.toThrow(NotFoundError);
      await expect(findEvalBaseline({ db }, { userId: userA, runId: "0000000f" })).rejects.toThrow("No EvalRun has the run_id 0000000f.");
    });
  });
}

lookupSuite("finding an EvalRun by run_id on PGlite", createPgliteTestDatabase);
lookupSuite("finding an EvalRun by run_id on the Postgres server", async () =>
  (await postgresServerAvailable()) ? createServerTestDatabase() : null,
);

describe("GET /api/v1/evals/runs/{runId}", () => {
  const providers = createProviderRegistry([createMockProvider()]);
  const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    contextStore.__parallaxrContext = Promise.resolve({
      db: test.db,
      providers,
      access: readAccessConfig({}),
      worker: null,
    } as unknown as AppContext);
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await test?.drop();
  });
  const get = (runId: string) =>
    getBaselineRoute(new Request(`http://test/api/v1/evals/runs/${runId}`), { params: Promise.resolve({ runId }) });

  it("answers the EvalRun and its eval, 404 for a run_id nothing has, 400 for one that is not 8 hex characters", async () => {
    const created = await createEval({ db: test.db }, { userId: localUserId, input });
    const runId = evalRunId(created.id, 0, 1);
    const found = await get(runId);
    expect(found.status).toBe(200);
    const body = await found.json();
    expect(body).toMatchObject({ evalId: created.id, run: { run_id: runId, prompt_name: "first", model: "mock/echo" } });

    const missing = await get("0000000f");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.message).toContain("No EvalRun has the run_id 0000000f.");
    const malformed = await get("..%2Fx");
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toContain("8 hex characters");
  });
});
