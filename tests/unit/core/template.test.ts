import { describe, it, expect } from "vitest";
import { detectVariables, missingVariableWarning, renderTemplate } from "@/lib/core/template";

describe("detectVariables", () => {
  it("lists each placeholder once, in order of first appearance", () => {
    expect(detectVariables("Summarize {{topic}} from {{source}}; again {{topic}}.")).toEqual(["topic", "source"]);
  });

  it("accepts whitespace inside the braces", () => {
    expect(detectVariables("{{ name }} and {{\tother\t}} and {{name}}")).toEqual(["name", "other"]);
  });

  it("accepts letters, digits, underscore, dash and dot in names", () => {
    expect(detectVariables("{{user_name}} {{first-name}} {{row.topic}} {{v2}} {{_private}}")).toEqual([
      "user_name",
      "first-name",
      "row.topic",
      "v2",
      "_private",
    ]);
  });

  it("accepts non-ASCII letters", () => {
    expect(detectVariables("{{thème}} {{名前}}")).toEqual(["thème", "名前"]);
  });

  it("ignores names starting with a digit and malformed braces", () => {
    expect(detectVariables("{{1st}} {{}} {{ }} {single} {{two words}} {{a/b}} {{open")).toEqual([]);
  });

  it("finds a placeholder wrapped in extra braces", () => {
    expect(detectVariables("{{{name}}}")).toEqual(["name"]);
  });

  it("returns an empty list for text without placeholders", () => {
    expect(detectVariables("")).toEqual([]);
    expect(detectVariables("plain text")).toEqual([]);
  });

  it("gives the same answer on repeated calls (no shared regex state)", () => {
    const text = "{{a}} {{b}}";
    expect(detectVariables(text)).toEqual(["a", "b"]);
    expect(detectVariables(text)).toEqual(["a", "b"]);
  });
});

describe("renderTemplate", () => {
  it("replaces every occurrence of each present variable", () => {
    const result = renderTemplate("Summarize the following information from {{source}}:\n\nThe topic is {{ topic }}. {{source}}!", {
      source: "Wikipedia",
      topic: "AI",
    });
    expect(result).toEqual({
      text: "Summarize the following information from Wikipedia:\n\nThe topic is AI. Wikipedia!",
      missing: [],
    });
  });

  it("leaves missing placeholders unchanged, exactly as written, and lists each once in order", () => {
    const result = renderTemplate("{{ b }} {{a}} {{b}} {{c}} {{a}}", { c: "C" });
    expect(result.text).toBe("{{ b }} {{a}} {{b}} C {{a}}");
    expect(result.missing).toEqual(["b", "a"]);
  });

  it("treats null and undefined as missing but keeps empty strings", () => {
    const result = renderTemplate("[{{a}}][{{b}}][{{c}}]", { a: null, b: undefined, c: "" });
    expect(result.text).toBe("[{{a}}][{{b}}][]");
    expect(result.missing).toEqual(["a", "b"]);
  });

  it("writes numbers and booleans as text", () => {
    expect(renderTemplate("{{n}} {{zero}} {{yes}} {{no}}", { n: 3.5, zero: 0, yes: true, no: false }).text).toBe("3.5 0 true false");
  });

  it("does not expand placeholders inside inserted values (single pass)", () => {
    const result = renderTemplate("{{a}} / {{b}}", { a: "{{b}}", b: "{{a}}" });
    expect(result).toEqual({ text: "{{b}} / {{a}}", missing: [] });
  });

  it("inserts values containing $ sequences literally", () => {
    expect(renderTemplate("{{price}}", { price: "$& $1 $$" }).text).toBe("$& $1 $$");
  });

  it("does not take values from Object.prototype", () => {
    const result = renderTemplate("{{constructor}} {{toString}}", {});
    expect(result.text).toBe("{{constructor}} {{toString}}");
    expect(result.missing).toEqual(["constructor", "toString"]);
  });

  it("leaves text without placeholders alone", () => {
    expect(renderTemplate("no {braces} here {{1}}", { 1: "x" })).toEqual({ text: "no {braces} here {{1}}", missing: [] });
  });
});

describe("missingVariableWarning", () => {
  it("uses the spec's wording", () => {
    expect(missingVariableWarning("topic", 3)).toBe("Variable {{topic}} in template has no value in experiment row 3");
  });
});
