import { describe, expect, it } from "vitest";
import { judgeResult, metricThreshold, metricThresholds } from "@/lib/core/eval/pass-rule";

const contains = { name: "contains", threshold: null };
const length = { name: "response_length", threshold: null };
const judge = { name: "llm_judge", threshold: 0.7 };

describe("judgeResult", () => {
  it("is the spec's example: 2 of 3 strings (0.667) passes at 0.5 and fails at 1.0", () => {
    const result = { metrics: { contains: 2 / 3 }, error: null };
    expect(judgeResult(result, [contains], 0.5)).toEqual({ passed: true, failing: [] });
    expect(judgeResult(result, [contains], 1.0)).toEqual({ passed: false, failing: ["contains"] });
  });

  it("compares the score as it is, not as shown", () => {
    // 0.667 is how 2/3 is shown; the score itself is below it.
    expect(judgeResult({ metrics: { contains: 2 / 3 }, error: null }, [contains], 0.667).passed).toBe(false);
    expect(judgeResult({ metrics: { contains: 0.5 }, error: null }, [contains], 0.5).passed).toBe(true);
  });

  it("needs every metric to reach the threshold", () => {
    const result = { metrics: { contains: 1, response_length: 0 }, error: null };
    expect(judgeResult(result, [contains, length], 0.5)).toEqual({ passed: false, failing: ["response_length"] });
  });

  it("lets a metric's own threshold override the evaluation threshold for that metric only", () => {
    const result = { metrics: { contains: 0.6, llm_judge: 0.65 }, error: null };
    expect(judgeResult(result, [contains, judge], 0.5)).toEqual({ passed: false, failing: ["llm_judge"] });
    expect(judgeResult({ ...result, metrics: { contains: 0.6, llm_judge: 0.7 } }, [contains, judge], 0.5).passed).toBe(true);
    // A lower own threshold wins over a stricter evaluation threshold, and 0 is a threshold.
    expect(judgeResult({ metrics: { contains: 0.6, llm_judge: 0.75 }, error: null }, [contains, judge], 0.9)).toEqual({
      passed: false,
      failing: ["contains"],
    });
    expect(metricThreshold({ threshold: 0 }, 0.9)).toBe(0);
  });

  it("fails a result with an error, whatever its scores", () => {
    expect(judgeResult({ metrics: { contains: 1 }, error: "Missing input variable text in test case t1" }, [contains], 0.5)).toEqual({
      passed: false,
      failing: [],
    });
  });

  it("fails a metric without a score (a judge that could not be read), never counting it as reached", () => {
    expect(judgeResult({ metrics: { contains: 1 }, error: null }, [contains, judge], 0)).toEqual({ passed: false, failing: ["llm_judge"] });
    expect(judgeResult({ metrics: { contains: NaN }, error: null }, [contains], 0)).toEqual({ passed: false, failing: ["contains"] });
    // Scores are looked up as own keys only.
    expect(judgeResult({ metrics: {}, error: null }, [{ name: "constructor", threshold: null }], 0).passed).toBe(false);
  });
});

describe("metricThresholds", () => {
  it("lists the metrics with their own threshold, 0 included, by name", () => {
    expect(metricThresholds([contains, judge, { name: "exact_match", threshold: 0 }])).toEqual({ llm_judge: 0.7, exact_match: 0 });
    expect(metricThresholds([contains])).toEqual({});
  });
});
