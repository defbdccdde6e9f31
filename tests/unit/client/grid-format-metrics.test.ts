import { describe, expect, it } from "vitest";
import { formatLatency, formatTokenCount, previewText } from "@/lib/client/format-metrics";

describe("formatTokenCount", () => {
  it("shows small counts as integers", () => {
    expect(formatTokenCount(0)).toBe("0");
    expect(formatTokenCount(42)).toBe("42");
    expect(formatTokenCount(99)).toBe("99");
  });

  it("shows 100 to 10k as thousands with one decimal, as in the spec's `12k | 0.5k`", () => {
    expect(formatTokenCount(100)).toBe("0.1k");
    expect(formatTokenCount(500)).toBe("0.5k");
    expect(formatTokenCount(1000)).toBe("1k");
    expect(formatTokenCount(1234)).toBe("1.2k");
    expect(formatTokenCount(9949)).toBe("9.9k");
  });

  it("shows whole thousands from 10k and millions from 1M", () => {
    expect(formatTokenCount(9950)).toBe("10k");
    expect(formatTokenCount(12_345)).toBe("12k");
    expect(formatTokenCount(999_499)).toBe("999k");
    expect(formatTokenCount(999_500)).toBe("1M");
    expect(formatTokenCount(1_250_000)).toBe("1.3M");
  });

  it("shows unknown counts as a dash", () => {
    expect(formatTokenCount(null)).toBe("–");
    expect(formatTokenCount(Number.NaN)).toBe("–");
  });
});

describe("formatLatency", () => {
  it("uses ms below a second and seconds from one up", () => {
    expect(formatLatency(850)).toBe("850 ms");
    expect(formatLatency(1234)).toBe("1.2 s");
    expect(formatLatency(null)).toBe("–");
  });
});

describe("previewText", () => {
  it("keeps the first 200 characters and marks the cut", () => {
    expect(previewText("short")).toBe("short");
    const long = "x".repeat(250);
    expect(previewText(long)).toBe(`${"x".repeat(200)}…`);
  });
});
