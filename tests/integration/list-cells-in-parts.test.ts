import { describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { NO_PRICE } from "@/lib/db/cells/column-warnings";
import { listCells } from "@/lib/db/cells/list-cells";
import { getRun } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA } from "../helpers/databases";
import { pgliteEngine, runToEnd } from "../helpers/engine";

// A run's cells are read a range of rows per statement, so that PGlite's memory (which never
// shrinks) grows by one part's worth rather than the whole run's. Read in parts of any size, the
// cells are the same, each once, in grid order: row, then column, then trial.
describe("a run's cells read in parts", () => {
  const providers = createProviderRegistry([createMockProvider()]);
  const test = pgliteEngine(providers);

  it("gives every cell once, in grid order, whatever the size of a part", async () => {
    const run = await runToEnd(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "say {{word}}",
          rows: Array.from({ length: 7 }, (_, i) => ({ word: `w${i}` })),
          models: [
            { provider: "mock", model: "echo", params: { latencyMs: 0 } },
            { provider: "mock", model: "fast", params: { latencyMs: 0 } },
            { provider: "mock", model: "echo", params: { latencyMs: 0, temperature: 0.5 } },
          ],
          trials: 2,
        },
      },
    );
    const read = (cellsPerRead: number) => asUser(test.db, userA, (tx) => listCells(tx, { runId: run.id, outputChars: 40, cellsPerRead }));
    const whole = await read(1_000_000);
    expect(whole).toHaveLength(7 * 3 * 2);
    const order = whole.map((cell) => [cell.row, cell.column, cell.trial]);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]));
    expect(new Set(whole.map((cell) => cell.id)).size).toBe(whole.length);
    // 1 cell a part rounds up to one row (6 cells); 7, 13 and 36 cut between rows and leave a short last part
    for (const cellsPerRead of [1, 7, 13, 36]) expect(await read(cellsPerRead)).toEqual(whole);
  });

  it("gives a run's answer the same cells from what its summary says of them", async () => {
    const run = await runToEnd(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "say {{word}}",
          rows: Array.from({ length: 5 }, (_, i) => ({ word: `w${i}` })),
          models: [
            { provider: "mock", model: "echo", params: { latencyMs: 0 } },
            { provider: "mock", model: "fast", params: { latencyMs: 0 } },
          ],
          trials: 3,
        },
      },
    );
    // stored as a model without a price has it: a code getRun spells out with the models its
    // summary read, where listCells reads the run's columns
    await test.db.query("update run_cells set warnings = $2::jsonb where run_id = $1 and column_index = 1", [
      run.id,
      JSON.stringify([NO_PRICE]),
    ]);
    const read = await getRun({ db: test.db }, { userId: userA, runId: run.id, outputChars: 40 });
    const listed = await asUser(test.db, userA, (tx) => listCells(tx, { runId: run.id, outputChars: 40 }));
    expect(read.cells).toHaveLength(5 * 2 * 3);
    expect(read.cells).toEqual(listed);
    expect(read.cells.find((cell) => cell.column === 1)?.warnings).toEqual([
      "No price for mock/fast: the cost is unknown (not 0). Set one in Settings -> Prices.",
    ]);
  });

  it("reads a run without cells as none", async () => {
    const run = await runToEnd(
      { db: test.db, providers },
      { userId: userA, input: { prompt: "nothing", rows: [], models: [{ provider: "mock", model: "echo" }] } },
    );
    expect(await asUser(test.db, userA, (tx) => listCells(tx, { runId: run.id }))).toEqual([]);
  });
});
