import { describe, expect, it } from "vitest";
import { casesNeededForPassRates } from "@/lib/core/eval/stats/cases-needed";
import { exactMcNemarPValue } from "@/lib/core/eval/stats/exact-mcnemar";
import { newcombePairedInterval } from "@/lib/core/eval/stats/newcombe-paired-interval";
import { pairedTable } from "@/lib/core/eval/stats/paired-table";
import { wilsonInterval } from "@/lib/core/eval/stats/wilson-interval";

// Cavo et al. (2012), complete response before and after consolidation therapy, the worked
// example of the paired 2x2 table in Fagerland, Lydersen & Laake, "Statistical Analysis of
// Contingency Tables" (2017), chapter 8: 59 both, 6 only the first, 16 only the second, 80
// neither, n = 161. The candidate plays the first measurement (difference = first - second).
const CAVO = { bothPassed: 59, candidateOnly: 6, baselineOnly: 16, neitherPassed: 80 };

describe("wilsonInterval", () => {
  it("matches Newcombe (1998, 'Two-sided confidence intervals for the single proportion', Table II): 81/263 is 0.2553 to 0.3662", () => {
    const interval = wilsonInterval(81, 263);
    expect(interval.low).toBeCloseTo(0.2553, 4);
    expect(interval.high).toBeCloseTo(0.3662, 4);
  });

  it("for 0 of 10 runs from 0 to z^2 / (n + z^2) = 3.8415 / 13.8415 (by hand)", () => {
    const interval = wilsonInterval(0, 10);
    expect(interval.low).toBe(0);
    expect(interval.high).toBeCloseTo(3.841459 / 13.841459, 6);
  });
});

describe("newcombePairedInterval (Newcombe 1998, method 10)", () => {
  it("gives the textbook's -0.1186 to -0.0046 for Cavo et al. (Fagerland et al. 2017, ch. 8)", () => {
    const interval = newcombePairedInterval(CAVO);
    expect(interval.low).toBeCloseTo(-0.1186, 4);
    expect(interval.high).toBeCloseTo(-0.0046, 4);
  });

  it("applies Newcombe's correction of phi: ad - bc > n/2 is reduced by n/2, 0 <= ad - bc <= n/2 counts as 0", () => {
    // a=12, b=5, c=1, d=2 (n=20): ad - bc = 19 > 10, so phi = 9 / sqrt(17*3*13*7) = 0.1321.
    // By hand: p1 = 13/20 (Wilson 0.4329..0.8188), p2 = 17/20 (Wilson 0.6396..0.9476),
    // L = -0.2 - sqrt(0.2171^2 - 2(0.1321)(0.2171)(0.0976) + 0.0976^2) = -0.4260,
    // U = -0.2 + sqrt(0.1688^2 - 2(0.1321)(0.1688)(0.2104) + 0.2104^2) = 0.0518.
    const interval = newcombePairedInterval({ bothPassed: 12, candidateOnly: 1, baselineOnly: 5, neitherPassed: 2 });
    expect(interval.low).toBeCloseTo(-0.426, 3);
    expect(interval.high).toBeCloseTo(0.0518, 3);
    // With the uncorrected phi (19 / sqrt(4641) = 0.279) the interval would be narrower.
    expect(interval.high - interval.low).toBeGreaterThan(0.47);
  });

  it("is symmetric: swapping the runs negates the interval", () => {
    const swapped = newcombePairedInterval({ ...CAVO, candidateOnly: 16, baselineOnly: 6 });
    expect(swapped.low).toBeCloseTo(0.0046, 4);
    expect(swapped.high).toBeCloseTo(0.1186, 4);
  });

  it("stays within [-1, 1] and covers 0 when every case agrees", () => {
    const allAgree = newcombePairedInterval({ bothPassed: 5, candidateOnly: 0, baselineOnly: 0, neitherPassed: 5 });
    expect(allAgree.low).toBeLessThan(0);
    expect(allAgree.high).toBeGreaterThan(0);
    const extreme = newcombePairedInterval({ bothPassed: 0, candidateOnly: 10, baselineOnly: 0, neitherPassed: 0 });
    expect(extreme.high).toBeLessThanOrEqual(1);
    expect(extreme.low).toBeGreaterThan(0);
  });
});

describe("exactMcNemarPValue", () => {
  it("is twice the binomial tail of the smaller discordant count: Cavo's 6 vs 16 is 2 * 110056 / 2^22 = 0.0525 (the textbook's 0.052)", () => {
    // sum_{k=0..6} C(22, k) = 1 + 22 + 231 + 1540 + 7315 + 26334 + 74613 = 110056
    expect(exactMcNemarPValue(16, 6)).toBeCloseTo((2 * 110056) / 4194304, 12);
    expect(exactMcNemarPValue(6, 16)).toBeCloseTo((2 * 110056) / 4194304, 12);
  });

  it("is 2 / 2^5 for 0 vs 5, 1 for equal counts and for no discordant pairs", () => {
    expect(exactMcNemarPValue(0, 5)).toBeCloseTo(0.0625, 12);
    expect(exactMcNemarPValue(4, 4)).toBe(1);
    expect(exactMcNemarPValue(0, 0)).toBe(1);
  });

  it("does not underflow with thousands of discordant pairs", () => {
    // 1000 vs 1000 is as even as can be; 2^-2000 alone underflows a double.
    expect(exactMcNemarPValue(1000, 1000)).toBe(1);
    const p = exactMcNemarPValue(950, 1050);
    expect(p).toBeGreaterThan(0.02);
    expect(p).toBeLessThan(0.04);
  });
});

describe("pairedTable", () => {
  it("counts each pair in its cell", () => {
    expect(
      pairedTable([
        { baseline: true, candidate: true },
        { baseline: true, candidate: false },
        { baseline: false, candidate: true },
        { baseline: false, candidate: true },
        { baseline: false, candidate: false },
      ]),
    ).toEqual({ bothPassed: 1, baselineOnly: 1, candidateOnly: 2, neitherPassed: 1 });
  });
});

describe("casesNeededForPassRates (Connor 1987)", () => {
  it("needs 276 cases for Cavo's difference of -10/161 with 22/161 discordant (by hand: 275.6)", () => {
    // (1.96 * sqrt(0.13665) + 0.8416 * sqrt(0.13665 - 0.003858))^2 / 0.003858 = 275.6
    expect(casesNeededForPassRates(22 / 161, -10 / 161)).toBe(276);
  });

  it("is null for no difference", () => {
    expect(casesNeededForPassRates(0.2, 0)).toBeNull();
  });
});
