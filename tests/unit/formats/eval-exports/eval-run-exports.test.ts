import { describe, expect, it } from "vitest";
import { CsvRecordReader } from "@/lib/formats/parse-csv";
import { EVAL_CSV_COLUMNS, evalRunToCsv } from "@/lib/formats/eval-exports/eval-run-csv";
import { evalRunToHtml } from "@/lib/formats/eval-exports/eval-run-html";
import { evalRunToJson } from "@/lib/formats/eval-exports/eval-run-json";
import { evalRunsToJunit } from "@/lib/formats/eval-exports/eval-run-junit";
import { evalRunToMarkdown } from "@/lib/formats/eval-exports/eval-run-markdown";
import { evalExportFileName } from "@/lib/formats/eval-exports/export-file-name";
import { evalResult, HOSTILE_OUTPUT, markdownTableAfter, summarizerRun } from "./fixtures";
import { commentsOf, findAll, parseXml, textOf } from "./xml-tree";

/** The hostile output as an XML file can hold it: U+0001 is not an XML character. */
const HOSTILE_AS_XML = HOSTILE_OUTPUT.replace("\u0001", "\ufffd");

describe("evalExportFileName", () => {
  const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));

  it("is {prompt}_{run_id}_{timestamp}.{ext}, the timestamp YYYYMMDD_HHMMSS in UTC", () => {
    const run = { prompt_name: "summarizer_v1", run_id: "abc12345" };
    expect(evalExportFileName(run, "json", at)).toBe("summarizer_v1_abc12345_20250102_030405.json");
    expect(evalExportFileName(run, "csv", at)).toBe("summarizer_v1_abc12345_20250102_030405.csv");
    expect(evalExportFileName(run, "markdown", at)).toBe("summarizer_v1_abc12345_20250102_030405.md");
    expect(evalExportFileName(run, "html", at)).toBe("summarizer_v1_abc12345_20250102_030405.html");
    expect(evalExportFileName(run, "junit", at)).toBe("summarizer_v1_abc12345_20250102_030405.xml");
    // 23:59:59 UTC on the last day of a year, whatever the machine's zone says.
    expect(evalExportFileName(run, "json", new Date("2025-12-31T23:59:59.999Z"))).toBe("summarizer_v1_abc12345_20251231_235959.json");
  });

  it("keeps a prompt name inside the output folder", () => {
    expect(evalExportFileName({ prompt_name: "../../etc/x", run_id: "0123abcd" }, "json", at)).toBe(
      ".._.._etc_x_0123abcd_20250102_030405.json",
    );
    expect(evalExportFileName({ prompt_name: "..", run_id: "0123abcd" }, "json", at)).toBe("___0123abcd_20250102_030405.json");
    expect(evalExportFileName({ prompt_name: "a\\b:c\nd", run_id: "0123abcd" }, "json", at)).toBe("a_b_c_d_0123abcd_20250102_030405.json");
  });

  it("refuses a run_id that is not 8 hex characters", () => {
    expect(() => evalExportFileName({ prompt_name: "p", run_id: "abc123" }, "json", at)).toThrow(/8 hex/);
    expect(() => evalExportFileName({ prompt_name: "p", run_id: "ABC12345" }, "json", at)).toThrow(/8 hex/);
  });
});

describe("evalRunToJson", () => {
  it("is the EvalRun with the spec's field names plus cost_usd, error and trial", () => {
    const run = summarizerRun();
    const parsed = JSON.parse(evalRunToJson(run));
    expect(Object.keys(parsed)).toEqual([
      "run_id",
      "prompt_name",
      "model",
      "config",
      "started_at",
      "completed_at",
      "pass_rate",
      "avg_latency_ms",
      "cost_usd",
      "summary",
      "results",
    ]);
    expect(parsed.run_id).toBe("abc12345");
    expect(parsed.config).toEqual(run.config);
    expect(parsed.pass_rate).toBeCloseTo(1 / 3, 12);
    expect(parsed.summary).toMatchObject({ total_tests: 3, passed: 1, failed: 2, total_tokens: 230 });
    expect(Object.keys(parsed.results[0]).sort()).toEqual(
      [
        "test_case",
        "prompt_name",
        "trial",
        "system_prompt",
        "input_text",
        "output",
        "metrics",
        "passed",
        "latency_ms",
        "tokens_in",
        "tokens_out",
        "cost_usd",
        "error",
      ].sort(),
    );
    expect(parsed.results[0]).toMatchObject({
      test_case: "test1",
      metrics: { contains: 1, response_length: 1 },
      passed: true,
      latency_ms: 245.3,
      tokens_in: 50,
      tokens_out: 30,
      trial: 1,
      error: null,
    });
    expect(parsed.results[1].output).toBe(HOSTILE_OUTPUT);
    expect(parsed.results[2].error).toBe("Missing input variable text in test case t3");
    expect(parsed.results[2].cost_usd).toBeNull();
  });
});

describe("evalRunToCsv", () => {
  function readCsv(text: string): string[][] {
    const reader = new CsvRecordReader(text, "export.csv", ",");
    const records: string[][] = [];
    for (let record = reader.next(); record !== null; record = reader.next()) records.push(record);
    return records;
  }

  it("has one row per result and a metric_{name} column per metric", () => {
    const [header, ...rows] = readCsv(evalRunToCsv(summarizerRun()));
    expect(header).toEqual([...EVAL_CSV_COLUMNS, "metric_contains", "metric_response_length"]);
    expect(rows).toHaveLength(3);
    const column = (name: string) => header.indexOf(name);
    expect(rows[0][column("run_id")]).toBe("abc12345");
    expect(rows[0][column("test_case")]).toBe("test1");
    expect(rows[0][column("passed")]).toBe("True");
    expect(rows[0][column("latency_ms")]).toBe("245.3");
    expect(rows[0][column("metric_contains")]).toBe("1.0");
    expect(rows[1][column("passed")]).toBe("False");
    expect(rows[1][column("metric_contains")]).toBe("0.3333333333333333");
    expect(rows[1][column("test_case")]).toBe("hostile | <case>");
    expect(rows[2][column("error")]).toBe("Missing input variable text in test case t3");
    expect(rows[2][column("metric_contains")]).toBe("");
    expect(rows[2][column("cost_usd")]).toBe("");
  });

  it("writes the user's data verbatim: a formula stays a formula (the spec's format, not neutralised)", () => {
    const run = summarizerRun({
      results: [evalResult({ test_case: '=HYPERLINK("x")', error: "-1 is not allowed", passed: false })],
    });
    const [header, row] = readCsv(evalRunToCsv(run));
    expect(row[header.indexOf("test_case")]).toBe('=HYPERLINK("x")');
    expect(row[header.indexOf("error")]).toBe("-1 is not allowed");
  });
});

describe("evalRunToMarkdown", () => {
  it("has the spec's Summary and Results tables, parsed back", () => {
    const markdown = evalRunToMarkdown(summarizerRun());
    expect(markdown.split("\n").slice(0, 5)).toEqual([
      "# Evaluation Report: summarizer_v1",
      "",
      "**Run ID:** abc12345",
      "**Model:** claude-sonnet-4-20250514",
      "**Date:** 2025-01-02 03:04:05",
    ]);
    const summary = markdownTableAfter(markdown, "## Summary");
    expect(summary.header).toEqual(["Metric", "Value"]);
    expect(Object.fromEntries(summary.rows)).toEqual({
      "Total Tests": "3",
      Passed: "1",
      Failed: "2",
      // sqrt((1/3)(2/3) / 3) = 27.2%
      "Pass Rate": "33.3% (SE 27.2%)",
      "Avg Latency": "481.8 ms",
      "Total Tokens": "230",
      Cost: "$0.0021",
    });
    const results = markdownTableAfter(markdown, "## Results");
    expect(results.header).toEqual(["Test Case", "Passed", "Latency (ms)", "Metrics"]);
    expect(results.rows).toEqual([
      ["test1", "✅", "245", "contains=1.00, response_length=1.00"],
      ["hostile | &lt;case>", "❌", "1200", "contains=0.33, response_length=1.00"],
      ["t3", "❌", "0", ""],
    ]);
  });

  it("shows each output in a code block no output can close, and the error", () => {
    const markdown = evalRunToMarkdown(summarizerRun());
    const lines = markdown.split("\n");
    const outputs = lines.flatMap((line, index) => (line === "**Output:**" ? [index] : []));
    const fence = lines[outputs[1] + 1];
    expect(fence).toBe("````");
    const end = lines.indexOf(fence, outputs[1] + 2);
    expect(lines.slice(outputs[1] + 2, end).join("\n")).toBe(HOSTILE_OUTPUT);
    expect(markdown).toContain("**Error:** Missing input variable text in test case t3");
  });

  it("names trials when a run repeats its cases", () => {
    const run = summarizerRun({
      results: [evalResult({ test_case: "a", trial: 1 }), evalResult({ test_case: "a", trial: 2, passed: false })],
    });
    const results = markdownTableAfter(evalRunToMarkdown(run), "## Results");
    expect(results.rows.map((row) => row[0])).toEqual(["a (trial 1)", "a (trial 2)"]);
  });
});

describe("evalRunToHtml", () => {
  it("is well-formed, self-contained, and shows a model's <script> as text", () => {
    const html = evalRunToHtml(summarizerRun());
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    const document = parseXml(html);
    expect(document.name).toBe("html");
    expect(findAll(document, "script")).toEqual([]);
    expect(findAll(document, "b")).toEqual([]);
    expect(findAll(document, "link")).toEqual([]);
    expect(html).not.toMatch(/\son\w+=/i);
    const outputs = findAll(document, "pre").map(textOf);
    expect(outputs).toContain(HOSTILE_AS_XML);
    expect(textOf(findAll(document, "title")[0])).toBe("Eval Report: summarizer_v1");
  });

  it("has the summary figures, a row per result and the failure reasons", () => {
    const document = parseXml(evalRunToHtml(summarizerRun()));
    const figures = findAll(document, "div")
      .filter((div) => div.attributes.class === "metric")
      .map((div) => textOf(div).replace(/\s+/g, " ").trim());
    expect(figures).toEqual(["33.3% SE 27.2% Pass Rate", "1/3 Tests Passed", "481.8 ms Avg Latency", "$0.0021 Cost"]);
    const rows = findAll(findAll(document, "tbody")[0], "tr").map((row) => findAll(row, "td").map((cell) => textOf(cell).trim()));
    expect(rows).toHaveLength(3);
    expect(rows[1].slice(0, 3)).toEqual(["hostile | <case>", "❌ fail", "1200 ms"]);
    const paragraphs = findAll(document, "p").map((p) => textOf(p));
    expect(paragraphs).toContain("Failed: contains 0.33 < 0.5");
    expect(paragraphs).toContain("Error: Missing input variable text in test case t3");
  });

  it("marks the place for charts, and puts charts there when given", () => {
    const without = parseXml(evalRunToHtml(summarizerRun()));
    expect(commentsOf(without).some((comment) => comment.includes("charts:"))).toBe(true);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" role="img"><title>t</title></svg>';
    const withCharts = parseXml(evalRunToHtml(summarizerRun(), { charts: [{ title: "Pass rate <by> model", svg }] }));
    const section = findAll(withCharts, "section")[0];
    expect(section.attributes.id).toBe("charts");
    expect(findAll(section, "svg")).toHaveLength(1);
    expect(textOf(findAll(section, "figcaption")[0])).toBe("Pass rate <by> model");
  });
});

describe("evalRunsToJunit", () => {
  it("is well-formed JUnit: one testcase per result, failures with the reason, errors with the message", () => {
    const xml = evalRunsToJunit([summarizerRun()]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const root = parseXml(xml);
    expect(root.name).toBe("testsuites");
    expect(root.attributes).toMatchObject({ tests: "3", failures: "1", errors: "1" });
    const [suite] = findAll(root, "testsuite");
    expect(suite.attributes).toMatchObject({
      name: "summarizer_v1 (claude-sonnet-4-20250514)",
      tests: "3",
      failures: "1",
      errors: "1",
      timestamp: "2025-01-02T03:04:05.000",
    });
    const properties = Object.fromEntries(findAll(suite, "property").map((p) => [p.attributes.name, p.attributes.value]));
    expect(properties).toMatchObject({ run_id: "abc12345", model: "claude-sonnet-4-20250514", pass_rate: "33.3%" });
    const cases = findAll(suite, "testcase");
    expect(cases.map((testcase) => testcase.attributes.name)).toEqual(["test1", "hostile | <case>", "t3"]);
    expect(cases[0].attributes).toMatchObject({
      classname: "summarizer_v1.claude-sonnet-4-20250514",
      time: "0.245",
    });
    expect(findAll(cases[0], "failure")).toEqual([]);
    expect(findAll(cases[1], "failure")[0].attributes).toEqual({ message: "contains 0.33 < 0.5", type: "threshold" });
    expect(textOf(findAll(cases[1], "system-out")[0])).toBe(HOSTILE_AS_XML);
    expect(findAll(cases[2], "error")[0].attributes.message).toBe("Missing input variable text in test case t3");
  });

  it("uses a metric's own threshold, keeps line breaks in attributes, and puts several runs in one file", () => {
    const run = summarizerRun({
      config: {
        model: "m",
        max_tokens: 1,
        temperature: 0,
        evaluation_threshold: 0.5,
        metric_thresholds: { llm_judge: 0.7 },
      },
      results: [
        evalResult({ test_case: "judged", metrics: { llm_judge: 0.6 }, passed: false }),
        evalResult({ test_case: "broken", metrics: {}, passed: false, error: "line one\nline two", output: "" }),
      ],
    });
    const root = parseXml(evalRunsToJunit([run, summarizerRun({ run_id: "00000000", model: "gpt-4o" })]));
    expect(findAll(root, "testsuite")).toHaveLength(2);
    expect(root.attributes).toMatchObject({ tests: "5", failures: "2", errors: "2" });
    const [judged, broken] = findAll(root, "testcase");
    expect(findAll(judged, "failure")[0].attributes.message).toBe("llm_judge 0.60 < 0.7");
    expect(findAll(broken, "error")[0].attributes.message).toBe("line one\nline two");
    expect(findAll(broken, "system-out")).toEqual([]);
  });
});
