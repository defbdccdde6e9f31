import { describe, it, expect } from "vitest";
import { formatMockResponse, pythonDictRepr, pythonRepr } from "@/lib/core/mock-response";

describe("pythonRepr", () => {
  // Expected values were produced by Python 3's repr().
  it.each([
    ["Wikipedia", "'Wikipedia'"],
    ["", "''"],
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ["back\\slash", "'back\\\\slash'"],
    ["tab\there\nnew\rret", "'tab\\there\\nnew\\rret'"],
    ["\x00\x1b\x7f", "'\\x00\\x1b\\x7f'"],
    ["\x85\xa0é", "'\\x85\\xa0é'"],
    ["\u200b\u2028", "'\\u200b\\u2028'"],
    ["😀 日本", "'😀 日本'"],
    ["\u{e0001}", "'\\U000e0001'"],
    ["\ud800", "'\\ud800'"],
  ])("repr(%j) is %s", (value, expected) => {
    expect(pythonRepr(value)).toBe(expected);
  });
});

describe("pythonDictRepr", () => {
  it("writes an empty dict as {}", () => {
    expect(pythonDictRepr({})).toBe("{}");
  });

  it("writes entries in insertion order, separated like Python", () => {
    expect(pythonDictRepr({ source: "Wikipedia", topic: "AI" })).toBe("{'source': 'Wikipedia', 'topic': 'AI'}");
    expect(pythonDictRepr({ topic: "AI", source: "Wikipedia" })).toBe("{'topic': 'AI', 'source': 'Wikipedia'}");
  });

  it("quotes keys and values with Python's rules", () => {
    expect(pythonDictRepr({ "it's": "x\ny" })).toBe(`{"it's": 'x\\ny'}`);
  });
});

describe("formatMockResponse", () => {
  it("echoes the input in the spec's format", () => {
    const input = "Summarize the following information from Wikipedia:\n\nThe topic is AI.";
    expect(formatMockResponse({ model: "mock", variables: { source: "Wikipedia", topic: "AI" }, input })).toBe(
      [
        "MOCK RESPONSE",
        "Input tokens: 17",
        "Model: mock",
        "Variables: {'source': 'Wikipedia', 'topic': 'AI'}",
        "--- Original Input ---",
        "Summarize the following information from Wikipedia:\n\nThe topic is AI.",
      ].join("\n"),
    );
  });

  it("shows the model it was given and an empty dict when there are no variables", () => {
    expect(formatMockResponse({ model: "mock-large", variables: {}, input: "" })).toBe(
      "MOCK RESPONSE\nInput tokens: 0\nModel: mock-large\nVariables: {}\n--- Original Input ---\n",
    );
  });

  it("counts input tokens in code points", () => {
    expect(formatMockResponse({ model: "mock", variables: {}, input: "😀😀😀😀😀😀😀😀" })).toContain("Input tokens: 2\n");
  });
});
