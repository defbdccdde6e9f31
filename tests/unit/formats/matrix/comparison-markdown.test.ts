import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { comparisonGroups } from "@/lib/formats/matrix/comparison-groups";
import { comparisonMarkdown, versionText, yamlFlowList, yamlScalar } from "@/lib/formats/matrix/comparison-markdown";
import { parseComparison, textOf } from "./markdown-blocks";
import { models, record } from "./records";

const at = { batchTimestamp: "20251227_143000", timestamp: "2025-12-27T14:30:00Z" };

// The spec's prompt comparison, its outputs as fixtures write them.
const specPromptComparison = `---
comparison_type: prompt_comparison
timestamp: 2025-12-27T14:30:00Z
transcript: tech-talk-01
model: llama-3.3-70b-versatile
prompts_compared: [v1, v2, v3]
---

# Prompt Comparison: tech-talk-01

**Transcript**: Example Tech Talk
**Model**: llama-3.3-70b-versatile
**Compared**: v1, v2, v3

---

## Version v1 (summary)

**Tokens**: 12,500 input / 850 output
**Cost**: $0.0098
**Duration**: 4.2s

[LLM output from v1...]

---

## Version v2 (summary)

**Tokens**: 12,500 input / 920 output
**Cost**: $0.0105
**Duration**: 4.5s

[LLM output from v2...]

---

## Version v3 (summary)

**Tokens**: 12,500 input / 780 output
**Cost**: $0.0092
**Duration**: 3.8s

[LLM output from v3...]
`;

const specModelComparison = `---
comparison_type: model_comparison
timestamp: 2025-12-27T14:30:00Z
transcript: interview-02
prompt_version: v1
models_compared: [llama-3.3-70b, mixtral-8x7b]
---

# Model Comparison: interview-02

**Transcript**: Example Interview
**Prompt**: v1 (summary)
**Compared**: llama-3.3-70b-versatile, mixtral-8x7b-32768

---

## Model: llama-3.3-70b-versatile

**Tokens**: 15,200 input / 1,020 output
**Cost**: $0.0129
**Duration**: 5.1s

[LLM output from llama-3.3-70b...]

---

## Model: mixtral-8x7b-32768

**Tokens**: 15,200 input / 980 output
**Cost**: $0.0062
**Duration**: 3.2s

[LLM output from mixtral...]
`;

const specPromptRuns = [
  ["v1", 850, 0.0098, 4.2],
  ["v2", 920, 0.0105, 4.5],
  ["v3", 780, 0.0092, 3.8],
] as const;

function promptComparisonGroup() {
  // Given out of order: the comparison sorts by version.
  const runs = [...specPromptRuns].reverse().map(([version, output, cost, duration]) =>
    record({
      version,
      promptName: "summary",
      tokens: { input: 12_500, output },
      costUsd: cost,
      durationSeconds: duration,
      output: `[LLM output from ${version}...]\n\n`,
    }),
  );
  return comparisonGroups({ runs, ...at })[0];
}

function modelComparisonGroup() {
  const mixtral = { ...models.mixtral, name: "mixtral-8x7b" };
  const interview = (parts: Parameters<typeof record>[0]) =>
    record({ inputId: "interview-02", promptName: "summary", input: { id: "interview-02", title: "Example Interview" }, ...parts });
  const runs = [
    interview({
      model: mixtral,
      tokens: { input: 15_200, output: 980 },
      costUsd: 0.0062,
      durationSeconds: 3.2,
      output: "[LLM output from mixtral...]",
    }),
    interview({
      model: models.llama,
      tokens: { input: 15_200, output: 1_020 },
      costUsd: 0.0129,
      durationSeconds: 5.1,
      output: "[LLM output from llama-3.3-70b...]",
    }),
  ];
  return comparisonGroups({ runs, ...at })[0];
}

describe("comparisonMarkdown", () => {
  it("writes the spec's prompt comparison to the byte", () => {
    expect(comparisonMarkdown(promptComparisonGroup())).toBe(specPromptComparison);
  });

  it("writes the spec's model comparison to the byte", () => {
    expect(comparisonMarkdown(modelComparisonGroup())).toBe(specModelComparison);
  });

  it("has front matter a YAML parser reads and sections a CommonMark parser finds", () => {
    const { frontMatter, blocks } = parseComparison(comparisonMarkdown(promptComparisonGroup()));
    expect(frontMatter).toEqual({
      comparison_type: "prompt_comparison",
      timestamp: "2025-12-27T14:30:00Z",
      transcript: "tech-talk-01",
      model: "llama-3.3-70b-versatile",
      prompts_compared: ["v1", "v2", "v3"],
    });
    expect(blocks.map((block) => (block.type === "heading" ? `h${block.level}` : block.type))).toEqual(
      [
        "heading",
        "paragraph",
        "thematic_break",
        "heading",
        "paragraph",
        "paragraph",
        "thematic_break",
        "heading",
        "paragraph",
        "paragraph",
        "thematic_break",
        "heading",
        "paragraph",
        "paragraph",
      ].map((type, index) => (type === "heading" ? (index === 0 ? "h1" : "h2") : type)),
    );
    expect(textOf(blocks[0])).toBe("Prompt Comparison: tech-talk-01");
    expect(textOf(blocks[1])).toBe("Transcript: Example Tech Talk\nModel: llama-3.3-70b-versatile\nCompared: v1, v2, v3");
    expect(blocks.filter((block) => block.type === "heading" && block.level === 2).map(textOf)).toEqual([
      "Version v1 (summary)",
      "Version v2 (summary)",
      "Version v3 (summary)",
    ]);
    expect(textOf(blocks[4])).toBe("Tokens: 12,500 input / 850 output\nCost: $0.0098\nDuration: 4.2s");
  });

  it("writes the output as the model wrote it, markdown and all", () => {
    const output = "## Key points\n\n- one\n- *two*\n\n```js\nconst a = '<b>';\n```";
    const group = comparisonGroups({ runs: [record({ version: "v1", output }), record({ version: "v2" })], ...at })[0];
    expect(comparisonMarkdown(group)).toContain(`**Duration**: 1.5s\n\n${output}\n\n---\n\n## Version v2\n`);
  });

  it("shows a failed eval with its error, and an unpriced cost as unknown", () => {
    const runs = [
      record({ version: "v1", model: models.echo, costUsd: null }),
      record({
        version: "v2",
        model: models.echo,
        output: null,
        error: "Groq answered 500:\nInternal error",
        tokens: { input: null, output: null },
        costUsd: null,
        durationSeconds: 0.31,
      }),
    ];
    const markdown = comparisonMarkdown(comparisonGroups({ runs, ...at })[0]);
    expect(markdown).toContain(
      "## Version v1\n\n**Tokens**: 1,000 input / 100 output\n**Cost**: unknown\n**Duration**: 1.5s\n\nOutput of v1",
    );
    expect(markdown).toContain(
      "## Version v2\n\n**Tokens**: unknown input / unknown output\n**Cost**: unknown\n**Duration**: 0.3s\n\n**Error**: Groq answered 500: Internal error\n",
    );
    expect(markdown).not.toContain("$0.0000");
  });

  it("quotes a front matter value YAML would read as something else", () => {
    expect(yamlScalar("v1")).toBe("v1");
    expect(yamlScalar("summary@v3")).toBe("summary@v3");
    expect(yamlScalar("mock/echo")).toBe("mock/echo");
    for (const tricky of ["1.0", "2", "true", "no", "null", "a: b", "x, y", "[v1]", "#1", "it's", "", "1e3", ".5", "2025-12-27", "1_000"]) {
      expect(parseYaml(`value: ${yamlScalar(tricky)}`)).toEqual({ value: tricky });
      expect(parseYaml(`value: ${yamlFlowList([tricky, "v2"])}`)).toEqual({ value: [tricky, "v2"] });
    }
    expect(yamlScalar("2025-12-27")).toBe('"2025-12-27"');
    expect(versionText({ version: "v1", name: null })).toBe("v1");
  });
});
