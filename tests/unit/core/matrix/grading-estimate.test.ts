import { describe, expect, it } from "vitest";
import { judgePrompt } from "@/lib/core/eval/metrics";
import { gradingCostOfEval } from "@/lib/core/matrix/grading-estimate";

// $1 per million input tokens and $2 per million output tokens: a token in is $0.000001, out $0.000002.
const price = { inputPerMTok: 1, outputPerMTok: 2 };
const groq = { provider: "groq", model: "llama-3.3-70b-versatile" };
const task = { prompt: "x".repeat(400), estimatedOutputTokens: 1_000, model: groq };

describe("gradingCostOfEval", () => {
  it("prices a grader's call: its template, the input's text for each {{input}} or {{transcript}}, the answer, and 1,000 tokens out", () => {
    // Template of 40 characters (10 tokens), the input twice (800 characters, 200 tokens each), the answer's 1,000:
    // 1,410 tokens in, 1,000 out: $0.00141 + $0.002.
    const text = `{{input}} {{transcript}} {{output}}`.padEnd(40, ".");
    const cost = gradingCostOfEval({
      grading: { by: "grader", text, model: null },
      task,
      inputText: "y".repeat(800),
      priceOf: () => price,
    });
    expect(cost).toBeCloseTo(0.00341, 12);
  });

  it("sends the grader to its own model, and is unknown when that model has no price", () => {
    const seen: string[] = [];
    const cost = gradingCostOfEval({
      grading: { by: "grader", text: "{{output}}", model: { provider: "openai", model: "gpt-x" } },
      task,
      inputText: "",
      priceOf: (target) => (seen.push(`${target.provider}/${target.model}`), null),
    });
    expect(seen).toEqual(["openai/gpt-x"]);
    expect(cost).toBeNull();
  });

  it("adds one call per llm_judge (the judge's prompt around the eval's prompt, the answer, 1,024 out); a mock judge costs nothing", () => {
    const promptTokens = Math.floor(judgePrompt({ criteria: "Is it short?", input: task.prompt, output: "" }).length / 4);
    const perJudge = ((promptTokens + 1_000) * 1 + 1_024 * 2) / 1e6;
    const cost = gradingCostOfEval({
      grading: {
        by: "metrics",
        judges: [
          { criteria: "Is it short?", model: null },
          { criteria: "Is it short?", model: { provider: "mock", model: "judge" } },
          { criteria: "Is it short?", model: groq },
        ],
      },
      task,
      inputText: "",
      priceOf: () => price,
    });
    expect(cost).toBeCloseTo(2 * perJudge, 12);
  });
});
