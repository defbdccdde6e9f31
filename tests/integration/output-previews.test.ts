import { describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { listCellChanges } from "@/lib/db/cells/list-cell-changes";
import { getRun, getRunCell } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, userB } from "../helpers/databases";
import { pgliteEngine, runToEnd } from "../helpers/engine";

// A run read for the grid carries the start of each output (?outputChars=); a cell read alone
// carries all of it. Characters are counted as the grid counts them: by code point, so an emoji
// is one character and is never cut in half.
describe("output previews", () => {
  const providers = createProviderRegistry([createMockProvider()]);

  const test = pgliteEngine(providers);

  it("cuts long outputs to the characters asked for, says so, and gives the whole of one cell on request", async () => {
    const long = `${"🌊 tides rise and fall, ".repeat(30)}END`;
    const run = await runToEnd(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "{{text}}",
          rows: [{ text: long }, { text: "short" }],
          models: [{ provider: "mock", model: "echo", params: { latencyMs: 0 } }],
        },
      },
    );
    const whole = await getRun({ db: test.db }, { userId: userA, runId: run.id });
    const [longCell, shortCell] = whole.cells.sort((a, b) => a.row - b.row);
    expect(longCell.output).toContain("END");
    expect(longCell.outputTruncated).toBe(false);

    const preview = await getRun({ db: test.db }, { userId: userA, runId: run.id, outputChars: 201 });
    const [longPreview, shortPreview] = preview.cells.sort((a, b) => a.row - b.row);
    expect(longPreview.outputTruncated).toBe(true);
    expect(Array.from(longPreview.output!)).toHaveLength(201);
    expect(longCell.output!.startsWith(longPreview.output!)).toBe(true);
    expect(longPreview.output).not.toMatch(/[\uD800-\uDBFF]$/);
    // an output that fits is whole, and not marked
    expect(shortPreview).toMatchObject({ output: shortCell.output, outputTruncated: false });
    // everything else about the cell is as it was
    expect({ ...longPreview, output: null, outputParsed: null, outputTruncated: null }).toEqual({
      ...longCell,
      output: null,
      outputParsed: null,
      outputTruncated: null,
    });

    // 0 characters: no text, still the status and numbers, and marked cut
    const bare = await getRun({ db: test.db }, { userId: userA, runId: run.id, outputChars: 0 });
    const [longBare, shortBare] = bare.cells.sort((a, b) => a.row - b.row);
    expect(longBare).toMatchObject({ output: "", outputTruncated: true, status: longCell.status, tokensOut: longCell.tokensOut });
    expect(shortBare).toMatchObject({ output: "", outputTruncated: true });

    // the event stream's reader cuts the same way
    const changes = await asUser(test.db, userA, (tx) => listCellChanges(tx, { runId: run.id, afterSeq: 0, outputChars: 201 }));
    expect(changes.find((cell) => cell.id === longCell.id)).toMatchObject({ output: longPreview.output, outputTruncated: true });

    // one cell, in full, for its owner only
    await expect(getRunCell({ db: test.db }, { userId: userA, runId: run.id, cellId: longCell.id })).resolves.toMatchObject({
      output: longCell.output,
      outputTruncated: false,
    });
    await expect(getRunCell({ db: test.db }, { userId: userB, runId: run.id, cellId: longCell.id })).rejects.toThrow(/not found/);
  });
});
