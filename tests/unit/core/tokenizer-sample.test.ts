import { describe, expect, it } from "vitest";
import { chooseTokenizerSample } from "@/lib/core/tokenizer-sample";

describe("chooseTokenizerSample", () => {
  it("takes every row of a small run", () => {
    expect(chooseTokenizerSample([10, 20, 30], { maxRows: 5, maxChars: 100 })).toEqual({ rowIndexes: [0, 1, 2], complete: true });
    expect(chooseTokenizerSample([], { maxRows: 5, maxChars: 100 })).toEqual({ rowIndexes: [], complete: true });
  });

  it("spreads a sample of maxRows over a run with more rows", () => {
    const sample = chooseTokenizerSample(new Array(1_000).fill(1), { maxRows: 4, maxChars: 100 });
    expect(sample).toEqual({ rowIndexes: [0, 250, 500, 750], complete: false });
  });

  it("keeps the sample under maxChars, skipping rows that do not fit", () => {
    expect(chooseTokenizerSample([60, 60, 10, 5], { maxRows: 10, maxChars: 100 })).toEqual({ rowIndexes: [0, 2, 3], complete: false });
    // a single row larger than the budget: nothing is tokenized, the estimate stands
    expect(chooseTokenizerSample([4_000_000], { maxRows: 10, maxChars: 1_000_000 })).toEqual({ rowIndexes: [], complete: false });
  });
});
