import { describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { ProviderError } from "@/lib/providers/provider-error";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { userA, waitFor } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

// A judge that grades by what the generator wrote: the mock echoes its input, so the row's
// marker word reaches the judge through {{output}}.
const judgeCalls: string[] = [];
const judge: TextProvider = {
  id: "judge",
  kind: "text",
  listModels: async () => [],
  async generate({ prompt }) {
    judgeCalls.push(prompt);
    if (prompt.includes("CRASH")) throw new ProviderError({ code: "server", statusCode: 500, message: "judge is down", retryable: false });
    const text = prompt.includes("GOOD")
      ? "<thinking>It covers the topic.</thinking><response>0.9</response>"
      : prompt.includes("BAD")
        ? "<response>fail</response>"
        : "<response>I cannot tell.</response>";
    return { text, tokensIn: 100, tokensOut: 10, tokensEstimated: false, finishReason: "stop", warnings: [] };
  },
};

describe("graders", () => {
  const generatorCalls: string[] = [];
  const providers = createProviderRegistry([createMockProvider({ onCall: ({ prompt }) => generatorCalls.push(prompt) }), judge]);

  const test = pgliteEngine(providers);

  it("grades each answer with the row's variables and {{output}}, and records what the judge could not grade", async () => {
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          // the mock echoes its input, so its answer's <response> holds "<topic> essay"
          prompt: "Write about {{topic}}. Answer inside <response>{{topic}} essay</response>.",
          rows: ["GOOD", "BAD", "CRASH", "MEH"].map((topic) => ({ topic })),
          models: [
            { provider: "mock", model: "fast" },
            { provider: "mock", model: "malformed", params: { latencyMs: 0 } },
          ],
          grader: "Grade this text about {{topic}}: {{output}}. Answer with a grade in <response></response>.",
          graderModel: { provider: "judge", model: "strict" },
          cache: false,
        },
      },
    );
    const done = await waitFor(async () => {
      const current = await getRun({ db: test.db }, { userId: userA, runId: run.id });
      return current.status === "completed" ? current : null;
    });
    const cell = (row: number, column: number) => done.cells.find((c) => c.row === row && c.column === column)!;

    expect(cell(0, 0)).toMatchObject({ status: "ok", graderStatus: "ok", grade: 0.9 });
    expect(cell(0, 0).graderOutput).toContain("<thinking>");
    expect(cell(1, 0)).toMatchObject({ status: "ok", graderStatus: "ok", grade: 0 });
    // a grader failure is recorded on the cell; the generator's answer stands and is not re-run
    expect(cell(2, 0)).toMatchObject({ status: "ok", graderStatus: "error", grade: null });
    expect(cell(2, 0).graderError).toContain("judge is down");
    expect(generatorCalls.filter((prompt) => prompt.startsWith("Write about CRASH."))).toHaveLength(2); // one per column
    expect(cell(3, 0)).toMatchObject({ graderStatus: "malformed", grade: null });
    expect(cell(3, 0).graderError).toMatch(/No grade/);
    // malformed answers count as 0 without asking the judge
    for (let row = 0; row < 4; row++) expect(cell(row, 1)).toMatchObject({ status: "malformed", grade: 0, graderStatus: null });
    expect(judgeCalls).toHaveLength(4);
    // the judge saw the row's variable and the parsed part of the generator's answer
    expect(judgeCalls).toContain("Grade this text about GOOD: GOOD essay. Answer with a grade in <response></response>.");
  });
});
