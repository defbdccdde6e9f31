import { describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { getWorkbenchState } from "@/lib/db/workbench/workbench-state";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { seedExamples } from "@/lib/services/seed";
import { pgliteEngine, runToEnd } from "../helpers/engine";

// Issue 10, item 18: the example a first visit opens grades something. Run as the page runs it
// (the seeded prompt, dataset, grader and columns) with the mock models, its grades differ by row,
// and a second mock column's answers get grades of their own.

describe("the seeded example", () => {
  const providers = createProviderRegistry([createMockProvider()]);
  const test = pgliteEngine(providers);
  const newcomer = "00000000-0000-4000-8000-0000000000e1";

  it("opens with its grader chosen, and its first run shows a spread of grades", async () => {
    expect((await seedExamples(test, { userId: newcomer })).seeded).toBe(true);
    const setup = await asUser(test.db, newcomer, (tx) => getWorkbenchState(tx));
    expect(setup.graderPromptId).not.toBeNull();
    expect(setup.columns).toEqual([expect.objectContaining({ provider: "mock", model: "echo" })]);

    const columns = [...setup.columns, { provider: "mock", model: "fast", params: {} }];
    const run = await runToEnd(
      { db: test.db, providers },
      {
        userId: newcomer,
        input: {
          promptId: setup.activePromptId!,
          datasetId: setup.datasetId!,
          graderPromptId: setup.graderPromptId!,
          models: columns,
        },
      },
    );
    expect(run.cells).toHaveLength(10);
    for (const cell of run.cells) {
      expect(cell, `row ${cell.row}, column ${cell.column}`).toMatchObject({ status: "ok", graderStatus: "ok" });
      // The answer's parsed part names the row's topic: the grader grades something.
      expect(cell.outputParsed).toMatch(/\S/);
    }
    const gradesOf = (column: number) =>
      run.cells
        .filter((cell) => cell.column === column)
        .sort((a, b) => a.row - b.row)
        .map((cell) => cell.grade);
    // The seeded column alone: more than one grade among its five rows.
    expect(new Set(gradesOf(0)).size, `grades ${gradesOf(0).join(", ")}`).toBeGreaterThan(1);
    // Another model's answers to the same rows are graded differently.
    expect(gradesOf(1)).not.toEqual(gradesOf(0));
  });
});
