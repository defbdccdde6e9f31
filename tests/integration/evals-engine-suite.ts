import { afterAll, beforeAll, beforeEach, describe, expect } from "vitest";
import { createEvalSchema, type CreateEvalRequest } from "@/lib/api/evals";
import { localUserId } from "@/lib/auth/local-user";
import { mockJudgeAnswer, parseJudgeAnswer } from "@/lib/core/eval/metrics";
import { formatMockResponse } from "@/lib/core/mock-response";
import { createEval } from "@/lib/engine/create-eval";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import { savePrice } from "@/lib/services/prices";
import { waitFor } from "../helpers/databases";
import { evalEngineOn, type CreateTestDatabase } from "./evals-engine-database";
import { startVendorServer, TEST_API_KEY, type RecordedRequest, type VendorServer } from "../helpers/vendor-server";

// The worker's eval rules (issue 12): each cell's answer scored by the config's metrics, the
// judge asked for llm_judge, the pass rule applied and all of it kept in run_cells, keyless on
// mock models and through a local server speaking Anthropic's Messages API.

type CellRow = {
  id: string;
  variant: number;
  column_index: number;
  row_index: number;
  trial: number;
  status: string;
  output_raw: string | null;
  error_message: string | null;
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
  grader_output_raw: string | null;
  grader_tokens_in: number | null;
  grader_cost_usd: number | null;
  metric_scores: { scores: Record<string, number>; passed: boolean; failing: string[] } | null;
};

/** The worker's eval rules, run against one kind of database. */
export function describeEvalsEngine(label: string, create: CreateTestDatabase): void {
  describe(`eval runs on ${label}: the worker's rules`, () => {
    let anthropic: VendorServer;
    const providers = createProviderRegistry([createMockProvider()], {
      factories: { anthropic: providerFactories.anthropic },
      credentials: async () => ({ apiKey: TEST_API_KEY, baseURL: anthropic.baseURL, allowPrivateAddresses: true }),
    });
    const engine = evalEngineOn(create, providers);
    const it = engine.it;

    async function runEval(request: Partial<CreateEvalRequest>): Promise<CellRow[]> {
      const input = createEvalSchema.parse({ config: "", ...request });
      const summary = await createEval({ db: engine.db }, { userId: localUserId, input });
      await waitFor(
        async () => {
          const { rows } = await engine.db.query<{ status: string }>("select status from runs where id = $1", [summary.id]);
          return rows[0].status === "completed" ? true : null;
        },
        { what: "the eval to complete", timeoutMs: 20_000 },
      );
      const { rows } = await engine.db.query<CellRow>(
        `select id, variant, column_index, row_index, trial, status, output_raw, error_message, tokens_in, tokens_out, cost_usd,
            grader_output_raw, grader_tokens_in, grader_cost_usd, metric_scores
       from run_cells where run_id = $1 order by variant, column_index, row_index, trial`,
        [summary.id],
      );
      return rows;
    }

    function anthropicMessage(text: string, usage = { input_tokens: 20, output_tokens: 10 }) {
      return { body: { type: "message", role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn", usage } };
    }

    beforeAll(async () => {
      anthropic = await startVendorServer({ prefix: "/v1" });
    });
    afterAll(() => anthropic.close());
    beforeEach(() => anthropic.reset());

    it("scores each answer of a mock model by every metric, asks the mock judge, and applies the pass rule", async () => {
      const config = `model: mock/fast
evaluation_threshold: 0.5
prompts:
  - name: answer
    system: Be brief.
    template: "Explain {topic}."
test_cases:
  - name: python
    inputs: {topic: Python}
    expected_contains: [python, "Explain"]
    expected_not_contains: ["I don't know", Rust]
  - name: exact
    inputs: {topic: Go}
    expected_output: nothing like it
  - name: missing
    inputs: {subject: Go}
metrics:
  - type: contains
  - type: response_length
    max_words: 12
  - type: exact_match
  - type: llm_judge
    criteria: Accuracy
    threshold: 0
`;
      const cells = await runEval({ config, cache: false });
      expect(cells.map((cell) => cell.status)).toEqual(["ok", "ok", "error"]);

      const [python, exact, missing] = cells;
      const input = "Explain Python.";
      const output = formatMockResponse({ model: "fast", variables: { topic: "Python" }, input });
      expect(python.output_raw).toBe(output);
      const judged = parseJudgeAnswer(mockJudgeAnswer({ model: "fast", criteria: "Accuracy", input, output }));
      if (!judged.ok) throw new Error(judged.error);
      expect(python.grader_output_raw).toBe(mockJudgeAnswer({ model: "fast", criteria: "Accuracy", input, output }));
      expect(python.grader_tokens_in).toBeGreaterThan(0);
      // Both expected strings found (case-insensitively) and both forbidden ones absent: 4 of 4;
      // the mock's echo runs past 12 words; no expected_output scores exact_match 0.
      expect(python.metric_scores).toEqual({
        scores: { contains: 1, response_length: 0, exact_match: 0, llm_judge: judged.score },
        passed: false,
        failing: ["response_length", "exact_match"],
      });
      expect(exact.metric_scores?.scores.contains).toBe(1);
      expect(missing).toMatchObject({
        error_message: "Missing input variable topic in test case missing",
        output_raw: "",
        metric_scores: { scores: {}, passed: false, failing: ["contains", "response_length", "exact_match", "llm_judge"] },
      });
    });

    it("passes when every metric reaches its threshold, the 2-of-3 contains included", async () => {
      const config = `model: mock/fast
prompts:
  - name: p
    template: "alpha beta {x}"
test_cases:
  - name: two_of_three
    inputs: {x: gamma}
    expected_contains: [alpha, beta, omega]
`;
      const [lenient] = await runEval({ config });
      expect(lenient.metric_scores).toEqual({ scores: { contains: 2 / 3 }, passed: true, failing: [] });
      const [strict] = await runEval({ config: config.replace("prompts:", "evaluation_threshold: 1.0\nprompts:") });
      expect(strict.metric_scores).toEqual({ scores: { contains: 2 / 3 }, passed: false, failing: ["contains"] });
    });

    it("sends the system text, max_tokens and temperature to Anthropic and asks the metric's judge model for its score", async () => {
      const answers = (request: RecordedRequest) => {
        const text: string = request.body.messages[0].content[0].text;
        return text.startsWith("You are grading")
          ? anthropicMessage("Accurate and clear.\nSCORE: 0.8", { input_tokens: 100, output_tokens: 8 })
          : anthropicMessage("Python is a programming language.");
      };
      anthropic.route("POST /v1/messages", answers);
      for (const [model, inputPerMTok, outputPerMTok] of [
        ["claude-sonnet-4-20250514", 3, 15],
        ["claude-haiku-4-5", 1, 5],
      ] as const) {
        await savePrice({ db: engine.db }, { userId: localUserId, price: { provider: "anthropic", model, inputPerMTok, outputPerMTok } });
      }
      const config = `model: claude-sonnet-4-20250514
max_tokens: 256
temperature: 0.2
prompts:
  - name: summarizer
    system: You are a helpful assistant.
    template: "Summarize in {n} sentences: {text}"
test_cases:
  - name: test1
    inputs: {text: Python is a programming language., n: 2}
    expected_contains: [programming]
metrics:
  - type: contains
  - type: llm_judge
    criteria: Accuracy
    model: claude-haiku-4-5
    threshold: 0.7
`;
      const [cell] = await runEval({ config, cache: false });
      const [generation, judging] = anthropic.requests;
      expect(generation.body).toMatchObject({
        model: "claude-sonnet-4-20250514",
        max_tokens: 256,
        temperature: 0.2,
        system: [{ type: "text", text: "You are a helpful assistant." }],
        messages: [{ role: "user", content: [{ type: "text", text: "Summarize in 2 sentences: Python is a programming language." }] }],
      });
      expect(judging.body).toMatchObject({ model: "claude-haiku-4-5", temperature: 0 });
      expect(judging.body.messages[0].content[0].text).toContain("<answer>\nPython is a programming language.\n</answer>");
      expect(cell).toMatchObject({
        status: "ok",
        output_raw: "Python is a programming language.",
        tokens_in: 20,
        tokens_out: 10,
        grader_tokens_in: 100,
        grader_output_raw: "Accurate and clear.\nSCORE: 0.8",
        metric_scores: { scores: { contains: 1, llm_judge: 0.8 }, passed: true, failing: [] },
      });
      // Each call priced at its own model's price: the judge's apart, as a grader's.
      expect(cell.cost_usd).toBeCloseTo((20 * 3 + 10 * 15) / 1e6, 12);
      expect(cell.grader_cost_usd).toBeCloseTo((100 * 1 + 8 * 5) / 1e6, 12);
    });

    it("keeps an API error in the cell, and a judge's unreadable answer unscored, so neither passes", async () => {
      anthropic.route("POST /v1/messages", (request) =>
        request.body.model === "claude-haiku-4-5"
          ? anthropicMessage("Looks fine to me.")
          : request.body.messages[0].content[0].text.includes("fails")
            ? { status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "prompt is too long" } } }
            : anthropicMessage("ok"),
      );
      const config = `model: claude-sonnet-4-20250514
prompts:
  - name: p
    template: "{x}"
test_cases:
  - name: fine
    inputs: {x: works}
  - name: broken
    inputs: {x: fails}
metrics:
  - type: contains
  - type: llm_judge
    criteria: Accuracy
    model: claude-haiku-4-5
`;
      const [fine, broken] = await runEval({ config, cache: false, retries: 0 });
      expect(fine).toMatchObject({
        status: "warning",
        metric_scores: { scores: { contains: 1 }, passed: false, failing: ["llm_judge"] },
      });
      expect(broken).toMatchObject({
        status: "error",
        error_message: expect.stringMatching(/^bad_request: .*prompt is too long/),
        metric_scores: { scores: {}, passed: false },
      });
    });

    it("caches each trial's answer apart, by system text and parameters too, and a rerun takes them from the cache", async () => {
      anthropic.route("POST /v1/messages", () => anthropicMessage("cached answer"));
      const config = (system: string) => `model: claude-sonnet-4-20250514
repeat: 2
prompts:
  - name: p
    system: ${system}
    template: "{x}"
test_cases:
  - name: only
    inputs: {x: hello}
`;
      const cachedOf = async (cells: CellRow[]) => {
        const { rows } = await engine.db.query<{ cached: boolean }>(
          "select cached from run_cells where id = any($1::uuid[]) order by trial",
          [cells.map((cell) => cell.id)],
        );
        return rows.map((row) => row.cached);
      };
      const first = await runEval({ config: config("One.") });
      expect(first.map((cell) => cell.trial)).toEqual([0, 1]);
      expect(await cachedOf(first)).toEqual([false, false]);
      expect(anthropic.requests).toHaveLength(2);
      const again = await runEval({ config: config("One.") });
      expect(await cachedOf(again)).toEqual([true, true]);
      expect(again.map((cell) => cell.metric_scores?.passed)).toEqual([true, true]);
      expect(anthropic.requests).toHaveLength(2);
      const otherSystem = await runEval({ config: config("Two.") });
      expect(await cachedOf(otherSystem)).toEqual([false, false]);
      expect(anthropic.requests).toHaveLength(4);
    });
  });
}
