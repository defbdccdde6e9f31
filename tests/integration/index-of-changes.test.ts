import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, readAsUser } from "@/lib/db/as-user";
import type { Queryable } from "@/lib/db/database";
import { listCellChanges } from "@/lib/db/cells/list-cell-changes";
import { createRun } from "@/lib/engine/create-run";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { changeRunStatus } from "@/lib/services/runs";
import { userA, type TestDatabase, testBackends } from "../helpers/databases";

// The index of a run's changes, run_cells (run_id, seq), holds only cells that changed (seq > 0,
// 0029_seq_index_of_changed_cells.sql): the cells a large run adds behind its first ones take seq
// 0 and are never read as changes until they change, so inserting them into that index was a
// quarter of their index work for nothing. The reads of changes must still find them once they
// change, and must still use the index when planned without the cursor's value.

describe.each(testBackends)("the index of changes on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  const providers = createProviderRegistry([createMockProvider()]);

  beforeAll(async () => {
    test = await create();
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("leaves out a streamed run's unchanged cells, and every cell is read as a change once it changes", async (context) => {
    if (!test) return context.skip();
    const db = test.db;
    // 2,600 rows x 4 models: over one transaction's 10,000 cells, so the run is answered with its
    // first cells and the rest are added behind them at seq 0
    const run = await createRun(
      { db, providers },
      {
        userId: userA,
        input: {
          prompt: "Item {{n}}",
          rows: Array.from({ length: 2_600 }, (_, n) => ({ n: String(n) })),
          models: ["echo", "fast", "slow", "mock"].map((model) => ({ provider: "mock", model })),
          cache: false,
        },
      },
    );
    expect(run.planning).toBe(true);
    await run.planned;

    const { rows: counts } = await db.query<{ unchanged: number; all: number }>(
      "select count(*) filter (where seq = 0)::int as unchanged, count(*)::int as all from run_cells where run_id = $1",
      [run.id],
    );
    expect(counts[0].all).toBe(10_400);
    expect(counts[0].unchanged).toBeGreaterThan(8_000);
    const { rows: indexes } = await db.query<{ indexdef: string }>("select indexdef from pg_indexes where indexname = 'run_cells_seq_idx'");
    expect(indexes[0].indexdef).toMatch(/WHERE \(seq > 0\)$/);

    // Nothing changed after the answer: no cell is a change yet, streamed ones included.
    const before = await readAsUser(db, userA, (tx) => listCellChanges(tx, { runId: run.id, afterSeq: run.cursor, limit: 20_000 }));
    expect(before).toEqual([]);

    // The cancel changes every cell (each takes a new seq): each is read as a change, once.
    await changeRunStatus({ db }, { userId: userA, runId: run.id, action: "cancel" });
    const changes = await readAsUser(db, userA, (tx) => listCellChanges(tx, { runId: run.id, afterSeq: run.cursor, limit: 20_000 }));
    expect(changes).toHaveLength(10_400);
    expect(new Set(changes.map((cell) => cell.id)).size).toBe(10_400);
    expect(changes.every((cell) => cell.status === "cancelled" && cell.seq > run.cursor)).toBe(true);
    const seqs = changes.map((cell) => cell.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it("is the plan of the read of changes even when the cursor's value is not known to the planner", async (context) => {
    if (!test) return context.skip();
    // The statement readRunChanges sends, as a server would prepare it and may plan it: once for
    // any cursor (a generic plan), which can use a partial index only when the query itself says
    // seq > 0.
    const statements: string[] = [];
    const recorder: Queryable = {
      query: async (sql) => {
        statements.push(sql);
        return { rows: [], rowCount: 0 };
      },
    };
    await listCellChanges(recorder, { runId: "00000000-0000-4000-8000-000000000000", afterSeq: 0, limit: 10 });
    const read = statements.find((sql) => sql.includes("from run_cells"));
    if (!read) throw new Error("readRunChanges sent no read of run_cells");
    const plan = await asUser(test.db, userA, async (tx) => {
      await tx.query("set local plan_cache_mode = force_generic_plan");
      // the test's tables are small: a sequential scan would win either way
      await tx.query("set local enable_seqscan = off");
      await tx.query(`prepare read_changes as ${read}`);
      try {
        const { rows } = await tx.query<Record<string, string>>(
          "explain execute read_changes('00000000-0000-4000-8000-000000000000', 0, 10)",
        );
        return rows.map((row) => Object.values(row)[0]).join("\n");
      } finally {
        await tx.query("deallocate read_changes");
      }
    });
    expect(plan).toContain("run_cells_seq_idx");
  });
});
