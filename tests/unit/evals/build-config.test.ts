import { describe, expect, it } from "vitest";
import { buildEvalConfig, savedPromptTemplate } from "@/components/evals/build-config";
import { parseEvalConfig } from "@/lib/core/eval/config";
import { formatTemplate } from "@/lib/core/eval/format-template";

describe("a config from saved prompts and a dataset", () => {
  it("turns {{var}} into {var} and keeps every other brace literal", () => {
    expect(savedPromptTemplate('Answer {{ question }} as JSON: {"a": {{n}}}')).toEqual({
      ok: true,
      template: 'Answer {question} as JSON: {{"a": {n}}}',
    });
    const converted = savedPromptTemplate('Answer {{ question }} as JSON: {"a": {{n}}}');
    if (!converted.ok) throw new Error(converted.error);
    expect(formatTemplate(converted.template, { question: "why", n: "1" }, "row 1")).toBe('Answer why as JSON: {"a": 1}');
  });

  it("refuses a placeholder an eval template cannot name", () => {
    expect(savedPromptTemplate("Hi {{user.name}}")).toEqual({
      ok: false,
      error: "{{user.name}} cannot be an eval input: use letters, digits and _ only (no dots or dashes).",
    });
  });

  it("writes a config the eval reader takes: a prompt each, a test case per row, contains", () => {
    const built = buildEvalConfig({
      prompts: [
        { name: "summary", text: "Summarize {{text}}:\n\n- in {{n}} lines" },
        { name: "summary", text: "Short: {{text}}" },
      ],
      rows: [
        { text: "Rust: fast", n: "2" },
        { text: "Go # simple", n: "1" },
      ],
      model: "mock/echo",
    });
    if (!built.ok) throw new Error(built.error);
    const parsed = parseEvalConfig(built.yaml, { fileName: "eval.yaml" });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    expect(parsed.warnings).toEqual([]);
    expect(parsed.config.models).toEqual(["mock/echo"]);
    expect(parsed.config.prompts.map((prompt) => (prompt.kind === "inline" ? [prompt.prompt.name, prompt.prompt.template] : null))).toEqual(
      [
        ["summary", "Summarize {text}:\n\n- in {n} lines"],
        ["summary (2)", "Short: {text}"],
      ],
    );
    expect(parsed.config.test_cases.map((testCase) => [testCase.name, testCase.inputs])).toEqual([
      ["row 1", { text: "Rust: fast", n: "2" }],
      ["row 2", { text: "Go # simple", n: "1" }],
    ]);
    expect(parsed.config.metrics.map((metric) => metric.type)).toEqual(["contains"]);
  });
});
