import { describe, expect, it } from "vitest";
import {
  checkTemplate,
  formatTemplate,
  PythonFloat,
  pythonFloatRepr,
  templateVariables,
  type PythonValue,
} from "@/lib/core/eval/format-template";

// Every expected string below was produced by Python 3.11's str.format(**inputs) with these
// inputs (1.0 is a float there, so it is PythonFloat here), or is the message Python raised.
const inputs: Record<string, PythonValue> = {
  text: "Python is...",
  max_sentences: 2,
  flag: true,
  nothing: null,
  ratio: new PythonFloat(1),
  items: ["a", 1, null, false, 2.5],
  mapping: { k: "it's", n: [1, 2] },
  unicode: "é€😀",
  big: new PythonFloat(1e16),
  small: 1e-5,
  quote: 'say "hi"',
};

describe("formatTemplate renders as Python's str.format", () => {
  it.each([
    ["Summarize this in {max_sentences} sentences:\n\n{text}", "Summarize this in 2 sentences:\n\nPython is..."],
    ["{flag} {nothing} {ratio}", "True None 1.0"],
    ["{items}", "['a', 1, None, False, 2.5]"],
    ["{mapping}", `{'k': "it's", 'n': [1, 2]}`],
    ["{{literal}} {{{text}}}", "{literal} {Python is...}"],
    ["}}{{", "}{"],
    ["no fields at all", "no fields at all"],
    ["{items[0]} {items[4]}", "a 2.5"],
    ["{mapping[k]} {mapping[n][1]}", "it's 2"],
    ["{text!r} {quote!r} {unicode!a} {ratio!s}", `'Python is...' 'say "hi"' '\\xe9\\u20ac\\U0001f600' 1.0`],
    ["{big} {small}", "1e+16 1e-05"],
    ["{unicode[2]}", "😀"],
    ["{items!r:}", "['a', 1, None, False, 2.5]"],
  ])("%j", (template, expected) => {
    expect(checkTemplate(template)).toBeNull();
    expect(formatTemplate(template, inputs, "basic")).toBe(expected);
  });

  it("inserts a value holding braces as it is, never formatting it again", () => {
    expect(formatTemplate("{a}", { a: "{text} }{" }, "basic")).toBe("{text} }{");
  });

  it("names the variable and the test case when an input is missing, as the spec words it", () => {
    expect(() => formatTemplate("Answer: {question}", { text: "x" }, "basic_question")).toThrow(
      "Missing input variable question in test case basic_question",
    );
    // Python looks the name up as written, spaces included.
    expect(() => formatTemplate("{ text }", inputs, "t1")).toThrow("Missing input variable  text  in test case t1");
    // Own keys only: a template naming Object.prototype's members is not filled from it.
    expect(() => formatTemplate("{constructor}", {}, "t1")).toThrow("Missing input variable constructor in test case t1");
  });

  it.each([
    ["{items[9]}", "IndexError: list index out of range in {items[9]} in test case t1"],
    ["{mapping[zz]}", "KeyError: 'zz' in {mapping[zz]} in test case t1"],
    ["{nothing[0]}", "TypeError: 'NoneType' object is not subscriptable in {nothing[0]} in test case t1"],
    ["{items[k]}", "TypeError: list indices must be integers or slices, not str in {items[k]} in test case t1"],
  ])("reports a lookup that fails on these inputs in Python's words: %s", (template, message) => {
    expect(checkTemplate(template)).toBeNull();
    expect(() => formatTemplate(template, inputs, "t1")).toThrow(message);
  });
});

describe("checkTemplate", () => {
  it.each([
    ["}", "Single '}' encountered in format string"],
    ["text }", "Single '}' encountered in format string"],
    ["{", "Single '{' encountered in format string"],
    ["{text", "expected '}' before end of string"],
    ["{text!", "end of string while looking for conversion specifier"],
    ["{text!r", "unmatched '{' in format spec"],
    ["{text!x}", "Unknown conversion specifier x"],
    ["{text!rx}", "expected ':' after conversion specifier"],
    ["{text[0]x}", "Only '.' or '[' may follow ']' in format field specifier"],
    ["{text.}", "Empty attribute in format string"],
    ["{te{xt}", "unexpected '{' in field name"],
    ["{text[}", "expected '}' before end of string"],
    ["{}", "Replacement index 0 out of range for positional args tuple"],
    ["{0}", "Replacement index 0 out of range for positional args tuple"],
    ["{01}", "Replacement index 1 out of range for positional args tuple"],
  ])("reports %j as Python does", (template, message) => {
    expect(checkTemplate(template)).toBe(message);
    expect(() => formatTemplate(template, inputs, "t1")).toThrow(message);
  });

  it("refuses a format spec and attribute access rather than render them unlike Python", () => {
    expect(checkTemplate("{text:>20}")).toBe(
      "Format spec ':>20' in {text:>20} is not supported; write {text} alone, or {{ and }} for literal braces",
    );
    expect(checkTemplate("{text.upper}")).toBe("Attribute access in {text.upper} is not supported; write text[key] for a key of a mapping");
  });

  it("reads a ']' inside brackets as part of the key, as Python does", () => {
    expect(checkTemplate("{a[}]}")).toBeNull();
    expect(formatTemplate("{a[}]}", { a: { "}": 1 } }, "t1")).toBe("1");
  });
});

describe("templateVariables", () => {
  it("lists each input name once, in order of first use, without escaped braces", () => {
    expect(templateVariables("{{x}} {text} {mapping[k]} {text!r} {max_sentences}")).toEqual(["text", "mapping", "max_sentences"]);
  });
});

describe("pythonFloatRepr", () => {
  it.each([
    [0.1, "0.1"],
    [1 / 3, "0.3333333333333333"],
    [1e15, "1000000000000000.0"],
    [1e16, "1e+16"],
    [123456789.12345679, "123456789.12345679"],
    [1e-4, "0.0001"],
    [0.00012, "0.00012"],
    [1e-5, "1e-05"],
    [1.5e300, "1.5e+300"],
    [-2.5e-7, "-2.5e-07"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [100, "100.0"],
    [-0, "-0.0"],
    [Infinity, "inf"],
    [-Infinity, "-inf"],
    [NaN, "nan"],
  ])("repr(%d) is %s", (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });
});
