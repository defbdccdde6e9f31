import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRun } from "@/lib/engine/create-run";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, type TestDatabase, testBackends } from "../helpers/databases";

// A cell's id is a time-ordered UUID, version 7 (0025_time_ordered_cell_ids.sql): a run's cells go
// into the primary key's index at its right end instead of all over it. So are the ids of the
// other rows written one per cell or per row: a dataset's rows and the cache's answers.

const version7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(testBackends)("cell ids on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  const providers = createProviderRegistry([createMockProvider()]);

  beforeAll(async () => {
    test = await create();
  });
  afterAll(async () => {
    await test?.drop();
  });

  async function cellIdsOfNewRun(rows: number): Promise<string[]> {
    const run = await createRun(
      { db: test!.db, providers },
      {
        userId: userA,
        input: {
          prompt: "id {{n}}",
          rows: Array.from({ length: rows }, (_, n) => ({ n: String(n) })),
          models: [
            { provider: "mock", model: "echo" },
            { provider: "mock", model: "fast" },
          ],
        },
      },
    );
    const { rows: cells } = await test!.db.query<{ id: string }>("select id::text as id from run_cells where run_id = $1", [run.id]);
    return cells.map((cell) => cell.id);
  }

  it("are version 7 UUIDs of the time they were made, distinct, and later runs' sort after earlier ones'", async (context) => {
    if (!test) return context.skip();
    const before = Date.now();
    const first = await cellIdsOfNewRun(600);
    const after = Date.now();
    expect(first).toHaveLength(1200);
    expect(new Set(first).size).toBe(1200);
    for (const id of first) {
      expect(id).toMatch(version7);
      expect(z.uuid().safeParse(id).success).toBe(true);
      // the first 48 bits: the milliseconds it was made (the database's clock is this machine's)
      const made = parseInt(id.replaceAll("-", "").slice(0, 12), 16);
      expect(made).toBeGreaterThanOrEqual(before - 1_000);
      expect(made).toBeLessThanOrEqual(after + 1_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await cellIdsOfNewRun(3);
    const latestOfFirst = [...first].sort().at(-1)!;
    for (const id of second) expect(id > latestOfFirst).toBe(true);
  });

  it("are drawn once per statement and rise in the order of the run's grid, trials and columns included", async (context) => {
    if (!test) return context.skip();
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "grid {{n}}",
          rows: Array.from({ length: 40 }, (_, n) => ({ n: String(n) })),
          models: ["echo", "fast", "slow"].map((model) => ({ provider: "mock", model })),
          trials: 3,
          cache: false,
        },
      },
    );
    const { rows: cells } = await test.db.query<{ id: string }>(
      "select id::text as id from run_cells where run_id = $1 order by row_index, column_index, trial",
      [run.id],
    );
    const ids = cells.map((cell) => cell.id);
    expect(ids).toHaveLength(40 * 3 * 3);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(version7);
    // One statement's ids share their first 24 hex digits (0028) and end with the cell's number in it.
    expect(new Set(ids.map((id) => id.replaceAll("-", "").slice(0, 24))).size).toBe(1);
    expect(ids.map((id) => parseInt(id.replaceAll("-", "").slice(24), 16))).toEqual(ids.map((_, n) => n));
  });

  it("are also those of a run's inline rows", async (context) => {
    if (!test) return context.skip();
    const db = test.db;
    const before = (await cellIdsOfNewRun(5)).sort()[0];
    const { rows: datasetRows } = await db.query<{ id: string }>(
      "select d.id::text as id from dataset_rows d join runs r on r.dataset_id = d.dataset_id join run_cells c on c.run_id = r.id where c.id = $1",
      [before],
    );
    expect(datasetRows).toHaveLength(5);
    for (const row of datasetRows) expect(row.id).toMatch(version7);
  });

  it("of a dataset's rows are drawn once per statement too, rising in the rows' order, each row its caller's", async (context) => {
    if (!test) return context.skip();
    // 12,000 inline rows: stored 10,000 at a time, so in two statements
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "row {{n}}",
          rows: Array.from({ length: 12_000 }, (_, n) => ({ n: String(n) })),
          models: [{ provider: "mock", model: "echo" }],
          cache: false,
        },
      },
    );
    await run.planned;
    const { rows } = await test.db.query<{ id: string; user_id: string; row_index: number }>(
      "select d.id::text as id, d.user_id::text as user_id, d.row_index from dataset_rows d join runs r on r.dataset_id = d.dataset_id where r.id = $1 order by d.row_index",
      [run.id],
    );
    expect(rows).toHaveLength(12_000);
    expect(rows.every((row) => row.user_id === userA)).toBe(true);
    const ids = rows.map((row) => row.id.replaceAll("-", ""));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    expect(new Set(ids).size).toBe(12_000);
    // the first 10,000 rows share one statement's prefix, the last 2,000 another's, numbered from 0
    expect(new Set(ids.slice(0, 10_000).map((id) => id.slice(0, 24))).size).toBe(1);
    expect(new Set(ids.slice(10_000).map((id) => id.slice(0, 24))).size).toBe(1);
    expect(ids[10_000].slice(0, 24)).not.toBe(ids[0].slice(0, 24));
    expect(ids.map((id) => parseInt(id.slice(24), 16))).toEqual(rows.map((row) => row.row_index % 10_000));
    expect([...ids].sort()).toEqual(ids);
  });
});
