import { describe, it, expect } from "vitest";
import { indentFoldRange, indentWidth } from "@/components/editor/indent-fold";

describe("indentFoldRange", () => {
  const prompt = [
    "Rules:", //         0
    "  - be brief", //   1
    "    even more", //  2
    "", //               3
    "  - cite sources", // 4
    "", //               5
    "", //               6
    "Answer:", //        7
    "  {{question}}", // 8
  ];

  it("folds the deeper lines after a line, keeping blank lines inside the block", () => {
    expect(indentFoldRange(prompt, 0)).toEqual({ fromLine: 0, toLine: 4 });
  });

  it("leaves blank lines after the block out", () => {
    expect(indentFoldRange(prompt, 0)?.toLine).toBe(4);
  });

  it("folds a nested block up to its own end", () => {
    expect(indentFoldRange(prompt, 1)).toEqual({ fromLine: 1, toLine: 2 });
  });

  it("folds a block that runs to the end of the document", () => {
    expect(indentFoldRange(prompt, 7)).toEqual({ fromLine: 7, toLine: 8 });
  });

  it("has nothing to fold under a line whose next line is not deeper", () => {
    expect(indentFoldRange(prompt, 2)).toBeNull();
    expect(indentFoldRange(prompt, 4)).toBeNull();
    expect(indentFoldRange(prompt, 8)).toBeNull();
  });

  it("never folds from a blank line", () => {
    expect(indentFoldRange(["", "  deeper"], 0)).toBeNull();
    expect(indentFoldRange(prompt, 3)).toBeNull();
  });

  it("ignores indices outside the document", () => {
    expect(indentFoldRange(prompt, 9)).toBeNull();
    expect(indentFoldRange(prompt, -1)).toBeNull();
  });

  it("reads a tab as indentation up to the next tab stop", () => {
    expect(indentFoldRange(["  a", "\tb"], 0)).toEqual({ fromLine: 0, toLine: 1 });
    expect(indentFoldRange(["    a", "\tb"], 0)).toBeNull();
  });

  it("stops at a shallower line even when deeper lines follow it", () => {
    expect(indentFoldRange(["  a", "    b", "c", "    d"], 0)).toEqual({ fromLine: 0, toLine: 1 });
  });
});

describe("indentWidth", () => {
  it("counts spaces and tab stops up to the first other character", () => {
    expect(indentWidth("   x  ")).toBe(3);
    expect(indentWidth(" \tx")).toBe(4);
    expect(indentWidth("\t\tx", 2)).toBe(4);
    expect(indentWidth("x")).toBe(0);
  });
});
