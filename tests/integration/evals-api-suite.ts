import { afterAll, beforeAll, describe, expect } from "vitest";
import { GET as getComparison } from "@/app/api/v1/evals/[id]/comparison.md/route";
import { GET as getExport } from "@/app/api/v1/evals/[id]/export/[format]/route";
import { GET as getEvalRoute } from "@/app/api/v1/evals/[id]/route";
import { POST as postEval } from "@/app/api/v1/evals/route";
import { GET as getRunRoute } from "@/app/api/v1/runs/[id]/route";
import type { EvalDetail } from "@/lib/api/evals";
import { readAccessConfig } from "@/lib/auth/access-config";
import { CsvRecordReader } from "@/lib/formats/parse-csv";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { waitFor } from "../helpers/databases";
import { evalEngineOn, type CreateTestDatabase } from "./evals-engine-database";
import { markdownTableAfter } from "../unit/formats/eval-exports/fixtures";
import { findAll, parseXml, textOf } from "../unit/formats/eval-exports/xml-tree";

// The spec's eval_summarizer example through the API (issue 12), keyless on a mock model: a
// prompt file and an inline prompt, the scores and the pass rule in each EvalRun, every export
// parsed back, comparison.md with its paired statistics, and what an attacker would send.

// prompts/summarizer_v1.yaml and configs/eval_summarizer.yaml as the spec shows them (its "..."
// filled in), with a second test case that the mock's echo passes.
const SUMMARIZER_V1 = `name: summarizer_v1
description: "A custom prompt"
version: "1.0"
system: "You are a helpful assistant."
template: |
  Summarize this in {max_sentences} sentences:

  {text}
`;
const CONFIG = `model: claude-sonnet-4-20250514
max_tokens: 256
temperature: 0.0
evaluation_threshold: 0.5  # Minimum score for tests to pass (0.0-1.0)

prompts:
  - ../prompts/summarizer_v1.yaml  # External reference
  - name: inline_prompt             # Inline definition
    template: "Summarize this in {max_sentences} sentences:\\n\\n{text}"

test_cases:
  - name: test1
    inputs: {text: "Python is a programming language.", max_sentences: 2}
    expected_contains: ["keyword"]
  - name: test2
    inputs: {text: "Rust is a systems language.", max_sentences: 1}
    expected_contains: ["Rust"]
    expected_not_contains: ["Java"]

metrics:
  - type: contains
  - type: response_length
    max_words: 100
`;

/** The spec's eval_summarizer example through the API, run against one kind of database. */
export function describeEvalsApi(label: string, create: CreateTestDatabase): void {
  describe(`eval runs through the API on ${label}`, () => {
    const providers = createProviderRegistry([createMockProvider()]);
    const engine = evalEngineOn(create, providers);
    const it = engine.it;
    const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

    beforeAll(() => {
      contextStore.__parallaxrContext = Promise.resolve({
        get db() {
          return engine.db;
        },
        providers,
        access: readAccessConfig({}),
        worker: null,
      } as unknown as AppContext);
    });
    afterAll(() => {
      contextStore.__parallaxrContext = undefined;
    });

    const post = (body: unknown) => postEval(new Request("http://test/api/v1/evals", { method: "POST", body: JSON.stringify(body) }));
    const get = (id: string) => getEvalRoute(new Request(`http://test/api/v1/evals/${id}`), { params: Promise.resolve({ id }) });
    const exportOf = (id: string, format: string, run?: string) =>
      getExport(new Request(`http://test/api/v1/evals/${id}/export/${format}${run ? `?run=${run}` : ""}`), {
        params: Promise.resolve({ id, format }),
      });

    async function runToEnd(body: unknown): Promise<EvalDetail> {
      const response = await post(body);
      expect(response.status).toBe(201);
      const { eval: created } = await response.json();
      return waitFor(
        async () => {
          const detail: EvalDetail = await (await get(created.id)).json();
          return detail.eval.status === "completed" ? detail : null;
        },
        { what: "the eval to complete", timeoutMs: 20_000 },
      );
    }

    function csvRecords(text: string): string[][] {
      const reader = new CsvRecordReader(text, "export.csv", ",");
      const records: string[][] = [];
      for (let record = reader.next(); record !== null; record = reader.next()) records.push(record);
      return records;
    }

    let detail: EvalDetail;

    it("runs the spec's eval_summarizer keyless on a mock model, a prompt file and an inline prompt, scored and judged by the pass rule", async () => {
      detail = await runToEnd({
        config: CONFIG,
        configName: "configs/eval_summarizer.yaml",
        files: { "../prompts/summarizer_v1.yaml": SUMMARIZER_V1 },
        model: "mock/fast",
      });
      expect(detail.eval).toMatchObject({ prompts: ["summarizer_v1", "inline_prompt"], models: ["mock/fast"], cells: 4 });
      expect(detail.runs.map((run) => [run.prompt_name, run.model, run.pass_rate])).toEqual([
        ["summarizer_v1", "mock/fast", 0.5],
        ["inline_prompt", "mock/fast", 0.5],
      ]);
      const [fileRun, inlineRun] = detail.runs;
      expect(fileRun.run_id).toMatch(/^[0-9a-f]{8}$/);
      expect(inlineRun.run_id).not.toBe(fileRun.run_id);
      expect(fileRun.config).toEqual({ model: "mock/fast", max_tokens: 256, temperature: 0, evaluation_threshold: 0.5 });
      expect(fileRun.results.map((result) => [result.test_case, result.metrics, result.passed, result.error])).toEqual([
        ["test1", { contains: 0, response_length: 1 }, false, null],
        ["test2", { contains: 1, response_length: 1 }, true, null],
      ]);
      expect(fileRun.results[0]).toMatchObject({
        trial: 1,
        system_prompt: "You are a helpful assistant.",
        input_text: "Summarize this in 2 sentences:\n\nPython is a programming language.\n",
      });
      expect(fileRun.results[0].output).toContain("Python is a programming language.");
      expect(inlineRun.results[1]).toMatchObject({
        system_prompt: "",
        input_text: "Summarize this in 1 sentences:\n\nRust is a systems language.",
      });
      expect(fileRun.results.every((result) => result.tokens_in > 0 && result.tokens_out > 0)).toBe(true);
    });

    it("exports each EvalRun as the spec's JSON, CSV, Markdown and HTML, named {prompt}_{run_id}_{timestamp}", async () => {
      const [fileRun] = detail.runs;
      const json = await exportOf(detail.eval.id, "json", fileRun.run_id);
      expect(json.status).toBe(200);
      expect(json.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="summarizer_v1_${fileRun.run_id}_\\d{8}_\\d{6}\\.json"`),
      );
      const document = JSON.parse(await json.text());
      expect(document).toMatchObject({ run_id: fileRun.run_id, prompt_name: "summarizer_v1", model: "mock/fast", pass_rate: 0.5 });
      expect(document.summary).toMatchObject({ total_tests: 2, passed: 1, failed: 1 });
      expect(document.results.map((result: { test_case: string; passed: boolean }) => [result.test_case, result.passed])).toEqual([
        ["test1", false],
        ["test2", true],
      ]);

      const csv = csvRecords(await (await exportOf(detail.eval.id, "csv", fileRun.run_id)).text());
      expect(csv[0]).toEqual([
        "run_id",
        "prompt_name",
        "test_case",
        "trial",
        "passed",
        "latency_ms",
        "tokens_in",
        "tokens_out",
        "cost_usd",
        "error",
        "metric_contains",
        "metric_response_length",
      ]);
      expect(csv.slice(1).map((row) => [row[2], row[4], row[10], row[11]])).toEqual([
        ["test1", "False", "0.0", "1.0"],
        ["test2", "True", "1.0", "1.0"],
      ]);

      const markdown = await (await exportOf(detail.eval.id, "markdown", fileRun.run_id)).text();
      expect(markdownTableAfter(markdown, "## Results").rows.map((row) => [row[0], row[1]])).toEqual([
        ["test1", "❌"],
        ["test2", "✅"],
      ]);

      const html = parseXml(await (await exportOf(detail.eval.id, "html", fileRun.run_id)).text());
      expect(html.name).toBe("html");
      expect(findAll(html, "script")).toEqual([]);
      // Both EvalRuns' charts, each bar at its run's 50% (1 of 2 passed): 0.5 x 336 wide.
      const charts = findAll(html, "section").find((section) => section.attributes.id === "charts")!;
      expect(findAll(charts, "svg").map((svg) => svg.attributes["data-chart"])).toEqual(["interval-bars", "cost-score"]);
      const barGroups = findAll(findAll(charts, "svg")[0], "g").filter((group) => group.attributes["data-run"]);
      expect(barGroups.map((group) => group.attributes["data-run"])).toEqual(detail.runs.map((run) => run.run_id));
      expect(findAll(charts, "rect").map((bar) => Number(bar.attributes.width))).toEqual([168, 168]);
      expect(
        findAll(html, "pre")
          .map(textOf)
          .some((text) => text.includes("Rust is a systems language.")),
      ).toBe(true);
    });

    it("exports every EvalRun as JUnit XML, and comparison.md with the paired comparison", async () => {
      const junit = await exportOf(detail.eval.id, "junit");
      expect(junit.headers.get("content-type")).toBe("application/xml; charset=utf-8");
      const suites = parseXml(await junit.text());
      expect(suites.attributes).toMatchObject({ tests: "4", failures: "2", errors: "0" });
      expect(findAll(suites, "testsuite").map((suite) => suite.attributes.name)).toEqual([
        "summarizer_v1 (mock/fast)",
        "inline_prompt (mock/fast)",
      ]);
      expect(findAll(suites, "failure")).toHaveLength(2);

      const comparison = await getComparison(new Request(`http://test/api/v1/evals/${detail.eval.id}/comparison.md`), {
        params: Promise.resolve({ id: detail.eval.id }),
      });
      expect(comparison.headers.get("content-disposition")).toMatch(/^attachment; filename="comparison\.md"/);
      const text = await comparison.text();
      expect(markdownTableAfter(text, "## Test-by-Test Comparison").rows).toEqual([
        ["test1", "❌", "❌"],
        ["test2", "✅", "✅"],
      ]);
      const paired = markdownTableAfter(text, "### inline_prompt vs summarizer_v1");
      expect(paired.rows[0][0]).toBe("Pass rate");
      expect(paired.rows[0][5]).toBe("**not distinguishable**");
    });

    it("asks which EvalRun a per-run export is of when the eval made several, and refuses a format or run it does not have", async () => {
      const unnamed = await exportOf(detail.eval.id, "json");
      expect(unnamed.status).toBe(400);
      expect((await unnamed.json()).error).toMatchObject({ field: "run", message: expect.stringContaining(detail.runs[1].run_id) });
      expect((await exportOf(detail.eval.id, "exe")).status).toBe(400);
      expect((await exportOf(detail.eval.id, "json", "../../x")).status).toBe(400);
      expect((await exportOf(detail.eval.id, "json", "0000000f")).status).toBe(404);
      expect((await get("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    });

    it("never reads a path a config names: a file missing from the map is a 400 naming it, an unknown field a 400", async () => {
      const config = CONFIG.replace("../prompts/summarizer_v1.yaml", "/etc/hostname");
      const response = await post({ config, files: { "../prompts/summarizer_v1.yaml": SUMMARIZER_V1 } });
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.field).toBe("files");
      expect(error.message).toContain("FileNotFoundError: /etc/hostname");
      const unknown = await post({ config: CONFIG, files: {}, path: "/etc/passwd" });
      expect(unknown.status).toBe(400);
      expect((await unknown.json()).error.message).toContain('unknown field "path"');
      const tooMany = await post({
        config: CONFIG,
        files: Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`p${index}.yaml`, ""])),
      });
      expect(tooMany.status).toBe(400);
    });

    it("refuses comparison.md for an eval that made a single EvalRun", async () => {
      const single = await runToEnd({ config: CONFIG.replace(/ {2}- \.\.\/prompts.*\n/, ""), model: "mock/fast" });
      expect(single.runs).toHaveLength(1);
      const response = await getComparison(new Request("http://test/x"), { params: Promise.resolve({ id: single.eval.id }) });
      expect(response.status).toBe(400);
      const json = await exportOf(single.eval.id, "json");
      expect(json.status).toBe(200);
      expect(JSON.parse(await json.text()).prompt_name).toBe("inline_prompt");
    });

    it("keeps a test case that could not render as its result's error, not passed and counted in pass_rate", async () => {
      const config = `model: mock/fast
prompts:
  - name: p
    template: "Tell {who} a joke"
test_cases:
  - name: fine
    inputs: {who: Ada}
  - name: lacking
    inputs: {whom: Ada}
`;
      const lacking = await runToEnd({ config });
      const [run] = lacking.runs;
      expect(run.pass_rate).toBe(0.5);
      expect(run.results[1]).toMatchObject({
        test_case: "lacking",
        passed: false,
        output: "",
        metrics: {},
        error: "Missing input variable who in test case lacking",
      });
      const csv = csvRecords(await (await exportOf(lacking.eval.id, "csv")).text());
      expect(csv.slice(1).map((row) => [row[2], row[4], row[9]])).toEqual([
        ["fine", "True", ""],
        ["lacking", "False", "Missing input variable who in test case lacking"],
      ]);
    });
    it("gives each result the judge's reasoning for the page, and keeps it out of the spec's JSON export", async () => {
      const config = `model: mock/fast
prompts:
  - name: p
    template: "Explain {topic}"
test_cases:
  - name: t
    inputs: {topic: recursion}
metrics:
  - type: llm_judge
    criteria: Is it accurate?
`;
      const judged = await runToEnd({ config });
      const [result] = judged.runs[0].results;
      expect(result.judge_reasoning).toMatch(/SCORE: [01](\.\d+)?\s*$/);
      expect(result.metrics.llm_judge).toBeGreaterThanOrEqual(0);
      expect(JSON.parse(await (await exportOf(judged.eval.id, "json")).text()).results[0]).not.toHaveProperty("judge_reasoning");
      // Without a judge there is no reasoning to show.
      expect(detail.runs[0].results[0].judge_reasoning).toBeNull();
    });
    it("answers GET /api/v1/runs/{id} for an eval run too, its test cases' lists and objects given as JSON text", async () => {
      // The route checks its answer against its schema outside production: an eval's rows used to fail it (a 500).
      const response = await getRunRoute(new Request(`http://test/api/v1/runs/${detail.eval.id}`), {
        params: Promise.resolve({ id: detail.eval.id }),
      });
      expect(response.status).toBe(200);
      const run: { kind: string; rows: Array<Record<string, string>> } = await response.json();
      expect(run.kind).toBe("eval");
      expect(run.rows).toHaveLength(2);
      expect(run.rows[0].name).toBe("test1");
      expect(JSON.parse(run.rows[0].expected_contains)).toEqual(["keyword"]);
    });
  });
}
