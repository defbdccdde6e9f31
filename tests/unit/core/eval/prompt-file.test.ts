import { describe, expect, it } from "vitest";
import { parsePromptFile } from "@/lib/core/eval/prompt-file";

// A prompt file like the spec's prompts/summarizer_v1.yaml, with the fields of its inline example.
const SUMMARIZER = `name: summarizer_v1
description: "A custom prompt"
version: "1.0"
system: "You are a helpful assistant."
template: |
  Summarize this in {max_sentences} sentences:

  {text}
`;

describe("parsePromptFile", () => {
  it("reads name, description, version, system and template", () => {
    expect(parsePromptFile(SUMMARIZER, { fileName: "prompts/summarizer_v1.yaml" })).toEqual({
      ok: true,
      prompt: {
        name: "summarizer_v1",
        description: "A custom prompt",
        version: "1.0",
        system: "You are a helpful assistant.",
        template: "Summarize this in {max_sentences} sentences:\n\n{text}\n",
      },
      warnings: [],
    });
  });

  it("keeps an unquoted version as written and fills what is optional", () => {
    const parsed = parsePromptFile("name: p\nversion: 2.10\ntemplate: 'Answer: {question}'\n");
    expect(parsed).toEqual({
      ok: true,
      prompt: { name: "p", description: "", version: "2.10", system: null, template: "Answer: {question}" },
      warnings: [],
    });
  });

  it("reads a JSON prompt file", () => {
    const parsed = parsePromptFile(JSON.stringify({ name: "p", template: "{{literal}} {x}" }), { fileName: "p.json" });
    expect(parsed.ok && parsed.prompt.template).toBe("{{literal}} {x}");
  });

  it("names a missing or empty field by its path", () => {
    expect(parsePromptFile("name: p\nsystem: s\n")).toEqual({
      ok: false,
      errors: [{ message: "template is required", path: "template", line: 1 }],
      warnings: [],
    });
    expect(parsePromptFile("name: ''\ntemplate: [a]\n")).toEqual({
      ok: false,
      errors: [
        { message: "name is empty", path: "name", line: 1 },
        { message: "template must be text, not a list", path: "template", line: 2 },
      ],
      warnings: [],
    });
    expect(parsePromptFile("- a\n- b\n")).toMatchObject({
      ok: false,
      errors: [{ message: "A prompt must be a mapping with name and template" }],
    });
  });

  it("gives invalid YAML's line number", () => {
    const parsed = parsePromptFile("name: p\ntemplate: 'open\n");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors[0].message).toMatch(/^Invalid YAML at line \d, column \d+: /);
  });

  it("refuses a template Python's str.format refuses, at its line", () => {
    expect(parsePromptFile("name: p\ntemplate: 'Reply as {{\"a\": {x}}'\n")).toEqual({
      ok: false,
      errors: [{ message: "template: Single '}' encountered in format string", path: "template", line: 2 }],
      warnings: [],
    });
    expect(parsePromptFile("name: p\ntemplate: 'Fill in {}'\n")).toMatchObject({
      ok: false,
      errors: [{ message: "template: Replacement index 0 out of range for positional args tuple" }],
    });
  });

  it("warns of an unknown key, naming it", () => {
    const parsed = parsePromptFile("name: p\ntemplate: x\nsytem: oops\n");
    expect(parsed.ok).toBe(true);
    expect(parsed.warnings).toEqual([
      { message: 'Unknown key "sytem" is ignored (known keys: name, description, version, system, template)', path: "sytem", line: 3 },
    ]);
  });
});
