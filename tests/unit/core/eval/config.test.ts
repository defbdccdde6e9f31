import { describe, expect, it } from "vitest";
import { formatConfigProblem, NO_PROMPTS, NO_TEST_CASES, parseEvalConfig, type ParsedEvalConfig } from "@/lib/core/eval/config";
import { formatTemplate, PythonFloat } from "@/lib/core/eval/format-template";
import { MODEL_NAME_RULE } from "@/lib/core/eval/model-route";

// The spec's configs/eval_summarizer.yaml (its "..." filled in), as written there.
const SPEC_CONFIG = `model: claude-sonnet-4-20250514
max_tokens: 256
temperature: 0.0
evaluation_threshold: 0.5  # Minimum score for tests to pass (0.0-1.0)

prompts:
  - ../prompts/summarizer_v1.yaml  # External reference
  - name: inline_prompt             # Inline definition
    template: "Summarize this in {max_sentences} sentences:\\n\\n{text}"

test_cases:
  - name: test1
    inputs: {text: "Python is a programming language.", max_sentences: 2}
    expected_contains: ["keyword"]

metrics:
  - type: contains
  - type: response_length
    max_words: 100
`;

const providerIds = ["openai", "anthropic", "gemini", "ollama", "openrouter"];

function config(result: ParsedEvalConfig) {
  if (!result.ok) throw new Error(result.errors.map((problem) => formatConfigProblem(problem)).join("\n"));
  return result.config;
}

function errors(result: ParsedEvalConfig) {
  if (result.ok) throw new Error("expected the config to be refused");
  return result.errors;
}

describe("parseEvalConfig reads the spec's config", () => {
  it("with a prompt file, an inline prompt, a test case and two metrics", () => {
    const result = parseEvalConfig(SPEC_CONFIG, { fileName: "configs/eval_summarizer.yaml", providerIds });
    expect(result.ok && result.warnings).toEqual([]);
    expect(config(result)).toEqual({
      models: ["claude-sonnet-4-20250514"],
      max_tokens: 256,
      temperature: 0,
      evaluation_threshold: 0.5,
      repeat: 1,
      prompts: [
        { kind: "file", path: "../prompts/summarizer_v1.yaml", line: 7 },
        {
          kind: "inline",
          prompt: {
            name: "inline_prompt",
            description: "",
            version: "1.0",
            system: null,
            template: "Summarize this in {max_sentences} sentences:\n\n{text}",
          },
        },
      ],
      test_cases: [
        {
          name: "test1",
          inputs: { text: "Python is a programming language.", max_sentences: 2 },
          expected_contains: ["keyword"],
          expected_not_contains: [],
          tags: [],
          expected_output: null,
        },
      ],
      metrics: [
        { type: "contains", name: "contains", case_sensitive: false, threshold: null },
        {
          type: "response_length",
          name: "response_length",
          min_words: null,
          max_words: 100,
          min_chars: null,
          max_chars: null,
          threshold: null,
        },
      ],
    });
  });

  it("renders the spec's Prompt Rendering example from what it read", () => {
    const parsed = config(parseEvalConfig(SPEC_CONFIG));
    const inline = parsed.prompts[1];
    if (inline.kind !== "inline") throw new Error("expected the inline prompt");
    expect(formatTemplate(inline.prompt.template, parsed.test_cases[0].inputs, "test1")).toBe(
      "Summarize this in 2 sentences:\n\nPython is a programming language.",
    );
  });

  it("fills the spec's defaults and contains when there are no metrics", () => {
    const parsed = config(parseEvalConfig("model: mock/echo\nprompts: [p.yaml]\ntest_cases: [{name: t1}]\n"));
    expect(parsed).toMatchObject({ max_tokens: 1024, temperature: 0, evaluation_threshold: 0.5, repeat: 1 });
    expect(parsed.metrics).toEqual([{ type: "contains", name: "contains", case_sensitive: false, threshold: null }]);
    expect(parsed.test_cases[0].inputs).toEqual({});
    expect(config(parseEvalConfig("model: mock/echo\nprompts: [p.yaml]\ntest_cases: [{name: t1}]\nmetrics: []\n")).metrics).toHaveLength(1);
  });

  it("reads every metric's options and the spec's defaults for them", () => {
    const parsed = config(
      parseEvalConfig(
        `model: mock/echo
prompts: [p.yaml]
test_cases: [{name: t1, expected_output: "Paris"}]
metrics:
  - type: contains
    case_sensitive: true
  - type: response_length
    min_words: 10
    max_words: 100
    min_chars: 50
    max_chars: 500
  - type: llm_judge
    criteria: |
      Evaluate on:
      1. Accuracy
    model: claude-sonnet-4-20250514
    threshold: 0.7
  - type: exact_match
  - type: exact_match
    case_sensitive: false
    strip: false
`,
        { providerIds },
      ),
    );
    expect(parsed.metrics).toEqual([
      { type: "contains", name: "contains", case_sensitive: true, threshold: null },
      { type: "response_length", name: "response_length", min_words: 10, max_words: 100, min_chars: 50, max_chars: 500, threshold: null },
      { type: "llm_judge", name: "llm_judge", criteria: "Evaluate on:\n1. Accuracy\n", model: "claude-sonnet-4-20250514", threshold: 0.7 },
      { type: "exact_match", name: "exact_match", case_sensitive: true, strip: true, threshold: null },
      { type: "exact_match", name: "exact_match_2", case_sensitive: false, strip: false, threshold: null },
    ]);
  });

  it("keeps input values as Python holds them: 1.0 a float, lists, mappings, booleans and None", () => {
    const parsed = config(
      parseEvalConfig(
        `model: mock/echo
prompts: [p.yaml]
test_cases:
  - name: t1
    inputs:
      ratio: 1.0
      count: 3
      exponent: 1e3
      hex: 0x10
      flag: true
      nothing: null
      list: [a, 1.5, no]
      nested: {k: "v"}
`,
      ),
    );
    const inputs = parsed.test_cases[0].inputs;
    expect(inputs).toEqual({
      ratio: new PythonFloat(1),
      count: 3,
      exponent: new PythonFloat(1000),
      hex: 16,
      flag: true,
      nothing: null,
      list: ["a", 1.5, "no"],
      nested: { k: "v" },
    });
    // As Python's str.format(**inputs) writes them.
    expect(formatTemplate("{ratio} {count} {exponent} {hex} {flag} {nothing} {list} {nested}", inputs, "t1")).toBe(
      "1.0 3 1000.0 16 True None ['a', 1.5, 'no'] {'k': 'v'}",
    );
  });

  it("reads JSON, and YAML's anchors and merge keys", () => {
    const json = JSON.stringify({ model: "gpt-4o-mini", prompts: ["p.json"], test_cases: [{ name: "t1", inputs: { ratio: 1.5 } }] });
    expect(config(parseEvalConfig(json, { fileName: "eval.json", providerIds })).test_cases[0].inputs).toEqual({ ratio: 1.5 });
    const merged = config(
      parseEvalConfig(`model: mock/echo
prompts: [p.yaml]
defaults: &base {inputs: {style: brief}, tags: [basic]}
test_cases:
  - <<: *base
    name: t1
  - <<: *base
    name: t2
    tags: [advanced]
`),
    );
    expect(merged.test_cases.map((testCase) => [testCase.name, testCase.inputs, testCase.tags])).toEqual([
      ["t1", { style: "brief" }, ["basic"]],
      ["t2", { style: "brief" }, ["advanced"]],
    ]);
  });

  it("runs each prompt on a models: list, and -m replaces model and models", () => {
    const base = "prompts: [p.yaml]\ntest_cases: [{name: t1}]\n";
    expect(config(parseEvalConfig(`models: [claude-sonnet-4-20250514, gpt-4o-mini, mock/echo]\n${base}`, { providerIds })).models).toEqual([
      "claude-sonnet-4-20250514",
      "gpt-4o-mini",
      "mock/echo",
    ]);
    expect(
      config(parseEvalConfig(`models: [gpt-4o-mini, mock/echo]\n${base}`, { modelOverride: "claude-opus-4-5-20251101" })).models,
    ).toEqual(["claude-opus-4-5-20251101"]);
    // -m stands in for a missing model.
    expect(config(parseEvalConfig(base, { modelOverride: "mock/echo" })).models).toEqual(["mock/echo"]);
  });

  it("reads repeat as the number of trials", () => {
    expect(config(parseEvalConfig("model: mock/echo\nrepeat: 5\nprompts: [p.yaml]\ntest_cases: [{name: t1}]\n")).repeat).toBe(5);
  });
});

describe("parseEvalConfig's errors", () => {
  it("are the spec's words when prompts or test cases are missing or empty", () => {
    expect(errors(parseEvalConfig("model: mock/echo\ntest_cases: [{name: t1}]\n"))).toEqual([
      { message: NO_PROMPTS, path: "prompts", line: null },
    ]);
    expect(errors(parseEvalConfig("model: mock/echo\nprompts: []\ntest_cases: [{name: t1}]\n"))).toEqual([
      { message: "No prompts found in config!", path: "prompts", line: 2 },
    ]);
    expect(errors(parseEvalConfig("model: mock/echo\nprompts: [p.yaml]\ntest_cases:\n"))).toEqual([
      { message: "No test cases found in config!", path: "test_cases", line: 3 },
    ]);
    expect(errors(parseEvalConfig("")).map((problem) => problem.message)).toEqual([
      "model is required (or give one with -m)",
      NO_PROMPTS,
      NO_TEST_CASES,
    ]);
  });

  it("give invalid YAML's line number", () => {
    const [problem] = errors(parseEvalConfig("model: mock/echo\nprompts: [p.yaml\ntest_cases: {name: t1}\n"));
    expect(problem.line).toBe(3);
    expect(problem.message).toMatch(/^Invalid YAML at line 3, column 1: /);
    expect(formatConfigProblem(problem, "configs/eval.yaml")).toMatch(/^configs\/eval\.yaml, line 3: Invalid YAML at line 3, column 1: /);
    const [duplicate] = errors(parseEvalConfig("model: a\nmodel: b\n"));
    expect(duplicate).toMatchObject({
      line: 2,
      message: expect.stringMatching(/^Invalid YAML at line 2, column 1: Map keys must be unique/),
    });
    expect(errors(parseEvalConfig('{"model": "x"', { fileName: "eval.json" }))[0].message).toMatch(/^Invalid JSON at line 1/);
  });

  it("name a missing field by its path, on the line of what lacks it", () => {
    const result = parseEvalConfig(`model: mock/echo
prompts:
  - name: p1
    template: "{text}"
  - template: "{text}"
test_cases:
  - name: t1
  - inputs: {text: x}
    tags: [basic]
metrics:
  - type: llm_judge
  - max_words: 3
`);
    expect(errors(result)).toEqual([
      { message: "prompts[1].name is required", path: "prompts[1].name", line: 5 },
      { message: "test_cases[1].name is required", path: "test_cases[1].name", line: 8 },
      { message: "metrics[0].criteria is required", path: "metrics[0].criteria", line: 11 },
      { message: "metrics[1].type is required", path: "metrics[1].type", line: 12 },
    ]);
  });

  it("name a wrong type or a value out of bounds, with its line", () => {
    const result = parseEvalConfig(`model: mock/echo
max_tokens: lots
temperature: 3
evaluation_threshold: 1.5
repeat: 0
prompts: [p.yaml, 42]
test_cases:
  - name: t1
    inputs: [a, b]
    expected_contains: keyword
  - name: t1
metrics:
  - type: contain
  - type: response_length
    min_words: 10
    max_words: 5
  - type: exact_match
    strip: "yes"
`);
    expect(errors(result)).toEqual([
      { message: 'max_tokens must be a whole number from 1 to 1000000, not "lots"', path: "max_tokens", line: 2 },
      { message: 'temperature must be a number from 0 to 2, not "3"', path: "temperature", line: 3 },
      { message: 'evaluation_threshold must be a number from 0 to 1, not "1.5"', path: "evaluation_threshold", line: 4 },
      { message: 'repeat must be a whole number from 1 to 100, not "0"', path: "repeat", line: 5 },
      { message: "prompts[1] must be a prompt file's path or an inline prompt (name, template, ...)", path: "prompts[1]", line: 6 },
      { message: "test_cases[0].inputs must be a mapping of variable names to values", path: "test_cases[0].inputs", line: 9 },
      { message: "test_cases[0].expected_contains must be a list of strings", path: "test_cases[0].expected_contains", line: 10 },
      {
        message: `test_cases[1].name "t1" is also test_cases[0]'s name; each test case needs its own`,
        path: "test_cases[1].name",
        line: 11,
      },
      {
        message: 'metrics[0].type "contain" is not a metric; the metrics are contains, response_length, llm_judge, exact_match',
        path: "metrics[0].type",
        line: 13,
      },
      { message: "metrics[1]: min_words 10 is above max_words 5, so no output could pass", path: "metrics[1].max_words", line: 16 },
      { message: 'metrics[2].strip must be true or false, not "yes"', path: "metrics[2].strip", line: 18 },
    ]);
  });

  it("refuse a template Python's str.format would refuse, at the template's line", () => {
    const result = parseEvalConfig(`model: mock/echo
prompts:
  - name: p1
    template: "Answer in JSON: {\\"answer\\": {text}}"
test_cases: [{name: t1}]
`);
    expect(errors(result)).toEqual([
      {
        message: `prompts[0].template: Format spec ': {text}' in {"answer": {text}} is not supported; write {"answer"} alone, or {{ and }} for literal braces`,
        path: "prompts[0].template",
        line: 4,
      },
    ]);
  });

  it("quote the model rule for a model no provider serves, and refuse model and models together", () => {
    const base = "prompts: [p.yaml]\ntest_cases: [{name: t1}]\n";
    expect(errors(parseEvalConfig(`model: llama3\n${base}`, { providerIds }))).toEqual([
      { message: `model: Model "llama3" has no provider: ${MODEL_NAME_RULE}`, path: "model", line: 1 },
    ]);
    expect(errors(parseEvalConfig(`models: [mock/echo, acme/x]\n${base}`, { providerIds }))[0]).toMatchObject({
      path: "models[1]",
      line: 1,
      message: expect.stringContaining('unknown provider "acme"'),
    });
    expect(errors(parseEvalConfig(base, { modelOverride: "llama3", providerIds }))[0].message).toBe(
      `-m: Model "llama3" has no provider: ${MODEL_NAME_RULE}`,
    );
    expect(errors(parseEvalConfig(`model: mock/echo\nmodels: [mock/echo]\n${base}`))[0]).toMatchObject({ path: "models", line: 2 });
  });

  it("bound what a config may ask for", () => {
    const cases = Array.from({ length: 10_001 }, (_, index) => `  - name: t${index}`).join("\n");
    expect(errors(parseEvalConfig(`model: mock/echo\nprompts: [p.yaml]\ntest_cases:\n${cases}\n`))[0].message).toBe(
      "test_cases lists 10001 cases; at most 10000 run in one eval",
    );
    expect(errors(parseEvalConfig("x".repeat(5_000_001)))[0].message).toBe("The file is larger than 5000000 characters");
    // A few aliases that would expand to a billion values.
    const bomb = [
      "a: &a [x, x, x, x, x, x, x, x, x, x]",
      ...Array.from({ length: 8 }, (_, level) => {
        const name = String.fromCharCode(98 + level);
        const previous = String.fromCharCode(97 + level);
        return `${name}: &${name} [${Array(10).fill(`*${previous}`).join(", ")}]`;
      }),
    ].join("\n");
    const result = parseEvalConfig(`model: mock/echo\nprompts: [p.yaml]\n${bomb}\ntest_cases:\n  - name: t1\n    inputs: {v: *i}\n`);
    expect(errors(result)[0].message).toBe("The file holds more than 200000 values (aliases expanded)");
  });
});

describe("parseEvalConfig's warnings", () => {
  it("name unknown keys and where they are, and change nothing else", () => {
    const result = parseEvalConfig(`model: mock/echo
temprature: 0.7
prompts: [p.yaml]
test_cases:
  - name: t1
    expected_contain: [x]
metrics:
  - type: contains
    threshhold: 0.9
`);
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        message:
          'Unknown key "temprature" is ignored (known keys: model, models, max_tokens, temperature, evaluation_threshold, repeat, prompts, test_cases, metrics)',
        path: "temprature",
        line: 2,
      },
      {
        message:
          'Unknown key "expected_contain" in test_cases[0] is ignored (known keys: name, inputs, expected_contains, expected_not_contains, tags, expected_output)',
        path: "test_cases[0].expected_contain",
        line: 6,
      },
      {
        message: 'Unknown key "threshhold" in metrics[0] is ignored (known keys: type, case_sensitive, threshold)',
        path: "metrics[0].threshhold",
        line: 9,
      },
    ]);
    expect(config(result).temperature).toBe(0);
  });

  it("say when exact_match has no expected_output to compare with, and when a metric is doubled", () => {
    const result = parseEvalConfig(`model: mock/echo
prompts: [p.yaml]
test_cases:
  - name: t1
    expected_output: Paris
  - name: t2
metrics:
  - type: exact_match
  - type: exact_match
`);
    expect(result.warnings.map((problem) => [problem.line, problem.message])).toEqual([
      [9, "metrics[1] is a second exact_match metric: its scores are named exact_match_2"],
      [6, "Test case t2 has no expected_output, so exact_match scores it 0.0"],
    ]);
  });
});
