import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMatrixSchema, type MatrixDetail } from "@/lib/api/matrix";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createMatrix, getMatrix, matrixComparison, matrixSummaryFile, matrixZip } from "@/lib/services/matrix";
import { referencePrice } from "@/lib/providers/pricing-reference";
import { userA, waitFor, type TestDatabase } from "../helpers/databases";
import { readJsonFixture, TEST_API_KEY } from "../helpers/vendor-server";

/**
 * A local server speaking Groq's chat completions (OpenAI's wire format). A generator's answer
 * repeats the start of its prompt; a grader's prompt (it starts with "Grade:") is answered 1 for
 * an answer of v2's prompt ("Key points"), except on in-09 and in-10, and for v1's on in-01 and
 * in-02 only, else 0. So v1 passes 2 of 10 inputs and v2 8 of 10, v2 alone on 6: the unit
 * tests' first case, worked by hand.
 */
async function startGradingServer(): Promise<{ baseURL: string; calls: Array<{ model: string; prompt: string }>; close(): Promise<void> }> {
  const calls: Array<{ model: string; prompt: string }> = [];
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", () => {
      const body = JSON.parse(raw) as { model: string; messages: Array<{ role: string; content: string }> };
      const prompt = body.messages.find((message) => message.role === "user")?.content ?? "";
      calls.push({ model: body.model, prompt });
      const completion = readJsonFixture("groq", "chat-completion.json");
      completion.model = body.model;
      let content = `${body.model} says: ${prompt.slice(0, 30)}`;
      if (prompt.startsWith("Grade:")) {
        const input = /^Grade: (in-\d\d)/.exec(prompt)?.[1] ?? "";
        const v2 = prompt.includes("Key points");
        content = (v2 ? !["in-09", "in-10"].includes(input) : ["in-01", "in-02"].includes(input)) ? "1" : "0";
      }
      completion.choices[0].message.content = content;
      completion.usage.prompt_tokens = 200;
      completion.usage.completion_tokens = 20;
      completion.usage.total_tokens = 220;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(completion));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const INPUTS = Array.from({ length: 10 }, (_, index) => {
  const id = `in-${String(index + 1).padStart(2, "0")}`;
  return { id, text: `# Talk ${index + 1}\n\nA talk about topic ${index + 1}.` };
});
const GRADER = "Grade: {{input_id}}\n\n{{output}}\n\nAnswer 1 for a good summary, else 0.";

const PROMPTS = [
  { version: "v1", fileName: "v1.txt", text: "Summarize {{input_id}}:\n\n{{input}}" },
  { version: "v2", fileName: "v2.txt", text: "Key points of {{input_id}}:\n\n{{input}}" },
];

/** A matrix graded by a grader on the engine, its comparisons' grades and paired difference, run against one kind of database. */
export function describeMatrixGrades(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`matrix grades in comparisons on ${label}`, () => {
    let test: TestDatabase | null = null;
    let worker: Worker | null = null;
    let groq: Awaited<ReturnType<typeof startGradingServer>>;
    beforeAll(async () => {
      test = await create();
      groq = await startGradingServer();
      if (!test) return;
      const providers = createProviderRegistry([createMockProvider()], {
        factories: { groq: providerFactories.groq },
        credentials: async () => ({ apiKey: TEST_API_KEY, baseURL: groq.baseURL, allowPrivateAddresses: true }),
      });
      worker = await startWorker({ db: test.db, providers, pollMs: 20 });
    });
    afterAll(async () => {
      await worker?.stop();
      await test?.drop();
      await groq.close();
    });

    it("grades 2 versions x 10 inputs through the grader and writes each grade and the paired difference into the comparisons", async (context) => {
      if (!test) return context.skip();
      const { db } = test;
      const input = createMatrixSchema.parse({
        prompts: PROMPTS,
        models: ["llama-3.3-70b"],
        inputs: INPUTS,
        cache: false,
        grader: { text: GRADER, model: "llama-3.1-8b" },
      });
      const created = await createMatrix({ db }, { userId: userA, input });
      if (!("matrix" in created)) throw new Error("expected a run");
      const matrixId = created.matrix.id;
      const detail: MatrixDetail = await waitFor(
        async () => {
          const found = await getMatrix({ db }, { userId: userA, matrixId });
          return found.matrix.status === "completed" ? found : null;
        },
        { timeoutMs: 60_000, what: "the graded matrix to complete" },
      );
      expect(detail.evals).toHaveLength(20);
      // Every output went to the grader's model once, with its input id and the answer as {{output}}.
      const grading = groq.calls.filter((call) => call.prompt.startsWith("Grade:"));
      expect(grading).toHaveLength(20);
      expect(new Set(grading.map((call) => call.model))).toEqual(new Set(["llama-3.1-8b-instant"]));
      const grades = Object.fromEntries(detail.evals.map((one) => [`${one.prompt} ${one.input}`, one.grade]));
      expect(grades["v1 in-01"]).toBe(1);
      expect(grades["v1 in-03"]).toBe(0);
      expect(grades["v2 in-08"]).toBe(1);
      expect(grades["v2 in-09"]).toBe(0);

      // The prompt comparison of in-01: each eval's grade under its duration, the paired difference under the facts.
      const folder = detail.comparisons.find((name) => name.includes("_prompt_in-01_"))!;
      const { text } = await matrixComparison({ db }, { userId: userA, matrixId, name: folder });
      expect(text).toContain(
        "**Compared**: v1, v2\n**Pass rate, v2 vs v1**: 80% vs 20% over 10 paired inputs; difference +60.0 points, 95% CI +16.2 points to +80.3 points; McNemar p = 0.0313; v2 higher\n",
      );
      const sections = text.split("\n---\n").slice(2);
      expect(sections).toHaveLength(2);
      expect(sections[0]).toMatch(
        /^\n## Version v1\n\n\*\*Tokens\*\*: 200 input \/ 20 output\n\*\*Cost\*\*: \$\d\.\d{4}\n\*\*Duration\*\*: \d+\.\ds\n\*\*Grade\*\*: 1\.00\n\n/,
      );
      expect(sections[1]).toContain("\n**Grade**: 1.00\n");
      const in03 = await matrixComparison({ db }, { userId: userA, matrixId, name: folder.replace("in-01", "in-03") });
      expect(in03.text.split("\n---\n")[2]).toContain("\n**Grade**: 0.00\n");
      // Every input's comparison of v2 against v1 on this model gives the same pairing over all ten inputs.
      expect(in03.text).toContain("**Pass rate, v2 vs v1**: 80% vs 20% over 10 paired inputs;");

      // summary.json: the spec's keys, then the batch's grading; the run files carry their grade.
      const summary = JSON.parse((await matrixSummaryFile({ db }, { userId: userA, matrixId })).text);
      expect(Object.keys(summary).slice(0, 11)).toEqual([
        "batch_id",
        "timestamp",
        "total_runs",
        "successful_runs",
        "failed_runs",
        "total_tokens_input",
        "total_tokens_output",
        "total_cost_usd",
        "duration_seconds",
        "config",
        "runs",
      ]);
      expect(summary.grading).toEqual({ by: "grader", graded_runs: 20, ungraded_runs: 0, mean_grade: 0.5 });
      const zip = unzipSync((await matrixZip({ db }, { userId: userA, matrixId })).bytes);
      const runFiles = Object.keys(zip).filter((name) => name.startsWith("runs/"));
      expect(runFiles).toHaveLength(20);
      const v1In01 = runFiles
        .map((name) => JSON.parse(strFromU8(zip[name])))
        .find((run) => run.prompt.version === "v1" && run.input.id === "in-01");
      expect(v1In01.grading).toEqual({ by: "grader", grade: 1, error: null });
      expect(strFromU8(zip[`comparisons/${folder}/comparison.md`])).toBe(text);
    });

    it("reserves the grader's call with each eval in the budget: a budget that covers an eval but not its grading starts none", async (context) => {
      if (!test) return context.skip();
      const { db } = test;
      const calls = groq.calls.length;
      const input = createMatrixSchema.parse({
        prompts: [PROMPTS[0]],
        models: ["llama-3.3-70b"],
        inputs: INPUTS.slice(0, 2),
        cache: false,
        grader: { text: GRADER, model: "llama-3.1-8b" },
      });
      const dry = await createMatrix({ db }, { userId: userA, input: { ...input, dryRun: true } });
      if (!("plan" in dry)) throw new Error("expected a plan");
      const perEval = dry.plan.estimate.models[0].costUsd! / dry.plan.estimate.models[0].evals;
      // The grader's call by hand: its template (no {{input}}) as characters / 4, plus the eval's
      // 1,000 estimated output tokens read as {{output}}, in; 1,000 out; at llama-3.1-8b-instant's price.
      const price = referencePrice("groq", "llama-3.1-8b-instant")!;
      const grading = ((Math.floor(GRADER.length / 4) + 1_000) * price.inputPerMTok! + 1_000 * price.outputPerMTok!) / 1e6;
      expect(grading).toBeGreaterThan(0);
      const created = await createMatrix({ db }, { userId: userA, input: { ...input, budgetUsd: perEval + grading / 2 } });
      if (!("matrix" in created)) throw new Error("expected a run");
      const detail = await waitFor(
        async () => {
          const found = await getMatrix({ db }, { userId: userA, matrixId: created.matrix.id });
          return found.matrix.status === "completed" ? found : null;
        },
        { timeoutMs: 30_000, what: "the matrix over budget to finish" },
      );
      // Counting the eval alone, one would have started; with its grading, none may.
      expect(detail.evals.map((one) => one.status)).toEqual(["skipped", "skipped"]);
      expect(detail.evals[0].error).toContain(`about $${(perEval + grading).toFixed(6)} a cell`);
      expect(groq.calls.length).toBe(calls);
    });

    it("scores by metrics with a keyless mock judge, and pairs the pass rate and each metric's mean score in the comparisons", async (context) => {
      if (!test) return context.skip();
      const { db } = test;
      const input = createMatrixSchema.parse({
        prompts: PROMPTS,
        models: ["mock/echo"],
        inputs: INPUTS.slice(0, 4),
        cache: false,
        metrics: [
          { type: "response_length", min_words: 1 },
          { type: "llm_judge", criteria: "Is it a faithful summary?", model: "mock/echo" },
        ],
      });
      const created = await createMatrix({ db }, { userId: userA, input });
      if (!("matrix" in created)) throw new Error("expected a run");
      const matrixId = created.matrix.id;
      const detail = await waitFor(
        async () => {
          const found = await getMatrix({ db }, { userId: userA, matrixId });
          return found.matrix.status === "completed" ? found : null;
        },
        { timeoutMs: 30_000, what: "the scored matrix to complete" },
      );
      expect(detail.evals).toHaveLength(8);
      const scoreOf = (version: string, id: string) =>
        detail.evals.find((one) => one.prompt === version && one.input === id)!.metricScores!;
      const judged = (version: string) => INPUTS.slice(0, 4).map((item) => scoreOf(version, item.id).scores.llm_judge);
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

      const folder = detail.comparisons.find((name) => name.includes("_prompt_in-01_"))!;
      const { text } = await matrixComparison({ db }, { userId: userA, matrixId, name: folder });
      const first = scoreOf("v1", "in-01");
      expect(text).toContain(
        `\n**Scores**: response_length 1.00, llm_judge ${first.scores.llm_judge.toFixed(2)} (${first.passed ? "passed" : "not passed"})\n`,
      );
      // The paired lines, their means checked against the evals' own scores.
      expect(text).toContain(
        "\n**response_length (mean score), v2 vs v1**: 1.00 vs 1.00 over 4 paired inputs; difference 0.00, 95% CI 0.00 to 0.00; paired bootstrap; not distinguishable\n",
      );
      expect(text).toContain(
        `\n**llm_judge (mean score), v2 vs v1**: ${mean(judged("v2")).toFixed(2)} vs ${mean(judged("v1")).toFixed(2)} over 4 paired inputs;`,
      );
      const passed = (version: string) => INPUTS.slice(0, 4).filter((item) => scoreOf(version, item.id).passed).length;
      expect(text).toContain(`\n**Pass rate, v2 vs v1**: ${passed("v2") * 25}% vs ${passed("v1") * 25}% over 4 paired inputs;`);
      const summary = JSON.parse((await matrixSummaryFile({ db }, { userId: userA, matrixId })).text);
      expect(summary.grading).toMatchObject({ by: "metrics", graded_runs: 8, ungraded_runs: 0, passed_runs: passed("v1") + passed("v2") });
      expect(summary.grading.mean_scores.llm_judge).toBeCloseTo(mean([...judged("v1"), ...judged("v2")]), 6);
    });
  });
}
