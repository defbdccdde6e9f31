import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, waitFor, type TestDatabase, testBackends } from "../helpers/databases";

// A cell's notice names its run and status only, so the cells a statement changes are one notice
// per run and status (0024_cell_notices_per_run.sql), not one per cell for every listener.

describe.each(testBackends)("cell notices on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  const providers = createProviderRegistry([createMockProvider()]);

  beforeAll(async () => {
    test = await create();
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("are one per run and status for the cells of a statement, and wake a listener for each", async (context) => {
    if (!test) return context.skip();
    const db = test.db;
    const run = await createRun(
      { db, providers },
      {
        userId: userA,
        input: {
          prompt: "notice {{n}}",
          rows: Array.from({ length: 20 }, (_, n) => ({ n: String(n) })),
          models: [{ provider: "mock", model: "echo" }],
        },
      },
    );
    const notices: Array<Record<string, unknown>> = [];
    const unlisten = await db.listen("parallaxr_cells", (payload) => notices.push(JSON.parse(payload) as Record<string, unknown>));
    try {
      // 20 cells changed visibly (attempts), still queued: one notice
      await db.query("update run_cells set attempts = attempts + 1 where run_id = $1", [run.id]);
      await waitFor(() => notices.length > 0, { what: "the first notice" });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(notices).toEqual([{ runId: run.id, status: "queued" }]);

      // 5 of them skipped, the rest still queued: a notice for each status
      notices.length = 0;
      await db.query(
        "update run_cells set status = case when row_index < 5 then 'skipped' else status end, attempts = attempts + 1 where run_id = $1",
        [run.id],
      );
      await waitFor(() => notices.length >= 2, { what: "a notice per status" });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(notices).toHaveLength(2);
      expect(notices).toEqual(
        expect.arrayContaining([
          { runId: run.id, status: "queued" },
          { runId: run.id, status: "skipped" },
        ]),
      );

      // a change nothing reads (a lease renewal) is no notice
      notices.length = 0;
      await db.query("update run_cells set lease_expires_at = now() where run_id = $1", [run.id]);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(notices).toEqual([]);
    } finally {
      await unlisten();
    }
  });
});
