import { describe, it, expect } from "vitest";
import { estimateTokens } from "@/lib/core/tokens";

describe("estimateTokens", () => {
  it("is the character count divided by four, rounded down", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abc")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcdefg")).toBe(1);
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(estimateTokens("x".repeat(1001))).toBe(250);
  });

  it("counts whitespace and newlines as characters", () => {
    expect(estimateTokens("a\nb\r\n c\t")).toBe(2);
  });

  it("counts code points like Python's len, not UTF-16 units", () => {
    // Four emoji are eight UTF-16 units but four characters in Python.
    expect(estimateTokens("😀😀😀😀")).toBe(1);
    expect(estimateTokens("é日本語")).toBe(1);
    // e + combining acute accent: two code points, as in Python.
    expect(estimateTokens("e\u0301e\u0301")).toBe(1);
  });

  it("counts an unpaired surrogate as one character", () => {
    expect(estimateTokens("\ud800abc")).toBe(1);
    expect(estimateTokens("abc\udc00")).toBe(1);
  });
});
