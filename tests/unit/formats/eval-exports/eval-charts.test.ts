import { createElement, useState } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { EvalRun } from "@/lib/core/eval/eval-run";
import { runPoints } from "@/lib/formats/eval-exports/charts/chart-data";
import { CostScoreChart } from "@/lib/formats/eval-exports/charts/cost-score-chart";
import { evalChartSet } from "@/lib/formats/eval-exports/charts/eval-chart-set";
import { IntervalBarChart } from "@/lib/formats/eval-exports/charts/interval-bar-chart";
import { reportCharts } from "@/lib/formats/eval-exports/charts/report-charts";
import { staticMarkup } from "@/lib/formats/eval-exports/charts/static-markup";
import { evalRunToHtml } from "@/lib/formats/eval-exports/eval-run-html";
import { evalResult, summarizerRun } from "./fixtures";
import { findAll, parseXml, textOf, type XmlElement } from "./xml-tree";

// The eval charts drawn with react-dom/server and read back: bars, error-bar ends and points at
// the coordinates worked out by hand from the charts' fixed geometry, the tables' numbers, and
// the same charts in the HTML report.

/** A run whose test cases pass as listed (one trial each, or several per case). */
function runOf(runId: string, promptName: string, model: string, cases: boolean[][], cost: number | null = 0.001): EvalRun {
  const results = cases.flatMap((trials, index) =>
    trials.map((passed, trial) =>
      evalResult({
        test_case: `case${index + 1}`,
        prompt_name: promptName,
        trial: trial + 1,
        passed,
        metrics: { contains: passed ? 1 : 0 },
        cost_usd: cost === null ? null : cost / cases.flat().length,
      }),
    ),
  );
  return {
    ...summarizerRun(),
    run_id: runId,
    prompt_name: promptName,
    model,
    results,
    pass_rate: results.filter((result) => result.passed).length / results.length,
    cost_usd: cost,
  };
}

const single = (...passes: boolean[]) => passes.map((passed) => [passed]);

/** Parses a chart's markup (an SVG and its table) as XML. */
function parse(markup: string): XmlElement {
  return parseXml(`<root>${markup}</root>`);
}

function byAttribute(root: XmlElement, name: string, attribute: string, value: string): XmlElement {
  const found = findAll(root, name).filter((element) => element.attributes[attribute] === value);
  expect(found, `${name}[${attribute}=${value}]`).toHaveLength(1);
  return found[0];
}

const number = (element: XmlElement, attribute: string) => Number(element.attributes[attribute]);

function tableRows(root: XmlElement): string[][] {
  return findAll(findAll(root, "tbody")[0], "tr").map((row) => findAll(row, "td").map(textOf));
}

// 3 of 4 and 1 of 4: Wilson's 95% intervals (0.3006, 0.9544) and (0.0456, 0.6994), worked out by hand
// from p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2), over 1 + z^2/n with z = 1.95996.
const WILSON_3_OF_4 = { low: 0.3006418, high: 0.9544127 };
const WILSON_1_OF_4 = { low: 0.0455873, high: 0.6993582 };

describe("pass rate per prompt x model with 95% error bars", () => {
  const runs = [
    runOf("aaaaaaaa", "summarizer_v1", "mock/fast", single(true, true, true, false)),
    runOf("bbbbbbbb", "summarizer_v2", "mock/fast", single(true, false, false, false)),
  ];
  const points = runPoints(runs);
  const markup = renderToStaticMarkup(createElement(IntervalBarChart, { points, measure: { kind: "pass_rate" }, title: "Pass rate" }));
  const root = parse(markup);
  // Geometry: x from 0 at 208 to 1 at 544 (640 - 96), rows of 36 from y = 28, bars 20 high, caps 12.
  const x = (value: number) => 208 + value * 336;

  it("draws each bar from 0 to the pass rate, in its row", () => {
    const first = byAttribute(root, "g", "data-run", "aaaaaaaa");
    const bar = findAll(first, "rect")[0];
    expect(number(bar, "x")).toBe(208);
    expect(number(bar, "width")).toBeCloseTo(0.75 * 336, 6);
    expect(number(bar, "y")).toBe(36);
    expect(number(bar, "height")).toBe(20);
    const second = findAll(byAttribute(root, "g", "data-run", "bbbbbbbb"), "rect")[0];
    expect(number(second, "width")).toBeCloseTo(0.25 * 336, 6);
    expect(number(second, "y")).toBe(72);
  });

  it("puts the error bar's ends at Wilson's interval", () => {
    const first = byAttribute(root, "g", "data-run", "aaaaaaaa");
    const low = byAttribute(first, "line", "data-part", "low-cap");
    const high = byAttribute(first, "line", "data-part", "high-cap");
    const whisker = byAttribute(first, "line", "data-part", "whisker");
    expect(number(low, "x1")).toBeCloseTo(x(WILSON_3_OF_4.low), 3);
    expect(number(low, "x2")).toBeCloseTo(x(WILSON_3_OF_4.low), 3);
    expect([number(low, "y1"), number(low, "y2")]).toEqual([40, 52]);
    expect(number(high, "x1")).toBeCloseTo(x(WILSON_3_OF_4.high), 3);
    expect([number(whisker, "x1"), number(whisker, "y1"), number(whisker, "y2")]).toEqual([number(low, "x1"), 46, 46]);
    expect(number(whisker, "x2")).toBeCloseTo(x(WILSON_3_OF_4.high), 3);
    const second = byAttribute(root, "g", "data-run", "bbbbbbbb");
    expect(number(byAttribute(second, "line", "data-part", "low-cap"), "x1")).toBeCloseTo(x(WILSON_1_OF_4.low), 3);
    expect(number(byAttribute(second, "line", "data-part", "high-cap"), "x1")).toBeCloseTo(x(WILSON_1_OF_4.high), 3);
  });

  it("is an image with a summary, and has the numbers in a table", () => {
    const svg = findAll(root, "svg")[0];
    expect(svg.attributes).toMatchObject({ role: "img", width: "640", height: String(28 + 2 * 36 + 48) });
    expect(svg.attributes["aria-label"]).toBe(
      "Pass rate. summarizer_v1: 75.0%, 95% interval 30.1% to 95.4%; summarizer_v2: 25.0%, 95% interval 4.6% to 69.9%.",
    );
    expect(textOf(findAll(svg, "title")[0])).toBe("Pass rate");
    expect(textOf(byAttribute(svg, "text", "data-part", "row-axis-label"))).toBe("Prompt");
    expect(textOf(byAttribute(svg, "text", "data-part", "value-axis-label"))).toBe("Pass rate");
    expect(textOf(byAttribute(svg, "text", "data-part", "axis-label"))).toBe("Pass rate (bars), 95% interval (whiskers)");
    // Standard errors sqrt(p(1 - p) / n): sqrt(0.75 x 0.25 / 4) = 21.7%.
    expect(tableRows(root)).toEqual([
      ["summarizer_v1", "mock/fast", "75.0%", "21.7%", "30.1% to 95.4%", "4 test cases"],
      ["summarizer_v2", "mock/fast", "25.0%", "21.7%", "4.6% to 69.9%", "4 test cases"],
    ]);
    expect(findAll(root, "div")[0].attributes.style).toContain("position:absolute");
    expect(findAll(findAll(root, "div")[0], "table")).toHaveLength(1);
  });

  it("clusters the error by test case when cases ran several trials", () => {
    // case1 passed both trials, case2 one of two: mean 0.75, case residual sums +0.5 and -0.5,
    // SE = sqrt(0.25 + 0.25) / 4 = 0.1768, interval 0.75 +- 1.96 x 0.1768 = 0.4035 to 1 (clipped).
    const [point] = runPoints([
      runOf("cccccccc", "p", "m", [
        [true, true],
        [true, false],
      ]),
    ]);
    expect(point.method).toBe("clustered");
    expect(point.estimate.standard_error).toBeCloseTo(Math.sqrt(0.5) / 4, 10);
    expect(point.interval.low).toBeCloseTo(0.75 - 1.959964 * 0.1767767, 5);
    expect(point.interval.high).toBe(1);
    const chart = parse(
      renderToStaticMarkup(createElement(IntervalBarChart, { points: [point], measure: { kind: "pass_rate" }, title: "t" })),
    );
    expect(tableRows(chart)).toEqual([["p", "m", "75.0%", "17.7%", "40.4% to 100.0%", "4 results over 2 test cases"]]);
    expect(number(byAttribute(chart, "line", "data-part", "high-cap"), "x1")).toBe(544);
  });

  it("keeps an honest interval when every trial passed", () => {
    // SE 0 would make a point; the 3 cases, all passed, give Wilson's 3 of 3: 0.4385 to 1.
    const [point] = runPoints([
      runOf("dddddddd", "p", "m", [
        [true, true],
        [true, true],
        [true, true],
      ]),
    ]);
    expect(point.estimate).toEqual({ value: 1, standard_error: 0 });
    expect(point.interval.low).toBeCloseTo(0.4385, 4);
    expect(point.interval.high).toBe(1);
  });

  it("draws a metric's mean score the same way", () => {
    const run = runOf("eeeeeeee", "p", "m", single(true, false));
    run.results[0].metrics = { judge: 0.9 };
    run.results[1].metrics = { judge: 0.5 };
    // mean 0.7, residuals +0.2 and -0.2: SE = sqrt(0.08) / 2 = 0.1414.
    const [point] = runPoints([run], { kind: "metric", metric: "judge" });
    expect(point.estimate.value).toBeCloseTo(0.7, 10);
    expect(point.estimate.standard_error).toBeCloseTo(Math.sqrt(0.08) / 2, 10);
    const chart = parse(
      renderToStaticMarkup(createElement(IntervalBarChart, { points: [point], measure: { kind: "metric", metric: "judge" }, title: "t" })),
    );
    expect(number(findAll(chart, "rect")[0], "width")).toBeCloseTo(0.7 * 336, 6);
    expect(tableRows(chart)[0].slice(2, 5)).toEqual(["0.70", "0.14", "0.42 to 0.98"]);
    expect(findAll(chart, "th").map(textOf)).toContain("Mean judge score");
  });
});

describe("cost against pass rate per model", () => {
  const runs = [
    runOf("aaaaaaaa", "v1", "cheap-model", single(true, false, false, false), 0.002),
    runOf("bbbbbbbb", "v1", "dear-model", single(true, true, true, false), 0.004),
    runOf("cccccccc", "v1", "unpriced-model", single(true, true, true, true), null),
  ];
  const points = runPoints(runs);
  const root = parse(
    renderToStaticMarkup(createElement(CostScoreChart, { points, measure: { kind: "pass_rate" }, title: "Cost against pass rate" })),
  );
  // Geometry: cost 0 at x = 72 to 0.004 at 608 (640 - 32); pass rate 0 at y = 296 (16 + 280) to 1 at 16.
  const x = (cost: number) => 72 + (cost / 0.004) * 536;
  const y = (rate: number) => 296 - rate * 280;

  it("puts each priced run at its cost and pass rate, with its interval", () => {
    const cheap = byAttribute(byAttribute(root, "g", "data-run", "aaaaaaaa"), "circle", "data-part", "point");
    expect(number(cheap, "cx")).toBeCloseTo(x(0.002), 6);
    expect(number(cheap, "cy")).toBeCloseTo(y(0.25), 6);
    const dear = byAttribute(root, "g", "data-run", "bbbbbbbb");
    const point = byAttribute(dear, "circle", "data-part", "point");
    expect([number(point, "cx"), number(point, "cy")]).toEqual([608, y(0.75)]);
    const low = byAttribute(dear, "line", "data-part", "low-cap");
    expect(number(low, "y1")).toBeCloseTo(y(WILSON_3_OF_4.low), 3);
    expect([number(low, "x1"), number(low, "x2")]).toEqual([603, 613]);
    expect(number(byAttribute(dear, "line", "data-part", "high-cap"), "y1")).toBeCloseTo(y(WILSON_3_OF_4.high), 3);
  });

  it("gives each model its own colour and leaves out the run without a price, saying so", () => {
    const fills = ["aaaaaaaa", "bbbbbbbb"].map(
      (run) => byAttribute(byAttribute(root, "g", "data-run", run), "circle", "data-part", "point").attributes.fill,
    );
    expect(new Set(fills).size).toBe(2);
    expect(findAll(root, "g").filter((group) => group.attributes["data-run"] === "cccccccc")).toEqual([]);
    expect(textOf(byAttribute(root, "text", "data-part", "unpriced"))).toBe("1 run without a known price is not drawn");
    expect(findAll(root, "g").filter((group) => group.attributes["data-part"] === "legend")).toHaveLength(3);
  });

  it("writes one label for runs drawn at the same place", () => {
    const free = [
      runOf("aaaaaaaa", "first", "mock/fast", single(true, false), 0),
      runOf("bbbbbbbb", "second", "mock/fast", single(false, true), 0),
      runOf("cccccccc", "third", "mock/fast", single(true, true), 0),
    ];
    const chart = parse(
      renderToStaticMarkup(createElement(CostScoreChart, { points: runPoints(free), measure: { kind: "pass_rate" }, title: "t" })),
    );
    const labels = findAll(chart, "text").filter((text) => text.attributes["data-part"] === "point-label");
    expect(labels.map(textOf)).toEqual(["first, second", "third"]);
    expect(findAll(chart, "circle").filter((circle) => circle.attributes["data-part"] === "point")).toHaveLength(3);
  });

  it("has axis labels, a summary and the numbers in a table", () => {
    expect(textOf(byAttribute(root, "text", "data-part", "x-axis-label"))).toBe("Cost of the run (US dollars)");
    expect(textOf(byAttribute(root, "text", "data-part", "y-axis-label"))).toBe("Pass rate, 95% interval");
    expect(findAll(root, "svg")[0].attributes["aria-label"]).toBe(
      "Cost against pass rate. cheap-model: $0.0020, pass rate 25.0%; dear-model: $0.0040, pass rate 75.0%; unpriced-model: no price, pass rate 100.0%.",
    );
    expect(tableRows(root)).toEqual([
      ["v1", "cheap-model", "$0.0020", "25.0%", "21.7%", "4.6% to 69.9%"],
      ["v1", "dear-model", "$0.0040", "75.0%", "21.7%", "30.1% to 95.4%"],
      ["v1", "unpriced-model", "no price", "100.0%", "0.0%", "51.0% to 100.0%"],
    ]);
  });
});

describe("an eval still running", () => {
  it("draws a run without results as n/a, with no NaN in the markup", () => {
    const runs = [runOf("aaaaaaaa", "v1", "m", single(true, false)), { ...runOf("bbbbbbbb", "v2", "m", []), cost_usd: null }];
    for (const chart of evalChartSet(runs)) {
      const markup = renderToStaticMarkup(chart.element);
      expect(markup).not.toContain("NaN");
      const root = parse(markup);
      expect(tableRows(root)[1]).toContain("n/a");
    }
    const bars = parse(renderToStaticMarkup(evalChartSet(runs)[0].element));
    expect(number(findAll(byAttribute(bars, "g", "data-run", "bbbbbbbb"), "rect")[0], "width")).toBe(0);
    expect(findAll(byAttribute(bars, "g", "data-run", "bbbbbbbb"), "line")).toEqual([]);
  });
});

describe("the charts in the HTML report", () => {
  const hostile = "<script>alert(\"x\")</script> & 'q'";
  const runs = [
    runOf("aaaaaaaa", "summarizer_v1", "mock/fast", single(true, true, true, false)),
    runOf("bbbbbbbb", hostile, "mock/fast", single(true, false, false, false)),
  ];

  it("renders statically exactly what react-dom/server renders", () => {
    const withUnpriced = [...runs, runOf("cccccccc", "v3", "other/model", single(true, true), null)];
    for (const measure of [{ kind: "pass_rate" } as const, { kind: "metric", metric: "contains" } as const]) {
      for (const chart of evalChartSet(withUnpriced, measure)) {
        expect(staticMarkup(chart.element).replaceAll("&#39;", "&#x27;")).toBe(renderToStaticMarkup(chart.element));
      }
    }
  });

  it("places both charts in the report, escaped, parsed back with their bars and tables", () => {
    const html = evalRunToHtml(runs[0], { charts: reportCharts(runs) });
    const document = parseXml(html);
    const section = byAttribute(document, "section", "id", "charts");
    const figures = findAll(section, "figure");
    expect(figures.map((figure) => textOf(findAll(figure, "figcaption")[0]))).toEqual([
      "Pass rate per prompt and model, with 95% intervals",
      "Cost against pass rate, per model",
    ]);
    expect(findAll(section, "svg").map((svg) => svg.attributes["data-chart"])).toEqual(["interval-bars", "cost-score"]);
    expect(findAll(document, "script")).toEqual([]);
    expect(html).not.toMatch(/\son\w+=/i);
    const bars = findAll(figures[0], "rect");
    expect(bars.map((bar) => number(bar, "width"))).toEqual([0.75 * 336, 0.25 * 336]);
    expect(tableRows(figures[0]).map((row) => row[0])).toEqual(["summarizer_v1", hostile]);
    expect(html).not.toContain("<script>alert");
  });

  it("refuses what a static render cannot do honestly", () => {
    expect(() => staticMarkup(createElement("div", { dangerouslySetInnerHTML: { __html: "<b>x</b>" } }))).toThrow(/raw HTML/);
    const WithState = () => {
      const [value] = useState(1);
      return createElement("span", null, value);
    };
    expect(() => staticMarkup(createElement(WithState))).toThrow();
  });
});
