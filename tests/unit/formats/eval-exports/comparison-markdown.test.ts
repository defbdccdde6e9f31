import { describe, expect, it } from "vitest";
import type { EvalRun } from "@/lib/core/eval/eval-run";
import { compareEvalRuns } from "@/lib/core/eval/stats/compare-eval-runs";
import { comparisonToMarkdown, needsComparison } from "@/lib/formats/eval-exports/comparison-markdown";
import { evalResult, markdownTableAfter, summarizerRun } from "./fixtures";

const AT = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));

function twoPrompts(): [EvalRun, EvalRun] {
  const v1 = summarizerRun({
    run_id: "11111111",
    prompt_name: "summarizer_v1",
    results: [
      evalResult({ test_case: "b", prompt_name: "summarizer_v1" }),
      evalResult({ test_case: "a", prompt_name: "summarizer_v1", passed: false, metrics: { contains: 0.5 } }),
      evalResult({ test_case: "c", prompt_name: "summarizer_v1" }),
    ],
  });
  const v2 = summarizerRun({
    run_id: "22222222",
    prompt_name: "summarizer_v2",
    results: [
      evalResult({ test_case: "a", prompt_name: "summarizer_v2", metrics: { contains: 1 } }),
      evalResult({ test_case: "b", prompt_name: "summarizer_v2", metrics: { contains: 1 } }),
      evalResult({ test_case: "d", prompt_name: "summarizer_v2", metrics: { contains: 1 } }),
    ],
  });
  return [v1, v2];
}

describe("needsComparison", () => {
  it("is true for more than one EvalRun", () => {
    expect(needsComparison([summarizerRun()])).toBe(false);
    expect(needsComparison(twoPrompts())).toBe(true);
  });
});

describe("comparisonToMarkdown", () => {
  it("has the spec's title, Summary Comparison and Test-by-Test Comparison, parsed back", () => {
    const runs = twoPrompts();
    const markdown = comparisonToMarkdown(runs, [compareEvalRuns(runs[0], runs[1])], AT);
    expect(markdown.split("\n").slice(0, 4)).toEqual([
      "# Prompt Comparison Report",
      "",
      "**Date:** 2025-01-02 03:04:05",
      "**Prompts Compared:** 2",
    ]);
    const summary = markdownTableAfter(markdown, "## Summary Comparison");
    expect(summary.header).toEqual(["Prompt", "Model", "Pass Rate", "Avg Latency", "Total Tokens", "Cost"]);
    expect(summary.rows[0]).toEqual([
      "summarizer_v1",
      "claude-sonnet-4-20250514",
      // 2 of 3: sqrt((2/3)(1/3) / 3) = 27.2%
      "66.7% (SE 27.2%)",
      "245.3 ms",
      "240",
      "$0.0018",
    ]);
    expect(summary.rows[1][2]).toBe("100.0% (SE 0.0%)");
    const byTest = markdownTableAfter(markdown, "## Test-by-Test Comparison");
    expect(byTest.header).toEqual(["Test Case", "summarizer_v1", "summarizer_v2"]);
    expect(byTest.rows).toEqual([
      ["a", "❌", "✅"],
      ["b", "✅", "✅"],
      ["c", "✅", "-"],
      ["d", "-", "✅"],
    ]);
  });

  it("writes the paired statistics it is given, with 'not distinguishable' when the interval covers 0", () => {
    const runs = twoPrompts();
    const comparison = compareEvalRuns(runs[0], runs[1]);
    const markdown = comparisonToMarkdown(runs, [comparison], AT);
    expect(markdown).toContain("### summarizer_v2 vs summarizer_v1");
    expect(markdown).toContain("on the 2 test cases both ran");
    const paired = markdownTableAfter(markdown, "### summarizer_v2 vs summarizer_v1");
    expect(paired.header).toEqual(["Measure", "Baseline", "Candidate", "Difference", "95% Interval", "Verdict", "Cases Needed"]);
    const [passRate, contains] = paired.rows;
    expect(passRate[0]).toBe("Pass rate");
    expect(passRate[3]).toBe("+50.0 pp");
    const interval = comparison.pass_rate.interval;
    expect(passRate[4]).toBe(`${(interval.low * 100).toFixed(1)} pp to +${(interval.high * 100).toFixed(1)} pp`);
    expect(passRate[5]).toBe("**not distinguishable**");
    expect(passRate[6]).toBe(String(comparison.pass_rate.cases_needed));
    expect(contains[0]).toBe("contains (mean score)");
    expect(contains[3]).toBe("+0.250");
    expect(contains[5]).toBe("**not distinguishable**");
    expect(markdown).toContain("exact McNemar test p = 1.0000");
    expect(markdown).toContain("10000 resamples");
  });

  it("names a verdict when the interval excludes 0", () => {
    const runs = twoPrompts();
    const comparison = compareEvalRuns(runs[0], runs[1]);
    const decided = { ...comparison, pass_rate: { ...comparison.pass_rate, interval: { low: 0.1, high: 0.9 }, mcnemar_p_value: 0.01 } };
    const paired = markdownTableAfter(comparisonToMarkdown(runs, [decided], AT), "### summarizer_v2 vs summarizer_v1");
    expect(paired.rows[0][5]).toBe("candidate higher");
    // The same interval with an exact McNemar p of 0.05 or more claims nothing.
    const undecided = { ...decided, pass_rate: { ...decided.pass_rate, mcnemar_p_value: 0.0625 } };
    const doubtful = markdownTableAfter(comparisonToMarkdown(runs, [undecided], AT), "### summarizer_v2 vs summarizer_v1");
    expect(doubtful.rows[0][5]).toBe("**not distinguishable**");
  });

  it("labels columns by model for one prompt on two models, and shows passes out of trials", () => {
    const onModel = (run_id: string, model: string, passes: boolean[]) =>
      summarizerRun({
        run_id,
        model,
        results: passes.map((passed, index) => evalResult({ test_case: "a", trial: index + 1, passed })),
      });
    const runs = [onModel("11111111", "claude-sonnet-4-20250514", [true, false, true]), onModel("22222222", "gpt-4o", [true, true, true])];
    const markdown = comparisonToMarkdown(runs, [compareEvalRuns(runs[0], runs[1])], AT);
    const byTest = markdownTableAfter(markdown, "## Test-by-Test Comparison");
    expect(byTest.header).toEqual(["Test Case", "claude-sonnet-4-20250514", "gpt-4o"]);
    expect(byTest.rows).toEqual([["a", "❌ 2/3", "✅ 3/3"]]);
    expect(markdown).toContain("### gpt-4o vs claude-sonnet-4-20250514");
    expect(markdown).toContain("paired bootstrap of each case's pass rate");
  });

  it("escapes names that would break a table", () => {
    const runs = twoPrompts();
    runs[0].results[0].test_case = "x | <y>";
    const byTest = markdownTableAfter(comparisonToMarkdown(runs, [], AT), "## Test-by-Test Comparison");
    expect(byTest.rows.map((row) => row[0])).toContain("x | &lt;y>");
    expect(comparisonToMarkdown(runs, [], AT)).toContain("No two runs share a test case");
  });
});
