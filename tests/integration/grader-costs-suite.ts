import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import type { RunSummary } from "@/lib/api/types";
import { asUser } from "@/lib/db/as-user";
import { getRunSummary } from "@/lib/db/runs/get-run-summary";
import { listPromptRuns } from "@/lib/db/runs/list-prompt-runs";
import { createRun, estimateRun } from "@/lib/engine/create-run";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import { userA, userB, waitFor, type TestDatabase } from "../helpers/databases";

// A priced judge: 100 tokens in and 10 out per call, at $1000 and $2000 per million: $0.12 a call.
const judgePrice = { input: 1000, output: 2000 };
const perGrade = (100 * judgePrice.input + 10 * judgePrice.output) / 1e6;

/** Grader costs, the grading model and grade averages, run against one kind of database (the claim function decides the budget). */
export function describeGraderCosts(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`grader costs and grades on ${label}`, () => {
    let test: TestDatabase | null = null;
    let worker: Worker | null = null;
    const calls: Array<{ provider: string; model: string; prompt: string }> = [];
    const judge: TextProvider = {
      id: "judge",
      kind: "text",
      listModels: async () => [],
      async generate({ model, prompt }) {
        calls.push({ provider: "judge", model, prompt });
        return {
          text: "<response>0.5</response>",
          tokensIn: 100,
          tokensOut: 10,
          tokensEstimated: false,
          finishReason: "stop",
          warnings: [],
        };
      },
    };
    const mock = createMockProvider({ onCall: ({ model, prompt }) => calls.push({ provider: "mock", model, prompt }) });
    const providers = createProviderRegistry([mock, judge]);

    beforeAll(async () => {
      test = await create();
      if (!test) return;
      worker = await startWorker({ db: test.db, providers, pollMs: 20 });
      for (const userId of [userA, userB]) {
        await asUser(test.db, userId, (tx) =>
          tx.query("insert into pricing (provider, model, input_per_mtok, output_per_mtok) values ('judge', 'strict', $1, $2)", [
            judgePrice.input,
            judgePrice.output,
          ]),
        );
      }
    });
    afterAll(async () => {
      await worker?.stop();
      await test?.drop();
    });

    const summaryOf = (userId: string, id: string) => asUser(test!.db, userId, (tx) => getRunSummary(tx, { id }));
    const finish = (userId: string, id: string) =>
      waitFor(
        async () => {
          const summary = await summaryOf(userId, id);
          return summary && summary.status === "completed" ? summary : null;
        },
        { timeoutMs: 60_000, what: `run ${id} to complete` },
      );
    const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ n: `${tag}-${i}` }));

    it("counts the grader's calls in what a run spent and in its budget, and plans them", async (context) => {
      if (!test) return context.skip();
      const input: CreateRunInput = {
        prompt: "Answer {{n}}",
        rows: rows(30, "b"),
        // the generator is free (the mock's reference price); every cent is the grader's
        models: [{ provider: "mock", model: "fast" }],
        grader: "Grade {{output}} in <response></response>.",
        graderModel: { provider: "judge", model: "strict" },
        concurrency: 2,
        cache: false,
      };
      const plan = await estimateRun({ db: test.db, providers }, { userId: userA, input });
      expect(plan.models[0].graderModel).toEqual({ provider: "judge", model: "strict" });
      // the grader's output is unknown before its first run: its input is the floor, and the total says so
      expect(plan.models[0].graderLowerBoundUsd).toBeGreaterThan(0);
      expect(plan.totalCostUsd).toBeCloseTo(plan.models[0].graderLowerBoundUsd!, 10);
      expect(plan.totalIsLowerBound).toBe(true);

      const budget = perGrade * 5.5;
      const run = await createRun({ db: test.db, providers }, { userId: userA, input: { ...input, budgetUsd: budget } });
      const done = await finish(userA, run.id);
      expect(done.counts.skipped).toBeGreaterThan(0);
      expect(done.counts.ok).toBeGreaterThanOrEqual(5);
      // within one in-flight batch of the cap, counting the grader
      expect(done.spentUsd).toBeGreaterThanOrEqual(perGrade * 5 - 1e-9);
      expect(done.spentUsd).toBeLessThanOrEqual(budget + 2 * perGrade + 1e-9);
      expect(done.spentUsd).toBeCloseTo(done.counts.ok * perGrade, 9);
      expect(done).toMatchObject({ generatorSpentUsd: 0, graderModel: { provider: "judge", model: "strict" } });
      expect(done.graderSpentUsd).toBeCloseTo(done.spentUsd, 9);

      // a second run has the grader's history: the plan knows its output, and counts it whole
      const second = await estimateRun({ db: test.db, providers }, { userId: userA, input: { ...input, rows: rows(10, "c") } });
      const grading = second.models[0];
      expect(grading.graderOutputTokens).toBe(10 * 10);
      expect(grading.graderInputTokens).toBeGreaterThan(0);
      const graderCost = (grading.graderInputTokens! * judgePrice.input + 100 * judgePrice.output) / 1e6;
      expect(grading.graderCostUsd).toBeCloseTo(graderCost, 9);
      expect(second.totalCostUsd).toBeCloseTo(graderCost, 9);
      expect(grading.costPerCellUsd).toBeCloseTo(graderCost / 10, 9);
      expect(second.totalIsLowerBound).toBe(false);
    });

    it("grades every column with the first column's model unless a grading model is given", async (context) => {
      if (!test) return context.skip();
      calls.length = 0;
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userB,
          input: {
            prompt: "Say {{n}}",
            rows: rows(3, "g"),
            models: [
              { provider: "judge", model: "strict" },
              { provider: "mock", model: "fast" },
            ],
            grader: "Judge {{output}} in <response></response>.",
            cache: false,
          },
        },
      );
      const done: RunSummary = await finish(userB, run.id);
      expect(done.graderModel).toEqual({ provider: "judge", model: "strict" });
      const gradings = calls.filter((call) => call.prompt.startsWith("Judge "));
      expect(gradings).toHaveLength(6);
      for (const call of gradings) expect(call).toMatchObject({ provider: "judge", model: "strict" });
      // the mock's column was graded by the judge, and paid for: 3 generator calls and 6 grades
      expect(done.graderSpentUsd).toBeCloseTo(6 * perGrade, 9);
      expect(done.generatorSpentUsd).toBeCloseTo(3 * perGrade, 9);
    });

    it("averages grades in the history as the grid does: a malformed cell without a hand grade counts as 0", async (context) => {
      if (!test) return context.skip();
      const promptId = await asUser(test.db, userA, async (tx) => {
        const { rows: inserted } = await tx.query<{ id: string }>(
          "insert into prompts (name, text) values ('history', 'Echo {{n}} inside <response>{{n}}</response>.') returning id",
        );
        return inserted[0].id;
      });
      const run = await createRun(
        { db: test.db, providers },
        {
          userId: userA,
          input: {
            promptId,
            rows: rows(5, "h"),
            models: [
              { provider: "mock", model: "fast" },
              { provider: "mock", model: "malformed", params: { latencyMs: 0 } },
            ],
            cache: false,
          },
        },
      );
      await finish(userA, run.id);
      // one hand grade in each column: a pass
      await asUser(test.db, userA, (tx) => tx.query("update run_cells set manual_grade = 1 where run_id = $1 and row_index = 0", [run.id]));
      const [entry] = await asUser(test.db, userA, (tx) => listPromptRuns(tx, { promptId }));
      const [fast, malformed] = entry.models;
      expect(fast).toMatchObject({ averageGrade: 1, gradedCells: 1 });
      // the grid's 0.20: one pass and four malformed zeros
      expect(malformed.gradedCells).toBe(5);
      expect(malformed.averageGrade).toBeCloseTo(0.2, 10);
      expect(entry).toMatchObject({ graderName: null, graderModel: null });
    });
  });
}
