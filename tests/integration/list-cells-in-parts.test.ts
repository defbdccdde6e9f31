import { describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { listCells } from "@/lib/db/cells/list-cells";
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

  it("reads a run without cells as none", async () => {
    const run = await runToEnd(
      { db: test.db, providers },
      { userId: userA, input: { prompt: "nothing", rows: [], models: [{ provider: "mock", model: "echo" }] } },
    );
    expect(await asUser(test.db, userA, (tx) => listCells(tx, { runId: run.id }))).toEqual([]);
  });
});
