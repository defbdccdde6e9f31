import { describe, expect, it } from "vitest";
import { filterPromptRange, parsePromptSet } from "@/lib/core/batch/prompts";

describe("batch prompt sets", () => {
  it("reads .txt one prompt a line, numbering prompts not lines", () => {
    const prompts = parsePromptSet("# header\n\nramen\n  \n# x\nsushi\r\ntacos\n", "p.txt");
    expect(prompts.map((p) => [p.id, p.prompt])).toEqual([
      ["p-0001", "ramen"],
      ["p-0002", "sushi"],
      ["p-0003", "tacos"],
    ]);
  });

  it("reads .csv with its own id winning, metadata JSON and extra columns kept", () => {
    const csv = 'prompt,id,metadata,style\nramen,hero,"{""k"":1}",glossy\nsushi,,,matte\n';
    const prompts = parsePromptSet(csv, "p.csv");
    expect(prompts).toEqual([
      { id: "hero", prompt: "ramen", metadata: { k: 1, style: "glossy" } },
      { id: "p-0002", prompt: "sushi", metadata: { style: "matte" } },
    ]);
  });

  it("refuses a duplicate id, a missing prompt column and bad metadata, naming the file", () => {
    expect(() => parsePromptSet("prompt,id\na,x\nb,x\n", "d.csv")).toThrow(/d\.csv.*"x" appears twice/);
    expect(() => parsePromptSet("text\na\n", "m.csv")).toThrow(/m\.csv.*"prompt"/);
    expect(() => parsePromptSet("prompt,metadata\na,[1]\n", "j.csv")).toThrow(/j\.csv, row 2, key "metadata"/);
  });

  it("filters --prompt-range 3-10 by position", () => {
    const prompts = parsePromptSet(Array.from({ length: 12 }, (_, i) => `p${i + 1}`).join("\n"), "p.txt");
    const picked = filterPromptRange(prompts, "3-10");
    expect(picked.map((p) => p.id)).toEqual(Array.from({ length: 8 }, (_, i) => `p-${String(i + 3).padStart(4, "0")}`));
    expect(() => filterPromptRange(prompts, "10-3")).toThrow(/empty/);
    expect(() => filterPromptRange(prompts, "x")).toThrow(/FROM-TO/);
  });
});
