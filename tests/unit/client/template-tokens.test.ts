import { describe, it, expect } from "vitest";
import { templateTokens } from "@/components/editor/template-tokens";

function kinds(text: string) {
  return templateTokens(text).map((token) => [token.kind, text.slice(token.from, token.to)]);
}

describe("templateTokens", () => {
  it("finds variables, opening and closing tags and the word json, in order", () => {
    expect(kinds("Answer {{question}} in <response>JSON</response>.")).toEqual([
      ["variable", "{{question}}"],
      ["tag", "<response>"],
      ["json", "JSON"],
      ["tag", "</response>"],
    ]);
  });

  it("names the variable without braces or spaces", () => {
    expect(templateTokens("{{ topic }}")).toEqual([{ kind: "variable", from: 0, to: 11, name: "topic" }]);
  });

  it("matches json only as a whole word, in any case", () => {
    expect(kinds("Json, jsonl, myjson, JSON.parse, json_x")).toEqual([
      ["json", "Json"],
      ["json", "JSON"],
    ]);
  });

  it("accepts tags with attributes and self-closing tags", () => {
    expect(kinds('<example id="1"> <br/> <ns:item>')).toEqual([
      ["tag", '<example id="1">'],
      ["tag", "<br/>"],
      ["tag", "<ns:item>"],
    ]);
  });

  it("leaves comparisons and empty brackets alone", () => {
    expect(kinds("if a < b and c > d, or <> or < tag>")).toEqual([]);
  });

  it("keeps a variable inside a tag's attribute visible as a variable", () => {
    expect(kinds('<doc title="{{title}}">')).toEqual([["variable", "{{title}}"]]);
  });

  it("does not take {{1}} as a variable", () => {
    expect(kinds("{{1}}")).toEqual([]);
  });
});
