import { describe, expect, it } from "vitest";
import { diffLines, foldUnchangedLines, type DiffLine } from "@/lib/core/line-diff";

/** The diff as compact strings: "  a" kept, "+ b" added, "- c" removed. */
function render(lines: DiffLine[]): string[] {
  return lines.map((line) => `${line.kind === "same" ? " " : line.kind === "added" ? "+" : "-"} ${line.text}`);
}

/** The text each side of the diff describes, rebuilt from its lines. */
function sides(lines: DiffLine[]): { before: string; after: string } {
  return {
    before: lines
      .filter((line) => line.kind !== "added")
      .map((line) => line.text)
      .join("\n"),
    after: lines
      .filter((line) => line.kind !== "removed")
      .map((line) => line.text)
      .join("\n"),
  };
}

describe("diffLines", () => {
  it("keeps identical texts as unchanged lines with both line numbers", () => {
    expect(diffLines("a\nb", "a\nb")).toEqual([
      { kind: "same", text: "a", beforeLine: 1, afterLine: 1 },
      { kind: "same", text: "b", beforeLine: 2, afterLine: 2 },
    ]);
  });

  it("marks an inserted line and shifts the later after-line numbers", () => {
    expect(diffLines("a\nc", "a\nb\nc")).toEqual([
      { kind: "same", text: "a", beforeLine: 1, afterLine: 1 },
      { kind: "added", text: "b", beforeLine: null, afterLine: 2 },
      { kind: "same", text: "c", beforeLine: 2, afterLine: 3 },
    ]);
  });

  it("marks a deleted line with its before-line number only", () => {
    expect(diffLines("a\nb\nc", "a\nc")).toEqual([
      { kind: "same", text: "a", beforeLine: 1, afterLine: 1 },
      { kind: "removed", text: "b", beforeLine: 2, afterLine: null },
      { kind: "same", text: "c", beforeLine: 3, afterLine: 2 },
    ]);
  });

  it("shows a changed line as removed, then added", () => {
    expect(render(diffLines("Hello {{name}}\nBe brief.\nThanks", "Hello {{name}}\nBe very brief.\nThanks"))).toEqual([
      "  Hello {{name}}",
      "- Be brief.",
      "+ Be very brief.",
      "  Thanks",
    ]);
  });

  it("lists a changed block's removals before its additions, with line numbers", () => {
    expect(diffLines("x\na\nb\ny", "x\nc\nd\ny")).toEqual([
      { kind: "same", text: "x", beforeLine: 1, afterLine: 1 },
      { kind: "removed", text: "a", beforeLine: 2, afterLine: null },
      { kind: "removed", text: "b", beforeLine: 3, afterLine: null },
      { kind: "added", text: "c", beforeLine: null, afterLine: 2 },
      { kind: "added", text: "d", beforeLine: null, afterLine: 3 },
      { kind: "same", text: "y", beforeLine: 4, afterLine: 4 },
    ]);
  });

  it("treats an empty side as no lines at all", () => {
    expect(diffLines("", "a\nb")).toEqual([
      { kind: "added", text: "a", beforeLine: null, afterLine: 1 },
      { kind: "added", text: "b", beforeLine: null, afterLine: 2 },
    ]);
    expect(diffLines("a", "")).toEqual([{ kind: "removed", text: "a", beforeLine: 1, afterLine: null }]);
    expect(diffLines("", "")).toEqual([]);
  });

  it("shows an added trailing newline as an added empty last line, as the editor numbers it", () => {
    expect(diffLines("a\nb", "a\nb\n")).toEqual([
      { kind: "same", text: "a", beforeLine: 1, afterLine: 1 },
      { kind: "same", text: "b", beforeLine: 2, afterLine: 2 },
      { kind: "added", text: "", beforeLine: null, afterLine: 3 },
    ]);
  });

  it("does not see a change where only the line endings differ (CRLF against LF)", () => {
    expect(render(diffLines("a\r\nb\r\n", "a\nb\n"))).toEqual(["  a", "  b", "  "]);
  });

  it("finds a shortest edit script (Myers' ABCABBA -> CBABAC takes 5 edits)", () => {
    const lines = diffLines("A\nB\nC\nA\nB\nB\nA", "C\nB\nA\nB\nA\nC");
    expect(lines.filter((line) => line.kind !== "same")).toHaveLength(5);
    expect(lines.filter((line) => line.kind === "same").map((line) => line.text)).toHaveLength(4);
    expect(sides(lines)).toEqual({ before: "A\nB\nC\nA\nB\nB\nA", after: "C\nB\nA\nB\nA\nC" });
  });

  it("keeps line numbers right after repeated lines and edits at both ends", () => {
    const lines = diffLines("start\n-\n-\nmiddle\n-\nend", "begin\n-\n-\nmiddle\n-\n-\nend\nafter");
    expect(sides(lines)).toEqual({ before: "start\n-\n-\nmiddle\n-\nend", after: "begin\n-\n-\nmiddle\n-\n-\nend\nafter" });
    expect(lines.filter((line) => line.kind !== "removed").map((line) => line.afterLine)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines.filter((line) => line.kind !== "added").map((line) => line.beforeLine)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lines.filter((line) => line.kind !== "same")).toHaveLength(4);
  });

  it("handles a few thousand lines with scattered edits exactly", () => {
    const before = Array.from({ length: 3000 }, (_, index) => `line ${index}`);
    const after = before.map((line, index) => (index % 500 === 250 ? `${line} (edited)` : line));
    const lines = diffLines(before.join("\n"), after.join("\n"));
    expect(lines.filter((line) => line.kind === "removed").map((line) => line.beforeLine)).toEqual([251, 751, 1251, 1751, 2251, 2751]);
    expect(lines.filter((line) => line.kind === "added").map((line) => line.text)).toEqual(
      [250, 750, 1250, 1750, 2250, 2750].map((index) => `line ${index} (edited)`),
    );
    expect(lines).toHaveLength(3006);
  });

  it("falls back to one removed and one added block past maxEdits, keeping the shared ends", () => {
    const lines = diffLines("top\na\nb\nc\nbottom", "top\nx\nb\ny\nbottom", { maxEdits: 2 });
    expect(render(lines)).toEqual(["  top", "- a", "- b", "- c", "+ x", "+ b", "+ y", "  bottom"]);
    expect(lines[4]).toEqual({ kind: "added", text: "x", beforeLine: null, afterLine: 2 });
    expect(lines[7]).toEqual({ kind: "same", text: "bottom", beforeLine: 5, afterLine: 5 });
    // Without the bound the same texts diff exactly: "b" is kept.
    expect(render(diffLines("top\na\nb\nc\nbottom", "top\nx\nb\ny\nbottom"))).toEqual([
      "  top",
      "- a",
      "+ x",
      "  b",
      "- c",
      "+ y",
      "  bottom",
    ]);
  });
});

describe("diffLines on random texts", () => {
  /** Length of a longest common subsequence, by the textbook table (fine for short inputs). */
  function lcsLength(a: string[], b: string[]): number {
    const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++)
        table[i][j] = a[i - 1] === b[j - 1] ? table[i - 1][j - 1] + 1 : Math.max(table[i - 1][j], table[i][j - 1]);
    return table[a.length][b.length];
  }

  it("rebuilds both sides and keeps as many lines as a longest common subsequence", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const randomText = () => Array.from({ length: Math.floor(random() * 12) + 1 }, () => "abcd"[Math.floor(random() * 4)]);
    for (let round = 0; round < 300; round++) {
      const before = randomText();
      const after = randomText();
      const lines = diffLines(before.join("\n"), after.join("\n"));
      expect(sides(lines)).toEqual({ before: before.join("\n"), after: after.join("\n") });
      expect(lines.filter((line) => line.kind === "same")).toHaveLength(lcsLength(before, after));
    }
  });

  it("gives up on the exact diff of two large unrelated texts quickly", () => {
    const before = Array.from({ length: 5000 }, (_, index) => `old ${index}`).join("\n");
    const after = Array.from({ length: 5000 }, (_, index) => `new ${index}`).join("\n");
    const started = performance.now();
    const lines = diffLines(before, after);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(lines.slice(0, 5000).every((line) => line.kind === "removed")).toBe(true);
    expect(lines.slice(5000).every((line) => line.kind === "added")).toBe(true);
    expect(lines).toHaveLength(10000);
  });
});

describe("foldUnchangedLines", () => {
  const text = Array.from({ length: 20 }, (_, index) => `l${index + 1}`);

  it("folds the unchanged stretches away from a change, keeping three lines of context", () => {
    const after = [...text];
    after[9] = "changed";
    const folded = foldUnchangedLines(diffLines(text.join("\n"), after.join("\n")));
    const shape = folded.map((item) => (item.kind === "fold" ? `fold ${item.lines.length}` : `${item.kind} ${item.text}`));
    expect(shape).toEqual([
      "fold 6",
      "same l7",
      "same l8",
      "same l9",
      "removed l10",
      "added changed",
      "same l11",
      "same l12",
      "same l13",
      "fold 7",
    ]);
    const lastFold = folded.at(-1);
    expect(lastFold?.kind === "fold" && lastFold.lines[0]).toEqual({ kind: "same", text: "l14", beforeLine: 14, afterLine: 14 });
  });

  it("does not fold a stretch that would hide a single line", () => {
    const lines = diffLines("a\nb\nc\nd\ne\nf\ng\nh", "a\nb\nc\nd\ne\nf\ng\nH");
    expect(foldUnchangedLines(lines).map((item) => item.kind)).toEqual(["fold", "same", "same", "same", "removed", "added"]);
    expect(foldUnchangedLines(diffLines("a\nb\nc\nd", "a\nb\nc\nD")).map((item) => item.kind)).toEqual([
      "same",
      "same",
      "same",
      "removed",
      "added",
    ]);
  });

  it("folds an identical text into a single fold", () => {
    expect(foldUnchangedLines(diffLines("a\nb\nc", "a\nb\nc")).map((item) => item.kind)).toEqual(["fold"]);
  });
});
