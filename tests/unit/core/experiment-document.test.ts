import { describe, expect, it } from "vitest";
import { concatenateDocuments, withoutByteOrderMark } from "@/lib/core/experiment-document";
import { estimateTokens } from "@/lib/core/tokens";

describe("concatenateDocuments", () => {
  it("wraps every file, the prompt first, as the spec writes it", () => {
    const text = concatenateDocuments([
      { name: "prompt.txt", text: "Summarize the following information from {{source}}:\n\nThe topic is {{topic}}.\n" },
      { name: "context.txt", text: "Additional context: This is a test of the parallaxr system.\n" },
    ]);
    expect(text).toBe(
      "## Document: prompt.txt\n\nSummarize the following information from {{source}}:\n\nThe topic is {{topic}}.\n\n\n---\n\n" +
        "## Document: context.txt\n\nAdditional context: This is a test of the parallaxr system.\n\n\n---\n\n",
    );
  });

  it("keeps newlines as they are and strips only a leading byte order mark", () => {
    expect(concatenateDocuments([{ name: "a", text: "x\r\ny" }])).toBe("## Document: a\n\nx\r\ny\n\n---\n\n");
    expect(withoutByteOrderMark("\ufeffhello\ufeff")).toBe("hello\ufeff");
    expect(withoutByteOrderMark("hello")).toBe("hello");
  });
});

describe("token counts as the spec's len(text) // 4", () => {
  it("counts ASCII, accented and emoji text in code points", () => {
    expect(estimateTokens("abcdefgh")).toBe(2);
    // "é" as one code point; "e" + combining accent as two, as Python's len counts them
    expect(estimateTokens("café café")).toBe(2);
    expect(estimateTokens("cafe\u0301cafe\u0301")).toBe(2);
    // four emoji are four code points (eight UTF-16 units)
    expect(estimateTokens("😀😀😀😀")).toBe(1);
    expect(estimateTokens("😀😀😀")).toBe(0);
  });
});
