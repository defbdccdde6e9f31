import { describe, expect, it } from "vitest";
import { casesNeededForMeans } from "@/lib/core/eval/stats/cases-needed";
import { clusteredStandardError } from "@/lib/core/eval/stats/clustered-standard-error";
import { differenceVerdict, isDistinguishable } from "@/lib/core/eval/stats/difference-verdict";
import { pairedBootstrapInterval, quantile } from "@/lib/core/eval/stats/paired-bootstrap-interval";
import { seededRandom } from "@/lib/core/eval/stats/seeded-random";

describe("seededRandom (mulberry32)", () => {
  it("repeats for a seed, differs between seeds, stays in [0, 1) and is uniform", () => {
    const first = seededRandom(7);
    const second = seededRandom(7);
    const other = seededRandom(8);
    const a = Array.from({ length: 5 }, first);
    expect(Array.from({ length: 5 }, second)).toEqual(a);
    expect(Array.from({ length: 5 }, other)).not.toEqual(a);
    const random = seededRandom(1);
    const buckets = new Array(10).fill(0);
    let outside = 0;
    for (let index = 0; index < 100_000; index += 1) {
      const value = random();
      if (!(value >= 0 && value < 1)) outside += 1;
      else buckets[Math.floor(value * 10)] += 1;
    }
    expect(outside).toBe(0);
    // 10,000 expected per bucket, binomial SD about 95: within 5 SD.
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(475);
  });
});

describe("quantile (R type 7)", () => {
  it("interpolates between order statistics", () => {
    // R: quantile(c(1, 2, 3, 4), c(0.025, 0.5, 0.975)) is 1.075, 2.5, 3.925
    expect(quantile([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(quantile([1, 2, 3, 4], 0.5)).toBeCloseTo(2.5, 12);
    expect(quantile([1, 2, 3, 4], 0.975)).toBeCloseTo(3.925, 12);
  });
});

describe("pairedBootstrapInterval", () => {
  it("is the value itself when every case differs by the same amount", () => {
    expect(pairedBootstrapInterval([0.25, 0.25, 0.25])).toEqual({ low: 0.25, high: 0.25 });
  });

  it("for two cases differing by 0 and 1 spans 0 to 1 (the resample means are 0, 0.5, 1 with 1/4, 1/2, 1/4)", () => {
    expect(pairedBootstrapInterval([0, 1])).toEqual({ low: 0, high: 1 });
  });

  it("is fixed by its seed, and near the normal interval mean +/- 1.96 SE for 400 cases", () => {
    const random = seededRandom(99);
    const differences = Array.from({ length: 400 }, () => (random() < 0.6 ? 1 : 0) - (random() < 0.45 ? 1 : 0));
    const interval = pairedBootstrapInterval(differences);
    expect(pairedBootstrapInterval(differences)).toEqual(interval);
    expect(pairedBootstrapInterval(differences, { seed: 5 })).not.toEqual(interval);
    const mean = differences.reduce((sum, value) => sum + value, 0) / differences.length;
    const sd = Math.sqrt(differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (differences.length - 1));
    const halfWidth = (1.96 * sd) / Math.sqrt(differences.length);
    expect(interval.low).toBeCloseTo(mean - halfWidth, 2);
    expect(interval.high).toBeCloseTo(mean + halfWidth, 2);
  });
});

describe("clusteredStandardError (Miller 2024)", () => {
  it("is sqrt(p(1 - p) / n) with one trial per case: 3 of 4 passed gives sqrt(0.1875 / 4) = 0.2165", () => {
    const estimate = clusteredStandardError([[1], [0], [1], [1]]);
    expect(estimate.value).toBe(0.75);
    expect(estimate.standard_error).toBeCloseTo(Math.sqrt(0.1875 / 4), 12);
  });

  it("clusters trials by case: [[1, 1], [0, 0]] is sqrt(1^2 + 1^2) / 4 = 0.3536, not the naive 0.25", () => {
    // mean 0.5; the cases' summed residuals are 0.5 + 0.5 = 1 and -1.
    const estimate = clusteredStandardError([
      [1, 1],
      [0, 0],
    ]);
    expect(estimate.value).toBe(0.5);
    expect(estimate.standard_error).toBeCloseTo(Math.SQRT2 / 4, 12);
  });

  it("lets residuals of one case cancel: [[1, 0], [1, 0]] has no spread between cases", () => {
    expect(
      clusteredStandardError([
        [1, 0],
        [1, 0],
      ]).standard_error,
    ).toBe(0);
  });

  it("works for scores: [[0.2, 0.4], [0.9]] (by hand: mean 0.5, residual sums -0.4 and 0.4, sqrt(0.32) / 3)", () => {
    const estimate = clusteredStandardError([[0.2, 0.4], [0.9]]);
    expect(estimate.value).toBeCloseTo(0.5, 12);
    expect(estimate.standard_error).toBeCloseTo(Math.sqrt(0.32) / 3, 12);
  });
});

describe("casesNeededForMeans", () => {
  it("follows Lehr's rule (Lehr 1992, 'Sixteen s-squared over d-squared'): about 7.85 (sd / d)^2 paired cases at 80% power", () => {
    // (1.95996 + 0.84162)^2 = 7.849; sd / d = 2 gives 31.4, so 32 cases.
    expect(casesNeededForMeans(1, 0.5)).toBe(32);
    expect(casesNeededForMeans(0.3, -0.1)).toBe(Math.ceil(7.8489 * 9));
  });

  it("is null for no difference", () => {
    expect(casesNeededForMeans(0.3, 0)).toBeNull();
  });
});

describe("differenceVerdict", () => {
  it("says 'not distinguishable' when the interval covers 0, including at its edge", () => {
    expect(differenceVerdict({ low: -0.05, high: 0.2 })).toBe("not distinguishable");
    expect(differenceVerdict({ low: 0, high: 0.2 })).toBe("not distinguishable");
    expect(differenceVerdict({ low: Number.NaN, high: Number.NaN })).toBe("not distinguishable");
    expect(isDistinguishable({ low: -0.3, high: 0.1 })).toBe(false);
  });

  it("names the higher run when it does not", () => {
    expect(differenceVerdict({ low: 0.01, high: 0.2 })).toBe("candidate higher");
    expect(differenceVerdict({ low: -0.1186, high: -0.0046 })).toBe("baseline higher");
    expect(isDistinguishable({ low: 0.01, high: 0.2 })).toBe(true);
  });
});
