import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EvalCharts, EvalComparison } from "@/components/evals/charts";
import type { EvalDetail } from "@/lib/api/evals";
import type { EvalRun } from "@/lib/core/eval/eval-run";
import { compareEvalRuns } from "@/lib/core/eval/stats/compare-eval-runs";
import { comparisonText } from "@/lib/formats/eval-exports/charts/comparison-text";
import { evalResult, summarizerRun } from "./fixtures";
import { findAll, parseXml, textOf, type XmlElement } from "./xml-tree";

// The paired comparison in words, on two cases worked out by hand: one the evidence separates,
// one it does not. Then the page's components rendered with react-dom/server and read back.

/** A run passing the listed test cases (by number, 1-based) out of `cases`, each trial as listed. */
function runOf(runId: string, promptName: string, model: string, cases: number, passing: number[], trials = 1): EvalRun {
  const results = Array.from({ length: cases }, (_, index) =>
    Array.from({ length: trials }, (__, trial) => {
      const passed = passing.includes(index + 1) && (trials === 1 || trial === 0 || (index + 1) % 2 === 0);
      return evalResult({
        test_case: `case${index + 1}`,
        prompt_name: promptName,
        trial: trial + 1,
        passed,
        metrics: { contains: passed ? 1 : 0 },
      });
    }),
  ).flat();
  return { ...summarizerRun(), run_id: runId, prompt_name: promptName, model, results };
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

function detailOf(runs: EvalRun[]): EvalDetail {
  return {
    eval: {
      id: "00000000-0000-4000-8000-000000000001",
      status: "completed",
      configName: "eval.yaml",
      prompts: [...new Set(runs.map((run) => run.prompt_name))],
      models: [...new Set(runs.map((run) => run.model))],
      testCases: 20,
      repeat: 1,
      cells: runs.reduce((sum, run) => sum + run.results.length, 0),
      warnings: [],
      counts: { pending: 0, ok: 0, warning: 0, error: 0 },
      createdAt: "2025-01-02T03:04:05.000Z",
      finishedAt: "2025-01-02T03:04:09.000Z",
    },
    runs,
  };
}

describe("a difference the evidence shows", () => {
  // 20 cases: v1 passes 1-5, v2 passes 1-15. Paired table: both 5, v1 only 0, v2 only 10,
  // neither 5. Pass rates 25% and 75%, SE sqrt(0.25 x 0.75 / 20) = 9.7% each; difference +50
  // points; Newcombe (method 10, phi = (25 - 10) / sqrt(5 x 15 x 15 x 5) = 0.2) gives +22.3 to
  // +67.5 points; McNemar exact p = 2 x 0.5^10 = 0.00195; Connor's cases at 80% power with 10/20
  // discordant: (1.96 sqrt(0.5) + 0.8416 sqrt(0.25))^2 / 0.25 = 13.06, so 14.
  const baseline = runOf("aaaaaaaa", "v1", "mock/fast", 20, range(1, 5));
  const candidate = runOf("bbbbbbbb", "v2", "mock/fast", 20, range(1, 15));
  const text = comparisonText(compareEvalRuns(baseline, candidate), "v2", "v1");

  it("gives the pass-rate difference with Newcombe's interval, McNemar's p and the cases needed", () => {
    expect(text.heading).toBe("v2 vs v1");
    expect(text.pairedOn).toBe("v2 minus v1, paired on the 20 test cases both ran, with 95% intervals.");
    const [passRate] = text.rows;
    expect(passRate).toMatchObject({
      measure: "Pass rate",
      baseline: "25.0% (SE 9.7%)",
      candidate: "75.0% (SE 9.7%)",
      difference: "+50.0 points",
      interval: "+22.3 points to +67.5 points",
      verdict: "v2 higher",
      distinguishable: true,
      casesNeeded: "14",
    });
    expect(passRate.sentence).toBe(
      "v2 has the higher pass rate: +50.0 points (95% interval +22.3 points to +67.5 points), and the whole interval is on one side of zero, so the difference is unlikely to be chance on these 20 test cases.",
    );
    expect(passRate.method).toBe(
      "Newcombe's score interval for paired proportions; exact McNemar test p = 0.0020 (10 cases passed only with v2, 0 only with v1).",
    );
  });

  it("gives the mean score difference with its bootstrap interval", () => {
    // Per-case differences: ten 1s and ten 0s, mean 0.5, sample SD sqrt(20 x 0.25 / 19) = 0.513;
    // cases needed ((1.96 + 0.8416) x 0.513 / 0.5)^2 = 8.26, so 9.
    const score = text.rows[1];
    expect(score).toMatchObject({
      measure: "Mean contains score",
      baseline: "0.25 (SE 0.10)",
      candidate: "0.75 (SE 0.10)",
      difference: "+0.50",
      verdict: "v2 higher",
      distinguishable: true,
      casesNeeded: "9",
    });
    // The bootstrap of ten 1s and ten 0s: its 2.5th percentile is well above 0.
    expect(score.interval).toMatch(/^\+0\.\d\d to \+0\.\d\d$/);
    expect(score.method).toBe("Paired bootstrap percentile interval of the per-case differences, 10,000 resamples, seed 20240412.");
  });
});

describe("a difference the evidence does not show", () => {
  // 10 cases: v1 passes 1-5, v2 passes 1-4, 6 and 7. Both 4, v1 only 1, v2 only 2, neither 3.
  // 50% (SE sqrt(0.25 / 10) = 15.8%) and 60% (SE sqrt(0.24 / 10) = 15.5%); +10 points; Newcombe
  // (phi = (12 - 2 - 5) / sqrt(6 x 4 x 5 x 5) = 0.204) gives -24.8 to +41.3 points; McNemar p
  // for 2 against 1 = 1; Connor with 3/10 discordant: (1.96 sqrt(0.3) + 0.8416 sqrt(0.29))^2 /
  // 0.01 = 233.1, so 234 test cases.
  const baseline = runOf("aaaaaaaa", "v1", "mock/fast", 10, range(1, 5));
  const candidate = runOf("bbbbbbbb", "v2", "mock/fast", 10, [1, 2, 3, 4, 6, 7]);
  const text = comparisonText(compareEvalRuns(baseline, candidate), "v2", "v1");

  it("says not distinguishable, and how many test cases a difference this size would need", () => {
    const [passRate] = text.rows;
    expect(passRate).toMatchObject({
      baseline: "50.0% (SE 15.8%)",
      candidate: "60.0% (SE 15.5%)",
      difference: "+10.0 points",
      interval: "−24.8 points to +41.3 points",
      verdict: "not distinguishable",
      distinguishable: false,
      casesNeeded: "234",
    });
    expect(passRate.sentence).toBe(
      "Not distinguishable: the pass rate differs by +10.0 points, but the 95% interval (−24.8 points to +41.3 points) includes zero, so these 10 test cases cannot tell v2 and v1 apart: the difference may be chance. A real difference of this size would need about 234 test cases to show up 4 times in 5 (80% power, alpha 0.05).",
    );
    expect(passRate.method).toContain("exact McNemar test p = 1.0000 (2 cases passed only with v2, 1 only with v1)");
    expect(text.rows[1].verdict).toBe("not distinguishable");
  });

  it("says when two runs did the same", () => {
    const same = comparisonText(compareEvalRuns(baseline, { ...baseline, run_id: "cccccccc", prompt_name: "v1b" }), "v1b", "v1");
    expect(same.rows[0]).toMatchObject({ difference: "0.0 points", verdict: "not distinguishable", casesNeeded: "n/a" });
    expect(same.rows[0].sentence).toMatch(/^Not distinguishable: v1b and v1 have the same pass rate on these 10 test cases/);
  });
});

/** Parses the components' markup as XML. */
function parse(markup: string): XmlElement {
  return parseXml(`<root>${markup}</root>`);
}

describe("EvalComparison", () => {
  it("pairs every run with the first, with the table and the sentences", () => {
    const runs = [
      runOf("aaaaaaaa", "v1", "mock/fast", 10, range(1, 5)),
      runOf("bbbbbbbb", "v2", "mock/fast", 10, [1, 2, 3, 4, 6, 7]),
      runOf("cccccccc", "v3", "mock/fast", 10, range(1, 10)),
    ];
    const root = parse(renderToStaticMarkup(createElement(EvalComparison, { detail: detailOf(runs) })));
    const articles = findAll(root, "article");
    expect(articles.map((article) => textOf(findAll(article, "h3")[0]))).toEqual(["v2 vs v1", "v3 vs v1"]);
    const headers = findAll(findAll(articles[0], "thead")[0], "th").map(textOf);
    expect(headers).toEqual(["Measure", "v1 (baseline)", "v2", "Difference", "95% interval", "Verdict", "Cases needed"]);
    const firstRow = findAll(findAll(findAll(articles[0], "tbody")[0], "tr")[0], "td").map(textOf);
    expect(firstRow).toEqual([
      "50.0% (SE 15.8%)",
      "60.0% (SE 15.5%)",
      "+10.0 points",
      "−24.8 points to +41.3 points",
      "not distinguishable",
      "234",
    ]);
    const verdicts = findAll(articles[1], "li").map((item) => item.attributes["data-verdict"]);
    // v3 passes all 10 against v1's 5: the five discordant cases all favour v3, and Newcombe's
    // interval excludes 0, but the exact McNemar p is 2 x 0.5^5 = 0.0625: not distinguishable.
    expect(verdicts[0]).toBe("not distinguishable");
    expect(textOf(findAll(articles[1], "li")[0])).toContain("the exact McNemar test gives p = 0.0625, not under 0.05");
  });

  it("names the models when one prompt ran on two, and uses the bootstrap with trials", () => {
    const runs = [runOf("aaaaaaaa", "v1", "mock/fast", 6, range(1, 3), 2), runOf("bbbbbbbb", "v1", "mock/slow", 6, range(1, 6), 2)];
    const root = parse(renderToStaticMarkup(createElement(EvalComparison, { detail: detailOf(runs) })));
    expect(textOf(findAll(root, "h3")[0])).toBe("mock/slow vs mock/fast");
    expect(textOf(findAll(root, "li")[0])).toContain("Paired bootstrap of each test case's pass rate over its trials");
  });

  it("says there is nothing to compare with one run", () => {
    const markup = renderToStaticMarkup(createElement(EvalComparison, { detail: detailOf([runOf("aaaaaaaa", "v1", "m", 3, [1])]) }));
    expect(markup).toContain("nothing to compare");
  });
});

describe("EvalCharts", () => {
  it("draws both charts with captions, and a chooser of the measure", () => {
    const runs = [runOf("aaaaaaaa", "v1", "mock/fast", 4, [1, 2, 3]), runOf("bbbbbbbb", "v2", "mock/fast", 4, [1])];
    const root = parse(renderToStaticMarkup(createElement(EvalCharts, { detail: detailOf(runs) })));
    const figures = findAll(root, "figure");
    expect(figures.map((figure) => textOf(findAll(figure, "figcaption")[0]))).toEqual([
      "Pass rate per prompt and model, with 95% intervals",
      "Cost against pass rate, per model",
    ]);
    expect(findAll(root, "svg").every((svg) => svg.attributes.role === "img")).toBe(true);
    expect(findAll(root, "option").map(textOf)).toEqual(["Pass rate", "Mean contains score"]);
    expect(Number(findAll(root, "rect")[0].attributes.width)).toBeCloseTo(0.75 * 336, 6);
  });

  it("waits for a first result", () => {
    const markup = renderToStaticMarkup(createElement(EvalCharts, { detail: detailOf([]) }));
    expect(markup).toContain("No result has finished yet");
  });
});
