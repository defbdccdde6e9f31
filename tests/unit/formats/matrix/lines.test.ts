import { describe, expect, it } from "vitest";
import { planMatrix } from "@/lib/core/matrix/plan-matrix";
import { planLines } from "@/lib/formats/matrix/plan-lines";
import { progressLine } from "@/lib/formats/matrix/progress-line";
import { costText, durationText, tokensText } from "@/lib/formats/matrix/number-text";
import { models } from "./records";

describe("terminal lines", () => {
  it("writes the spec's progress line", () => {
    expect(progressLine({ position: 3, total: 12, promptVersion: "v2", model: "mixtral", inputId: "interview-02" })).toBe(
      "Running 3/12: v2 + mixtral + interview-02",
    );
  });

  it("writes the plan with its estimate per model", () => {
    const plan = planMatrix({
      prompts: [
        { version: "v1", name: null, format: "txt", text: "{{input}}", system: null },
        { version: "v2", name: null, format: "md", text: "{{transcript}}!", system: null },
      ],
      models: [models.llama, models.echo],
      inputs: [{ id: "a", text: "x".repeat(4000) }],
      prices: { "llama-3.3-70b": { inputPerMTok: 0.59, outputPerMTok: 0.79 } },
    });
    if (!plan.ok) throw new Error(plan.errors.join("\n"));
    // 1,000 input tokens per eval (4,000 or 4,001 characters), 1,000 output: (1000 x 0.59 + 1000 x 0.79) / 1e6 = 0.00138 per eval.
    expect(planLines(plan)).toEqual([
      "Prompts: v1, v2",
      "Models: llama-3.3-70b, mock/echo",
      "Inputs: a",
      "Evals: 4 (2 prompts x 2 models x 1 input)",
      "Estimated tokens: 4,000 input / 4,000 output",
      "  llama-3.3-70b: 2 evals, 2,000 input / 2,000 output tokens, $0.0028",
      "  mock/echo: 2 evals, 2,000 input / 2,000 output tokens, unknown (no price)",
      "Estimated cost: $0.0028 (not counting 1 unpriced model: mock/echo)",
    ]);
  });

  it("writes numbers the same on every locale", () => {
    expect(tokensText(1234567)).toBe("1,234,567");
    expect(tokensText(999)).toBe("999");
    expect(tokensText(null)).toBe("unknown");
    expect(costText(0.00981)).toBe("$0.0098");
    expect(costText(0)).toBe("$0.0000");
    expect(costText(null)).toBe("unknown");
    expect(durationText(4.25)).toBe("4.3s");
  });
});
