import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Parser } from "commonmark";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { comparisonGroups } from "@/lib/formats/matrix/comparison-groups";
import { COMPARISON_FILE_NAME, comparisonMarkdown } from "@/lib/formats/matrix/comparison-markdown";
import { comparisonEntryFromMarkdown, comparisonIndexEntry, indexMarkdown } from "@/lib/formats/matrix/index-markdown";
import { matrix, models } from "./records";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "matrix-index-"));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The link destinations of a markdown text, as a CommonMark parser reads them. */
function links(markdown: string): Array<{ destination: string; text: string }> {
  const found: Array<{ destination: string; text: string }> = [];
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event; event = walker.next()) {
    if (!event.entering || event.node.type !== "link") continue;
    let text = "";
    for (let child = event.node.firstChild; child; child = child.next) text += child.literal ?? "";
    found.push({ destination: event.node.destination ?? "", text });
  }
  return found;
}

/** Writes a batch's comparisons into the folder as the CLI lays them out, and returns their index entries. */
function writeBatch(batchTimestamp: string, timestamp: string, runs: Parameters<typeof comparisonGroups>[0]["runs"]) {
  const groups = comparisonGroups({ runs, batchTimestamp, timestamp });
  for (const group of groups) {
    mkdirSync(join(folder, group.folder), { recursive: true });
    writeFileSync(join(folder, group.folder, COMPARISON_FILE_NAME), comparisonMarkdown(group));
  }
  return groups.map(comparisonIndexEntry);
}

describe("indexMarkdown", () => {
  it("lists every comparison, newest first, each link resolving to its file", () => {
    const older = writeBatch(
      "20251227_143500",
      "2025-12-27T14:35:00Z",
      matrix(["v1", "v2"], [models.llama, models.mixtral], ["tech-talk-01", "interview-02"]),
    );
    const odd = {
      name: "openrouter/meta-llama/llama 3",
      provider: "openrouter",
      model: "meta-llama/llama 3",
      label: "openrouter/meta-llama/llama 3",
    };
    const newer = writeBatch("20251228_090000", "2025-12-28T09:00:00Z", matrix(["v1", "summary@v3"], [models.echo, odd], ["tutorial_03"]));
    const markdown = indexMarkdown({ entries: [...older, ...newer], generatedAt: "2025-12-28T09:01:00Z" });
    writeFileSync(join(folder, "index.md"), markdown);

    expect(markdown.startsWith("# Eval Comparisons\n\nGenerated: 2025-12-28T09:01:00Z\n\n## Prompt Comparisons\n\n")).toBe(true);
    const found = links(markdown);
    expect(found).toHaveLength(older.length + newer.length);
    for (const link of found) {
      expect(link.destination.startsWith("./")).toBe(true);
      const target = resolve(dirname(join(folder, "index.md")), decodeURIComponent(link.destination));
      expect(existsSync(target), `${link.destination} resolves`).toBe(true);
    }
    // Every comparison written is linked.
    const linked = new Set(found.map((link) => decodeURIComponent(link.destination).split("/")[1]));
    expect([...linked].sort()).toEqual(
      readdirSync(folder)
        .filter((name) => name !== "index.md")
        .sort(),
    );

    const promptLinks = found.slice(0, 6).map((link) => link.text);
    expect(promptLinks).toEqual([
      "tutorial_03: summary@v3 vs v1 (mock/echo)",
      "tutorial_03: summary@v3 vs v1 (openrouter/meta-llama/llama 3)",
      "interview-02: v1 vs v2 (llama-3.3-70b-versatile)",
      "interview-02: v1 vs v2 (mixtral-8x7b-32768)",
      "tech-talk-01: v1 vs v2 (llama-3.3-70b-versatile)",
      "tech-talk-01: v1 vs v2 (mixtral-8x7b-32768)",
    ]);
    expect(markdown).toContain(
      "- [tech-talk-01: v1 vs v2 (llama-3.3-70b-versatile)](./20251227_143500_prompt_tech-talk-01_llama-3.3-70b/comparison.md)",
    );
    expect(markdown).toContain("## Model Comparisons\n\n- [tutorial\\_03: mock/echo vs openrouter/meta-llama/llama 3 (summary@v3)]");
    expect(markdown).toContain("- [tech-talk-01: llama-3.3-70b vs mixtral (v1)](./20251227_143500_model_tech-talk-01_v1/comparison.md)");
  });

  it("rebuilds the same index from the comparison files' front matter", () => {
    const entries = [
      ...writeBatch("20251227_143500", "2025-12-27T14:35:00Z", matrix(["v1", "v2"], [models.llama, models.mixtral], ["tech-talk-01"])),
      ...writeBatch("20251228_090000", "2025-12-28T09:00:00Z", matrix(["1.0", "v2"], [models.echo], ["a"])),
    ];
    const readBack = readdirSync(folder).map((name) =>
      comparisonEntryFromMarkdown(name, readFileSync(join(folder, name, COMPARISON_FILE_NAME), "utf8")),
    );
    expect(readBack.every((entry) => entry !== null)).toBe(true);
    const generatedAt = "2025-12-28T09:01:00Z";
    expect(indexMarkdown({ entries: readBack.filter((entry) => entry !== null), generatedAt })).toBe(
      indexMarkdown({ entries, generatedAt }),
    );
  });

  it("skips a file without a comparison's front matter", () => {
    expect(comparisonEntryFromMarkdown("x", "# Notes\n")).toBeNull();
    expect(comparisonEntryFromMarkdown("x", "---\ncomparison_type: other\n---\n")).toBeNull();
    expect(comparisonEntryFromMarkdown("x", "---\n: : [\n---\n")).toBeNull();
  });

  it("handles an empty batch: both headings, no links", () => {
    const markdown = indexMarkdown({ entries: [], generatedAt: "2025-12-27T14:40:00Z" });
    expect(markdown).toBe(
      "# Eval Comparisons\n\nGenerated: 2025-12-27T14:40:00Z\n\n## Prompt Comparisons\n\nNone yet.\n\n## Model Comparisons\n\nNone yet.\n",
    );
    expect(links(markdown)).toEqual([]);
  });
});
