import { describe, expect, it } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import type { Cell } from "@/lib/api/types";
import { asUser } from "@/lib/db/as-user";
import { findCachedResponses } from "@/lib/db/cache/response-cache";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { ProviderError } from "@/lib/providers/provider-error";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { getRun, rerunCell } from "@/lib/services/runs";
import { userA, userB, waitFor, type TestDatabase } from "../helpers/databases";
import { engineOn, runToEnd } from "../helpers/engine";

// A cache row names the cell that holds its answer instead of copying it
// (supabase/migrations/0022_smaller_cells.sql). What a copy guaranteed must still hold: a
// later run is answered with the same text, asking a cell again or deleting its run does not take
// the cached answer away, and another user's row naming the cell never reads its answer.

/** The mock provider, which fails every call (not retryable) while `broken` is set. */
function breakableMock(): { provider: TextProvider; broken: { value: boolean } } {
  const mock = createMockProvider();
  const broken = { value: false };
  return {
    broken,
    provider: {
      ...mock,
      async generate(request) {
        if (broken.value) throw new ProviderError({ code: "bad_request", statusCode: 400, message: "refused on purpose" });
        return mock.generate(request);
      },
    },
  };
}

interface CacheRow {
  cell_id: string | null;
  output_raw: string | null;
}

export function describeCacheNamesCell(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`the response cache names the cell on ${label}`, () => {
    const { provider, broken } = breakableMock();
    const providers = createProviderRegistry([provider]);
    const engine = engineOn(create, providers);

    // a long topic makes a long answer, which is stored packed (0022_smaller_cells.sql)
    const long = (topic: string) => `${topic}: ${"what the sea does each day, and why it matters to those who live by it. ".repeat(12)}`;
    const input = (topic: string): CreateRunInput => ({
      prompt: "Tell me about {{topic}}",
      rows: [{ topic }],
      models: [{ provider: "mock", model: "echo", params: { latencyMs: 0 } }],
      cache: true,
    });
    const cacheRows = async (userId: string) =>
      (
        await engine.db!.query<CacheRow & { cache_key: string; packed: boolean }>(
          "select encode(cache_key, 'hex') as cache_key, cell_id, output_raw, output_z is not null as packed from response_cache where user_id = $1 order by created_at",
          [userId],
        )
      ).rows;
    const rowOfCell = async (cellId: string) => (await cacheRows(userA)).find((r) => r.cell_id === cellId)!;
    const rowOfKey = async (key: string) => (await cacheRows(userA)).filter((r) => r.cache_key === key);
    // what a cache hit reports of the call that made the answer (0026: read from the cell, or from
    // the row's own copy once the cell was asked again or deleted)
    const theCall = (cell: Cell) => ({
      tokensIn: cell.tokensIn,
      tokensOut: cell.tokensOut,
      tokensEstimated: cell.tokensEstimated,
      latencyMs: cell.latencyMs,
      finishReason: cell.finishReason,
    });

    it("stores no copy of a fresh answer, and answers the next run from the cell", async (context) => {
      const db = engine.db;
      if (!db) return context.skip();
      const first = await runToEnd({ db, providers }, { userId: userA, input: input("tides") });
      const [cell] = first.cells;
      expect(cell.output).toContain("Tell me about tides");
      const [row] = (await cacheRows(userA)).filter((r) => r.cell_id === cell.id);
      expect(row).toMatchObject({ cell_id: cell.id, output_raw: null });

      const again = await runToEnd({ db, providers }, { userId: userA, input: input("tides") });
      expect(again.cells[0]).toMatchObject({ cached: true, output: cell.output, ...theCall(cell) });
    });

    it("keeps the cached answer when its cell is asked again and the new attempt fails", async (context) => {
      const db = engine.db;
      if (!db) return context.skip();
      const first = await runToEnd({ db, providers }, { userId: userA, input: input(long("storms")) });
      const [cell] = first.cells;
      const { cache_key: key } = await rowOfCell(cell.id);
      broken.value = true;
      try {
        await rerunCell({ db }, { userId: userA, runId: first.id, cellId: cell.id });
        const failed = await waitFor(async () => {
          const run = await getRun({ db: engine.db! }, { userId: userA, runId: first.id });
          return run.status === "completed" || run.status === "failed" ? run : null;
        });
        expect(failed.cells[0]).toMatchObject({ status: "error", output: null });
      } finally {
        broken.value = false;
      }
      // the row keeps its own copy, packed as the cell had it
      expect(await rowOfKey(key)).toEqual([expect.objectContaining({ cell_id: null, output_raw: null, packed: true })]);

      const again = await runToEnd({ db, providers }, { userId: userA, input: input(long("storms")) });
      // with the first call's tokens and latency, which the row copied from the cell with its answer
      expect(again.cells[0]).toMatchObject({ cached: true, output: cell.output, ...theCall(cell) });
    });

    it("points the row at the cell again when the cell is asked again and answers", async (context) => {
      const db = engine.db;
      if (!db) return context.skip();
      const first = await runToEnd({ db, providers }, { userId: userA, input: input("fog") });
      const [cell] = first.cells;
      await rerunCell({ db }, { userId: userA, runId: first.id, cellId: cell.id });
      await waitFor(async () => {
        const run = await getRun({ db: engine.db! }, { userId: userA, runId: first.id });
        return run.status === "completed" && run.cells[0].attempts > 0 && !run.cells[0].cached ? run : null;
      });
      const rows = (await cacheRows(userA)).filter((r) => r.cell_id === cell.id || r.output_raw === cell.output);
      expect(rows).toEqual([expect.objectContaining({ cell_id: cell.id, output_raw: null })]);
    });

    it("keeps the answers of a deleted run in the cache, short and packed", async (context) => {
      const db = engine.db;
      if (!db) return context.skip();
      const first = await runToEnd({ db, providers }, { userId: userA, input: input("snow") });
      const second = await runToEnd({ db, providers }, { userId: userA, input: input(long("sleet")) });
      const keys = [(await rowOfCell(first.cells[0].id)).cache_key, (await rowOfCell(second.cells[0].id)).cache_key];
      await asUser(db, userA, (tx) => tx.query("delete from runs where id = any($1::uuid[])", [[first.id, second.id]]));
      expect((await db.query("select 1 from run_cells where run_id = any($1::uuid[])", [[first.id, second.id]])).rowCount).toBe(0);
      expect(await rowOfKey(keys[0])).toEqual([
        expect.objectContaining({ cell_id: null, output_raw: first.cells[0].output, packed: false }),
      ]);
      expect(await rowOfKey(keys[1])).toEqual([expect.objectContaining({ cell_id: null, output_raw: null, packed: true })]);

      for (const [topic, before] of [
        ["snow", first],
        [long("sleet"), second],
      ] as const) {
        const again = await runToEnd({ db, providers }, { userId: userA, input: input(topic) });
        expect(again.cells[0]).toMatchObject({ cached: true, output: before.cells[0].output, ...theCall(before.cells[0]) });
      }
    });

    it("never gives another user's cell to a row that names it, on a lookup or when the cell is deleted", async (context) => {
      const db = engine.db;
      if (!db) return context.skip();
      const first = await runToEnd({ db, providers }, { userId: userA, input: input("hail") });
      const [cell] = first.cells;
      const [owned] = (await cacheRows(userA)).filter((r) => r.cell_id === cell.id);

      // userB writes a row of their own (RLS allows it) under userA's key, naming userA's cell
      await asUser(db, userB, (tx) =>
        tx.query("insert into response_cache (cache_key, cell_id) values (parallaxr_cache_key($1), $2)", [owned.cache_key, cell.id]),
      );
      const looked = await findCachedResponses(db, { userId: userB, keys: [owned.cache_key] });
      expect(looked.size).toBe(0);

      await asUser(db, userA, (tx) => tx.query("delete from runs where id = $1", [first.id]));
      const theirs = await cacheRows(userB);
      expect(theirs.filter((r) => r.output_raw === cell.output)).toEqual([]);
      expect(theirs.filter((r) => r.cell_id === cell.id)).toEqual([]);
      // userA's own row kept the answer
      expect((await cacheRows(userA)).filter((r) => r.output_raw === cell.output)).toHaveLength(1);
    });
  });
}
