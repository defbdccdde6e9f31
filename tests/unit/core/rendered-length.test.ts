import { describe, expect, it } from "vitest";
import { renderedLength, templateShape, valueLengthsOf } from "@/lib/core/rendered-length";
import { renderTemplate, type TemplateValue } from "@/lib/core/template";
import { countCodePoints, estimateTokens, estimateTokensFromLength } from "@/lib/core/tokens";

const lengthOf = (template: string, row: Record<string, TemplateValue>) => renderedLength(templateShape(template), valueLengthsOf(row));
const actual = (template: string, row: Record<string, TemplateValue>) => countCodePoints(renderTemplate(template, row).text);

describe("renderedLength", () => {
  it("is the template's length minus its placeholders plus the values' lengths", () => {
    expect(lengthOf("Hello {{name}}!", { name: "Ada" })).toBe("Hello Ada!".length);
    expect(templateShape("Hello {{name}}!")).toEqual({
      fixedLength: 7,
      variables: [{ name: "name", occurrences: 1, placeholderLength: 8 }],
    });
  });

  it("inserts a value once per placeholder naming it, whatever the spacing inside the braces", () => {
    const template = "{{ a }} and {{a}} and {{b}}";
    const row = { a: "xyz", b: "" };
    expect(lengthOf(template, row)).toBe(actual(template, row));
    expect(lengthOf(template, row)).toBe("xyz and xyz and ".length);
  });

  it("keeps the placeholders of variables without a value, as renderTemplate does", () => {
    for (const row of [{}, { a: null }, { a: undefined }, { b: "1" }] as Array<Record<string, TemplateValue>>) {
      expect(lengthOf("<{{a}}> <{{ a }}> {{b}}", row)).toBe(actual("<{{a}}> <{{ a }}> {{b}}", row));
    }
    // an inherited property is no value: {{constructor}} stays
    expect(lengthOf("{{constructor}}", {})).toBe("{{constructor}}".length);
  });

  it("counts code points, as the token estimate and Postgres's length() do", () => {
    const template = "😀 {{x}} é日本語";
    const row = { x: "😀😀", y: "unused" };
    expect(lengthOf(template, row)).toBe(actual(template, row));
    expect(lengthOf(template, row)).toBe(9);
    expect(estimateTokensFromLength(lengthOf(template, row))).toBe(estimateTokens(renderTemplate(template, row).text));
  });

  it("renders numbers and booleans as String() does", () => {
    expect(lengthOf("{{n}}{{t}}", { n: 12.5, t: false })).toBe("12.5false".length);
  });

  it("agrees with renderTemplate on generated templates and rows", () => {
    // a seeded generator: the same cases every run
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
    const pieces = ["text ", "{{a}}", "{{ b }}", "{{a}}", "{{c.d}}", "{{1}}", "{ {a} }", "{{", "}}", "😀", "\n", "{{ unknown }}"];
    const values: TemplateValue[] = ["", "v", "{{a}}", "😀x", null, undefined, 3, true];
    for (let k = 0; k < 500; k++) {
      const template = Array.from({ length: Math.floor(random() * 8) }, () => pick(pieces)).join("");
      const row: Record<string, TemplateValue> = {};
      for (const name of ["a", "b", "c.d"]) if (random() < 0.8) row[name] = pick(values);
      expect(lengthOf(template, row), `${JSON.stringify(template)} with ${JSON.stringify(row)}`).toBe(actual(template, row));
    }
  });

  it("reads a megabyte template without building the rendered text", () => {
    const template = `${"x".repeat(1_000_000)}{{doc}}`;
    const shape = templateShape(template);
    expect(renderedLength(shape, () => 4_000_000)).toBe(5_000_000);
  });
});
