import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from "@/lib/server/heap-growth";

describe("PARALLAXR_HEAP_GROWING_PERCENT", () => {
  it("defaults to 1.5 times when unset or blank", () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(50);
    expect(heapGrowingPercent({})).toEqual({ percent: 50, warning: null });
    expect(heapGrowingPercent({ PARALLAXR_HEAP_GROWING_PERCENT: "  " })).toEqual({ percent: 50, warning: null });
  });

  it("takes a whole number from 0 (V8's own) to 1000", () => {
    for (const [raw, percent] of [
      ["0", 0],
      ["25", 25],
      [" 100 ", 100],
      ["1000", 1000],
    ] as const) {
      expect(heapGrowingPercent({ PARALLAXR_HEAP_GROWING_PERCENT: raw })).toEqual({ percent, warning: null });
    }
  });

  it("falls back to the default with a warning that names the variable and the value", () => {
    for (const raw of ["fast", "-5", "2.5", "1001", "1e3", "0x10"]) {
      const { percent, warning } = heapGrowingPercent({ PARALLAXR_HEAP_GROWING_PERCENT: raw });
      expect(percent).toBe(50);
      expect(warning).toBe(`PARALLAXR_HEAP_GROWING_PERCENT must be a whole number from 0 to 1000; got "${raw}", so 50 is used.`);
    }
  });
});
