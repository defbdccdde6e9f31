import { describe, expect, it } from "vitest";
import { datasetInputs, inputId } from "@/components/matrix/dataset-inputs";
import { fileVersion } from "@/components/matrix/file-version";
import { parseComparison, parseComparisonIndex } from "@/components/matrix/parse-comparison";
import { comparisonGroups } from "@/lib/formats/matrix/comparison-groups";
import { comparisonMarkdown } from "@/lib/formats/matrix/comparison-markdown";
import { comparisonIndexEntry, indexMarkdown } from "@/lib/formats/matrix/index-markdown";
import type { MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";

// The Matrix view's pure helpers: the comparison markdown read back into the parts the page lays
// out (the markdown made by the real writer, lib/formats/matrix), a dataset's rows as inputs, and
// a file's name as its version.

function record(overrides: Partial<MatrixRunRecord> & Pick<MatrixRunRecord, "prompt" | "model">): MatrixRunRecord {
  return {
    runId: `20251227_143500_${overrides.prompt.version}_${overrides.model.name.replace("/", "-")}_tech-talk-01`,
    batchId: "20251227_143500_matrix",
    timestamp: "2025-12-27T14:35:00Z",
    input: { id: "tech-talk-01", title: "Example Tech Talk" },
    output: "An answer.",
    tokens: { input: 12_500, output: 850 },
    costUsd: 0.0098,
    durationSeconds: 4.2,
    error: null,
    ...overrides,
  };
}

const llama = { name: "llama-3.3-70b", provider: "groq", model: "llama-3.3-70b-versatile", label: "llama-3.3-70b-versatile" };
const echo = { name: "mock/echo", provider: "mock", model: "echo", label: "mock/echo" };

// An output that looks like markdown and HTML, with its own --- and ## lines: it stays one output.
const TRICKY = "# Not a title\n\n<img src=x onerror=alert(1)>\n\n---\n\n## Not a section\n\nlast line";

const runs: MatrixRunRecord[] = [
  record({ prompt: { version: "v1", name: "summary" }, model: llama, output: TRICKY }),
  record({ prompt: { version: "v2", name: null }, model: llama, tokens: { input: 12_500, output: 920 }, costUsd: null }),
  record({
    prompt: { version: "v1", name: "summary" },
    model: echo,
    output: null,
    error: "429 Too Many Requests\nretry later",
    costUsd: null,
  }),
];
const groups = comparisonGroups({ runs, batchTimestamp: "20251227_143500", timestamp: "2025-12-27T14:35:00Z" });

describe("parseComparison", () => {
  it("reads a prompt comparison as the writer makes it: front matter, title, facts, a section per version with its output untouched", () => {
    const group = groups.find((item) => item.type === "prompt_comparison")!;
    const document = parseComparison(comparisonMarkdown(group));
    expect(document.frontMatter).toEqual([
      { label: "comparison_type", value: "prompt_comparison" },
      { label: "timestamp", value: "2025-12-27T14:35:00Z" },
      { label: "transcript", value: "tech-talk-01" },
      { label: "model", value: "llama-3.3-70b-versatile" },
      { label: "prompts_compared", value: "v1, v2" },
    ]);
    expect(document.title).toBe("Prompt Comparison: tech-talk-01");
    expect(document.facts).toEqual([
      { label: "Transcript", value: "Example Tech Talk" },
      { label: "Model", value: "llama-3.3-70b-versatile" },
      { label: "Compared", value: "v1, v2" },
    ]);
    expect(document.notes).toEqual([]);
    expect(document.sections.map((section) => section.heading)).toEqual(["Version v1 (summary)", "Version v2"]);
    expect(document.sections[0].facts).toEqual([
      { label: "Tokens", value: "12,500 input / 850 output" },
      { label: "Cost", value: "$0.0098" },
      { label: "Duration", value: "4.2s" },
    ]);
    expect(document.sections[0].output).toBe(TRICKY);
    expect(document.sections[0].error).toBeNull();
    expect(document.sections[1].facts[1]).toEqual({ label: "Cost", value: "unknown" });
    expect(document.sections[1].output).toBe("An answer.");
  });

  it("reads a model comparison with a failed eval: the error apart from the output", () => {
    const group = groups.find((item) => item.type === "model_comparison")!;
    const document = parseComparison(comparisonMarkdown(group));
    expect(document.frontMatter.map((fact) => fact.label)).toEqual([
      "comparison_type",
      "timestamp",
      "transcript",
      "prompt_version",
      "models_compared",
    ]);
    expect(document.frontMatter[4].value).toBe("llama-3.3-70b, mock/echo");
    expect(document.title).toBe("Model Comparison: tech-talk-01");
    expect(document.facts[1]).toEqual({ label: "Prompt", value: "v1 (summary)" });
    expect(document.sections.map((section) => section.heading)).toEqual(["Model: llama-3.3-70b-versatile", "Model: mock/echo"]);
    expect(document.sections[1]).toMatchObject({ output: "", error: "429 Too Many Requests retry later" });
    expect(document.sections[0].output).toBe(TRICKY);
  });

  it("reads the grade lines a graded batch adds (docs/matrix.md, Grades) as facts: the paired lines under the title, a grade per section", () => {
    const markdown = [
      "---",
      "comparison_type: prompt_comparison",
      "timestamp: 2025-12-27T14:35:00Z",
      "transcript: a",
      "model: mock/echo",
      "prompts_compared: [v1, v2]",
      "---",
      "",
      "# Prompt Comparison: a",
      "",
      "**Transcript**: a",
      "**Model**: mock/echo",
      "**Compared**: v1, v2",
      "**Pass rate, v2 vs v1**: 80% vs 20% over 10 paired inputs; difference +60.0 points; v2 higher",
      "",
      "---",
      "",
      "## Version v1",
      "",
      "**Tokens**: 10 input / 5 output",
      "**Cost**: $0.0000",
      "**Duration**: 0.3s",
      "**Grade**: none",
      "**Grader error**: the grader answered no grade",
      "",
      "first",
      "",
      "---",
      "",
      "## Version v2",
      "",
      "**Tokens**: 10 input / 5 output",
      "**Cost**: $0.0000",
      "**Duration**: 0.2s",
      "**Grade**: 0.75",
      "",
      "second",
      "",
    ].join("\n");
    const document = parseComparison(markdown);
    expect(document.facts.at(-1)).toEqual({
      label: "Pass rate, v2 vs v1",
      value: "80% vs 20% over 10 paired inputs; difference +60.0 points; v2 higher",
    });
    expect(document.sections[0].facts.slice(3)).toEqual([
      { label: "Grade", value: "none" },
      { label: "Grader error", value: "the grader answered no grade" },
    ]);
    expect(document.sections[0].output).toBe("first");
    expect(document.sections[1].facts.at(-1)).toEqual({ label: "Grade", value: "0.75" });
    expect(document.sections[1].output).toBe("second");
  });

  it("keeps text that fits no part, and reads a file without front matter or sections", () => {
    const document = parseComparison("# Title\n\nA loose line.\n**Model**: m\n");
    expect(document).toEqual({
      frontMatter: [],
      title: "Title",
      facts: [{ label: "Model", value: "m" }],
      notes: ["A loose line."],
      sections: [],
    });
    expect(parseComparison("---\n: [broken\n---\n\n# T\n").frontMatter).toEqual([{ label: "", value: "[broken" }]);
  });
});

describe("parseComparisonIndex", () => {
  it("reads index.md as the writer makes it: each link's text and folder, an empty group's words", () => {
    const prompts = groups.filter((group) => group.type === "prompt_comparison");
    const markdown = indexMarkdown({ entries: prompts.map(comparisonIndexEntry), generatedAt: "2025-12-27T14:40:00Z" });
    const index = parseComparisonIndex(markdown);
    expect(index.title).toBe("Eval Comparisons");
    expect(index.generated).toBe("2025-12-27T14:40:00Z");
    expect(index.groups).toEqual([
      {
        heading: "Prompt Comparisons",
        links: [{ text: "tech-talk-01: v1 vs v2 (llama-3.3-70b-versatile)", name: prompts[0].folder }],
        empty: null,
      },
      { heading: "Model Comparisons", links: [], empty: "None yet." },
    ]);
  });

  it("undoes the link text's escapes and the folder's percent-encoding", () => {
    const index = parseComparisonIndex(
      "## Model Comparisons\n\n- [a\\_b: x vs y \\[1\\]](./20251227_143500_model_a_b_v%201/comparison.md)\n",
    );
    expect(index.groups[0].links).toEqual([{ text: "a_b: x vs y [1]", name: "20251227_143500_model_a_b_v 1" }]);
  });
});

describe("datasetInputs", () => {
  const rows = [
    { id: "tech talk/01", text: "First" },
    { id: "tech talk/01", text: "Second" },
    { id: "", text: "Third" },
    { id: "ok-4", text: "<b>Fourth</b>" },
  ];

  it("takes the text column and makes each id a name the API takes, unique, noting each change", () => {
    const { inputs, notes } = datasetInputs({ rows, textColumn: "text", idColumn: "id" });
    expect(inputs).toEqual([
      { id: "tech-talk-01", text: "First" },
      { id: "tech-talk-01-2", text: "Second" },
      { id: "row-3", text: "Third" },
      { id: "ok-4", text: "<b>Fourth</b>" },
    ]);
    expect(notes).toEqual([
      'Row 1: id "tech talk/01" is written tech-talk-01.',
      'Row 2: id "tech talk/01" is written tech-talk-01-2.',
      'Row 3: id "" is written row-3.',
    ]);
  });

  it("numbers the rows without an id column", () => {
    const { inputs, notes } = datasetInputs({ rows, textColumn: "id", idColumn: null });
    expect(inputs.map((input) => input.id)).toEqual(["row-1", "row-2", "row-3", "row-4"]);
    expect(inputs[0].text).toBe("tech talk/01");
    expect(notes).toEqual([]);
  });

  it("inputId never leaves a name with .., a leading mark or a path separator", () => {
    expect(inputId("../../etc/passwd")).toBe("etc-passwd");
    expect(inputId("a..b")).toBe("a.b");
    expect(inputId("__x__")).toBe("x__");
    expect(inputId("!!!")).toBe("");
  });
});

describe("fileVersion", () => {
  it("is the file name without its extension, and refuses a name a run id cannot carry", () => {
    expect(fileVersion("v1.txt")).toEqual({ ok: true, name: "v1" });
    expect(fileVersion("summary.v2.yaml")).toEqual({ ok: true, name: "summary.v2" });
    expect(fileVersion("tech-talk-01.md")).toEqual({ ok: true, name: "tech-talk-01" });
    const refused = fileVersion("my prompt.txt");
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatch(/^my prompt\.txt: "my prompt" cannot name/);
  });
});
