import { describe, expect, it } from "vitest";
import type { MatrixModel } from "@/lib/core/matrix/model-aliases";
import {
  CONFIRMATION_THRESHOLD,
  MAX_MATRIX_EVALS,
  confirmationQuestion,
  estimatedCostText,
  inputTitle,
  planMatrix,
  type MatrixInput,
  type MatrixPromptVersion,
} from "@/lib/core/matrix/plan-matrix";

const llama: MatrixModel = { name: "llama-3.3-70b", provider: "groq", model: "llama-3.3-70b-versatile", label: "llama-3.3-70b-versatile" };
const mixtral: MatrixModel = { name: "mixtral", provider: "groq", model: "mixtral-8x7b-32768", label: "mixtral-8x7b-32768" };
const echo: MatrixModel = { name: "mock/echo", provider: "mock", model: "echo", label: "mock/echo" };

const v1: MatrixPromptVersion = { version: "v1", name: null, format: "txt", text: "Summarize {{input}}", system: null };
const v2: MatrixPromptVersion = {
  version: "v2",
  name: "summary",
  format: "yaml",
  text: "Sum {input_id}: {transcript}",
  system: "Be brief.",
};
const talk: MatrixInput = { id: "tech-talk-01", text: "# Example Tech Talk\n\nabcd".padEnd(40, "x") };
const interview: MatrixInput = { id: "interview-02", text: "no heading here, 32 characters." };

describe("planMatrix", () => {
  it("plans 2 x 2 x 2 = 8 evals, prompt then model then input", () => {
    const plan = planMatrix({ prompts: [v1, v2], models: [llama, mixtral], inputs: [talk, interview], prices: {} });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.tasks).toHaveLength(8);
    expect(plan.tasks.map((task) => `${task.promptVersion}+${task.model.name}+${task.inputId}`)).toEqual([
      "v1+llama-3.3-70b+tech-talk-01",
      "v1+llama-3.3-70b+interview-02",
      "v1+mixtral+tech-talk-01",
      "v1+mixtral+interview-02",
      "v2+llama-3.3-70b+tech-talk-01",
      "v2+llama-3.3-70b+interview-02",
      "v2+mixtral+tech-talk-01",
      "v2+mixtral+interview-02",
    ]);
    expect(plan.tasks.map((task) => task.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(plan.prompts).toEqual(["v1", "v2"]);
    expect(plan.models).toEqual(["llama-3.3-70b", "mixtral"]);
    expect(plan.inputs).toEqual(["tech-talk-01", "interview-02"]);
    expect(plan.needsConfirmation).toBe(false);
  });

  it("renders {{input}} templates and {var} YAML templates with input, transcript and input_id", () => {
    const plan = planMatrix({ prompts: [v1, v2], models: [echo], inputs: [interview], prices: {} });
    if (!plan.ok) throw new Error(plan.errors.join("\n"));
    expect(plan.tasks[0].prompt).toBe("Summarize no heading here, 32 characters.");
    expect(plan.tasks[1].prompt).toBe("Sum interview-02: no heading here, 32 characters.");
    expect(plan.tasks[1].system).toBe("Be brief.");
    expect(plan.tasks[1].promptName).toBe("summary");
    // An input's text holding {{input_id}} is inserted as it is, not expanded again.
    const literal = planMatrix({ prompts: [v1], models: [echo], inputs: [{ id: "x", text: "{{input_id}}" }], prices: {} });
    expect(literal.ok && literal.tasks[0].prompt).toBe("Summarize {{input_id}}");
  });

  it("estimates tokens as characters / 4 and cost from each model's price per million", () => {
    // v1 with interview: "Summarize " (10) + 31 characters = 41 -> 10 tokens. v2: 49 characters -> 12, plus "Be brief." 9 -> 2.
    const plan = planMatrix({
      prompts: [v1, v2],
      models: [llama, echo],
      inputs: [interview],
      prices: { "llama-3.3-70b": { inputPerMTok: 0.59, outputPerMTok: 0.79 } },
      estimatedOutputTokens: 800,
    });
    if (!plan.ok) throw new Error(plan.errors.join("\n"));
    expect(plan.tasks.map((task) => task.estimatedInputTokens)).toEqual([10, 10, 14, 14]);
    expect(plan.tasks[0].estimatedCostUsd).toBeCloseTo((10 * 0.59 + 800 * 0.79) / 1e6, 12);
    expect(plan.tasks[1].estimatedCostUsd).toBeNull();
    expect(plan.perModel).toEqual([
      {
        model: "llama-3.3-70b",
        evals: 2,
        inputTokens: 24,
        outputTokens: 1600,
        costUsd: expect.closeTo((24 * 0.59 + 1600 * 0.79) / 1e6, 12),
      },
      { model: "mock/echo", evals: 2, inputTokens: 24, outputTokens: 1600, costUsd: null },
    ]);
    expect(plan.totals).toEqual({
      evals: 4,
      models: 2,
      inputTokens: 48,
      outputTokens: 3200,
      costUsd: expect.closeTo(0.00127816, 12),
      unpricedModels: ["mock/echo"],
    });
  });

  it("stops on a placeholder left unfilled, naming prompt, input and placeholder", () => {
    const plan = planMatrix({
      prompts: [
        { ...v1, text: "{{input}} for {{audience}}" },
        { ...v2, text: "{input} in {language}" },
      ],
      models: [echo],
      inputs: [talk],
      prices: {},
    });
    expect(plan).toEqual({
      ok: false,
      errors: [
        "Placeholder {{audience}} in prompt v1 with input tech-talk-01 has no value (known: input, transcript, input_id)",
        "Placeholder {language} in prompt v2 with input tech-talk-01 has no value (known: input, transcript, input_id)",
      ],
    });
  });

  it("names a YAML template's syntax error with prompt and input", () => {
    const plan = planMatrix({ prompts: [{ ...v2, text: "a } b" }], models: [echo], inputs: [talk], prices: {} });
    expect(plan).toEqual({ ok: false, errors: ["Template of prompt v2 with input tech-talk-01: Single '}' encountered in format string"] });
  });

  it("refuses an empty side, a name given twice and a matrix over the limit, before rendering", () => {
    expect(planMatrix({ prompts: [], models: [echo], inputs: [talk], prices: {} })).toEqual({
      ok: false,
      errors: ["No prompt versions to run"],
    });
    expect(planMatrix({ prompts: [v1, v1], models: [echo], inputs: [talk], prices: {} })).toEqual({
      ok: false,
      errors: ['The prompt version "v1" is named twice'],
    });
    const inputs = Array.from({ length: MAX_MATRIX_EVALS + 1 }, (_, index) => ({ id: `i${index}`, text: "{{" }));
    const big = planMatrix({ prompts: [v1], models: [echo], inputs, prices: {} });
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.errors[0]).toContain(`is ${MAX_MATRIX_EVALS + 1} evals, more than the ${MAX_MATRIX_EVALS}`);
  });

  it("asks above 100 evals with the spec's question", () => {
    const inputs = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `i${index}`, text: "text" }));
    const hundred = planMatrix({ prompts: [v1], models: [echo], inputs: inputs(CONFIRMATION_THRESHOLD), prices: {} });
    expect(hundred.ok && hundred.needsConfirmation).toBe(false);
    const plan = planMatrix({
      prompts: [v1, { ...v1, version: "v2" }],
      models: [llama, mixtral],
      inputs: inputs(30),
      prices: { "llama-3.3-70b": { inputPerMTok: 0.59, outputPerMTok: 0.79 }, mixtral: { inputPerMTok: 0.24, outputPerMTok: 0.24 } },
    });
    if (!plan.ok) throw new Error(plan.errors.join("\n"));
    expect(plan.needsConfirmation).toBe(true);
    // Each eval: "Summarize text" is 14 characters, 3 tokens; 1,000 output tokens. 60 evals per model.
    const expected = (60 * (3 * 0.59 + 1000 * 0.79) + 60 * (3 * 0.24 + 1000 * 0.24)) / 1e6;
    expect(confirmationQuestion(plan.totals)).toBe(`This will run 120 evals. Estimated cost: $${expected.toFixed(4)}. Continue? [y/N]`);
    expect(confirmationQuestion(plan.totals)).toBe("This will run 120 evals. Estimated cost: $0.0619. Continue? [y/N]");
  });

  it("says which models an estimate leaves out, and unknown when none is priced", () => {
    expect(estimatedCostText({ costUsd: 0.012, models: 2, unpricedModels: ["mock/echo"] })).toBe(
      "$0.0120 (not counting 1 unpriced model: mock/echo)",
    );
    expect(estimatedCostText({ costUsd: 0, models: 1, unpricedModels: ["x/y"] })).toBe("unknown");
    expect(estimatedCostText({ costUsd: 0, models: 1, unpricedModels: [] })).toBe("$0.0000");
  });
});

describe("inputTitle", () => {
  it("is the first # heading, else the id", () => {
    expect(inputTitle({ id: "t", text: "intro\n## Sub\n# Example Tech Talk\n# Second" })).toBe("Example Tech Talk");
    expect(inputTitle({ id: "t", text: "#hashtag\n## only a subheading" })).toBe("t");
    expect(inputTitle({ id: "t", text: "# Closed heading ##\r\nbody" })).toBe("Closed heading");
    expect(inputTitle({ id: "t", text: "# C#\n" })).toBe("C#");
    expect(inputTitle({ id: "t", text: "# Issue #12 review\n" })).toBe("Issue #12 review");
  });
});
