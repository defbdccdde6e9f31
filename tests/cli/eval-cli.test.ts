import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { openDatabase } from "@/lib/db/open-database";
import { CsvRecordReader } from "@/lib/formats/parse-csv";
import { evalComparison, evalExport, getEval } from "@/lib/services/evals";
import { markdownTableAfter } from "../unit/formats/eval-exports/fixtures";
import { findAll, parseXml, textOf } from "../unit/formats/eval-exports/xml-tree";
import { waitFor } from "../helpers/databases";
import { readJsonFixture, startVendorServer, TEST_API_KEY, type VendorServer } from "../helpers/vendor-server";

// `parallaxr eval` and `prompt-eval` as a user meets them (issue 12): subprocesses started in a
// directory far from the repository holding the spec's eval_summarizer example
// (tests/fixtures/evals), keyless on a mock model, and on the spec's own claude model answered by
// a local server speaking Anthropic's wire format, its key and address in that directory's .env.

const root = path.resolve(import.meta.dirname, "..", "..");
const bins = { parallaxr: path.join(root, "bin", "parallaxr.mjs"), "prompt-eval": path.join(root, "bin", "prompt-eval.mjs") };
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-eval-cwd-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-eval-data-"));

let anthropic: VendorServer;

type Result = { code: number; stdout: string; stderr: string };

function command(bin: keyof typeof bins, args: string[]): Promise<Result> {
  return started(bin, args).done;
}

function started(bin: keyof typeof bins, args: string[]): { child: ChildProcess; stderr: () => string; done: Promise<Result> } {
  const child = spawn(process.execPath, [bins[bin], ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<Result>((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { child, stderr: () => stderr, done };
}
const promptEval = (args: string[]) => command("prompt-eval", args);
const parallaxr = (args: string[]) => command("parallaxr", args);
const write = (name: string, text: string) => writeFileSync(path.join(workDir, name), text);
const read = (name: string) => readFileSync(path.join(workDir, name), "utf8");

/** The export paths of the success message on stdout, as printed (relative to the working directory). */
function exported(stdout: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.indexOf("Evaluation complete! Results exported to:");
  expect(start).toBeGreaterThanOrEqual(0);
  return lines
    .slice(start + 1)
    .filter((line) => line.startsWith("  "))
    .map((line) => line.trim());
}

/** The eval's id, from the [INFO] line that announces it. */
function evalIdOf(stderr: string): string {
  const match = /\[INFO\] Eval ([0-9a-f-]{36}):/.exec(stderr);
  expect(match).not.toBeNull();
  return match![1];
}

function csvRecords(text: string): string[][] {
  const reader = new CsvRecordReader(text, "export.csv", ",");
  const records: string[][] = [];
  for (let record = reader.next(); record !== null; record = reader.next()) records.push(record);
  return records;
}

const EXPORT_NAME = /^results\/(summarizer_v1|inline_prompt)_([0-9a-f]{8})_(\d{8}_\d{6})\.(json|csv|md|html)$/;

beforeAll(async () => {
  anthropic = await startVendorServer({ prefix: "/v1" });
  cpSync(path.join(root, "tests", "fixtures", "evals"), workDir, { recursive: true });
  write(".env", `ANTHROPIC_API_KEY=${TEST_API_KEY}\nANTHROPIC_BASE_URL=${anthropic.baseURL}\n`);
});
afterAll(async () => {
  await anthropic.close();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  anthropic.reset();
  routeClaude();
});

/** Claude answers with a summary that keeps the text's first three words (reset() forgets the route). */
function routeClaude(): void {
  anthropic.route("POST /v1/messages", (request) => {
    const body = request.body as { messages: Array<{ content: Array<{ text: string }> }> };
    const prompt = body.messages[0].content[0].text;
    const text = prompt.split("\n\n")[1].trim();
    const message = readJsonFixture("anthropic", "message.json");
    message.model = "claude-sonnet-4-20250514";
    message.content[0].text = `Summary: ${text.split(" ").slice(0, 3).join(" ")}.`;
    message.usage.input_tokens = 40;
    message.usage.output_tokens = 9;
    return { body: message };
  });
}

describe("prompt-eval and parallaxr eval (subprocesses run from outside the repository)", () => {
  it("prompt-eval run configs/eval_summarizer.yaml -f json, as the spec writes it: a JSON EvalRun per prompt, comparison.md, the paths printed", async () => {
    const result = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "json"]);
    expect(result.stderr).not.toContain("[WARNING]");
    expect(result.code).toBe(0);
    const paths = exported(result.stdout);
    expect(paths).toHaveLength(3);
    expect(paths[0]).toMatch(/^results\/summarizer_v1_[0-9a-f]{8}_\d{8}_\d{6}\.json$/);
    expect(paths[1]).toMatch(/^results\/inline_prompt_[0-9a-f]{8}_\d{8}_\d{6}\.json$/);
    expect(paths[2]).toBe("results/comparison.md");
    expect(readdirSync(path.join(workDir, "results")).sort()).toEqual(paths.map((where) => path.basename(where)).sort());

    const [fileRun, inlineRun] = paths.slice(0, 2).map((where) => JSON.parse(read(where)));
    expect(fileRun).toMatchObject({
      prompt_name: "summarizer_v1",
      model: "mock/fast",
      config: { model: "mock/fast", max_tokens: 256, temperature: 0, evaluation_threshold: 0.5 },
    });
    expect(fileRun.pass_rate).toBeCloseTo(2 / 3, 10);
    expect(fileRun.run_id).toBe(EXPORT_NAME.exec(paths[0])![2]);
    expect(
      fileRun.results.map((result: { test_case: string; metrics: Record<string, number>; passed: boolean; error: null }) => [
        result.test_case,
        result.metrics.contains,
        result.metrics.response_length,
        result.passed,
        result.error,
      ]),
    ).toEqual([
      ["test1", 1, 1, true, null],
      ["test2", 1 / 3, 1, false, null],
      ["test3", 2 / 3, 1, true, null],
    ]);
    expect(fileRun.results[0]).toMatchObject({
      prompt_name: "summarizer_v1",
      trial: 1,
      system_prompt: "You are a helpful assistant.",
      input_text: "Summarize this in 2 sentences:\n\nPython is a high-level programming language known for readability.\n",
    });
    expect(fileRun.results[0].output).toContain("Python is a high-level programming language");
    expect(inlineRun).toMatchObject({ prompt_name: "inline_prompt", model: "mock/fast" });
    expect(inlineRun.results[2]).toMatchObject({
      system_prompt: "",
      input_text: "Summarize this in 1 sentences:\n\nRust guarantees memory safety without a garbage collector.",
    });

    const comparison = read("results/comparison.md");
    expect(markdownTableAfter(comparison, "## Test-by-Test Comparison").rows).toEqual([
      ["test1", "✅", "✅"],
      ["test2", "❌", "❌"],
      ["test3", "✅", "✅"],
    ]);
    expect(markdownTableAfter(comparison, "### inline_prompt vs summarizer_v1").rows[0][5]).toBe("**not distinguishable**");
  }, 120_000);

  it("installed with npm install -g, prompt-eval on PATH runs the spec's command line as written", async () => {
    const prefix = mkdtempSync(path.join(tmpdir(), "parallaxr-eval-prefix-"));
    try {
      const env = {
        PATH: `${path.join(prefix, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
        HOME: workDir,
        npm_config_cache: path.join(prefix, ".npm"),
        npm_config_update_notifier: "false",
        PARALLAXR_DATA_DIR: dataDir,
      } as unknown as NodeJS.ProcessEnv;
      await promisify(execFile)("npm", ["install", "--global", root, "--prefix", prefix, "--no-audit", "--no-fund", "--offline"], {
        cwd: workDir,
        env,
        timeout: 120_000,
      });
      const { stdout } = await promisify(execFile)(
        "prompt-eval",
        ["run", "configs/eval_summarizer.yaml", "-f", "json", "-o", "installed"],
        {
          cwd: workDir,
          env,
          timeout: 120_000,
        },
      );
      expect(exported(stdout)).toEqual([
        expect.stringMatching(/^installed\/summarizer_v1_[0-9a-f]{8}_\d{8}_\d{6}\.json$/),
        expect.stringMatching(/^installed\/inline_prompt_[0-9a-f]{8}_\d{8}_\d{6}\.json$/),
        "installed/comparison.md",
      ]);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  }, 180_000);

  it("parallaxr eval run writes the spec's four formats by default, byte for byte the API's downloads, each parsed back; -v prints each result", async () => {
    const result = await parallaxr(["eval", "run", "configs/eval_summarizer.yaml", "-v"]);
    expect(result.code).toBe(0);
    const paths = exported(result.stdout);
    expect(paths).toHaveLength(9);
    expect(paths.slice(0, 8).map((where) => EXPORT_NAME.exec(where)?.slice(1, 2).concat(EXPORT_NAME.exec(where)![4]))).toEqual([
      ["summarizer_v1", "json"],
      ["summarizer_v1", "csv"],
      ["summarizer_v1", "md"],
      ["summarizer_v1", "html"],
      ["inline_prompt", "json"],
      ["inline_prompt", "csv"],
      ["inline_prompt", "md"],
      ["inline_prompt", "html"],
    ]);
    expect(paths[8]).toBe("results/comparison.md");
    const resultLines = result.stderr.split("\n").filter((line) => /^\[(PASS|FAIL|ERROR)\]/.test(line));
    expect(resultLines.sort()).toEqual(
      [
        "[FAIL] inline_prompt on mock/fast: test2: contains=0.333 response_length=1.000",
        "[FAIL] summarizer_v1 on mock/fast: test2: contains=0.333 response_length=1.000",
        "[PASS] inline_prompt on mock/fast: test1: contains=1.000 response_length=1.000",
        "[PASS] inline_prompt on mock/fast: test3: contains=0.667 response_length=1.000",
        "[PASS] summarizer_v1 on mock/fast: test1: contains=1.000 response_length=1.000",
        "[PASS] summarizer_v1 on mock/fast: test3: contains=0.667 response_length=1.000",
      ].map((line) => expect.stringMatching(new RegExp(`^${line.replace(/[[\]().=]/g, "\\$&")} \\(\\d+ ms\\)$`))),
    );
    expect(result.stderr).toMatch(/summarizer_v1 on mock\/fast \(run [0-9a-f]{8}\): 2\/3 passed \(66\.7%\)/);

    const [json, csv, markdown, html] = paths.slice(0, 4).map(read);
    const runId = JSON.parse(json).run_id;
    const header = csvRecords(csv)[0];
    expect(header.slice(-2)).toEqual(["metric_contains", "metric_response_length"]);
    expect(
      csvRecords(csv)
        .slice(1)
        .map((row) => [row[2], row[4]]),
    ).toEqual([
      ["test1", "True"],
      ["test2", "False"],
      ["test3", "True"],
    ]);
    expect(markdownTableAfter(markdown, "## Results").rows.map((row) => [row[0], row[1]])).toEqual([
      ["test1", "✅"],
      ["test2", "❌"],
      ["test3", "✅"],
    ]);
    const document = parseXml(html);
    expect(document.name).toBe("html");
    expect(findAll(document, "script")).toEqual([]);
    expect(
      findAll(document, "pre")
        .map(textOf)
        .some((text) => text.includes("Rust guarantees memory safety")),
    ).toBe(true);

    // The same files as GET /api/v1/evals/{id}/export/{format} and comparison.md give, byte for byte.
    const evalId = evalIdOf(result.stderr);
    const db = await openDatabase({ dataDir });
    try {
      for (const [index, format] of (["json", "csv", "markdown", "html"] as const).entries()) {
        const file = await evalExport({ db }, { userId: localUserId, evalId, format, run: runId });
        expect(path.join("results", file.filename)).toBe(paths[index]);
        expect(Buffer.from(read(paths[index]))).toEqual(Buffer.from(file.text));
      }
      const comparison = await evalComparison({ db }, { userId: localUserId, evalId });
      expect(read("results/comparison.md")).toBe(comparison.text);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("on a terminal, one progress line rewritten in place as results finish (script gives the command a terminal)", async () => {
    const { stdout } = await promisify(execFile)(
      "script",
      ["-qec", `"${process.execPath}" "${bins["prompt-eval"]}" run configs/eval_summarizer.yaml -f json -o tty`, "/dev/null"],
      {
        cwd: workDir,
        env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
        timeout: 120_000,
      },
    );
    const progress = stdout.split("\r\u001b[2K").slice(1);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-2)).toMatch(/^6\/6 results: 4 passed, 2 not passed/);
    // each progress line differs from the one before it
    expect(progress.slice(0, -1).every((line, index) => index === 0 || line !== progress[index - 1])).toBe(true);
    expect(stdout).toContain("Evaluation complete! Results exported to:");
  }, 120_000);

  it("parallaxr eval CONFIG is eval run; -f junit writes one JUnit XML of every run; -q prints only the paths", async () => {
    const result = await parallaxr(["eval", "configs/eval_summarizer.yaml", "-f", "junit", "-o", "junit-out", "-q"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const paths = exported(result.stdout);
    expect(paths).toEqual([expect.stringMatching(/^junit-out\/eval_[0-9a-f]{8}_\d{8}_\d{6}\.xml$/), "junit-out/comparison.md"]);
    const suites = parseXml(read(paths[0]));
    expect(suites.attributes).toMatchObject({ tests: "6", failures: "2", errors: "0" });
    expect(findAll(suites, "testsuite").map((suite) => suite.attributes.name)).toEqual([
      "summarizer_v1 (mock/fast)",
      "inline_prompt (mock/fast)",
    ]);
  }, 120_000);

  it("runs the spec's own config on claude-sonnet-4-20250514 through a local Anthropic server, then from the cache, and calls again with --no-cache", async () => {
    const first = await promptEval(["run", "configs/eval_summarizer_claude.yaml", "-f", "json", "-o", "claude"]);
    expect(first.code).toBe(0);
    const posts = anthropic.requests.filter((request) => request.method === "POST");
    expect(posts).toHaveLength(6);
    for (const post of posts) {
      expect(post.path).toBe("/v1/messages");
      expect(post.headers["x-api-key"]).toBe(TEST_API_KEY);
      expect(post.body).toMatchObject({ model: "claude-sonnet-4-20250514", max_tokens: 256, temperature: 0 });
    }
    const withSystem = posts.filter((post) => JSON.stringify(post.body.system ?? null).includes("You are a helpful assistant."));
    expect(withSystem).toHaveLength(3);
    const [fileRun] = exported(first.stdout)
      .slice(0, 1)
      .map((where) => JSON.parse(read(where)));
    expect(fileRun).toMatchObject({ prompt_name: "summarizer_v1", model: "claude-sonnet-4-20250514" });
    expect(
      fileRun.results.map(
        (result: {
          test_case: string;
          output: string;
          metrics: Record<string, number>;
          passed: boolean;
          tokens_in: number;
          tokens_out: number;
        }) => [result.test_case, result.output, result.metrics.contains, result.passed, result.tokens_in, result.tokens_out],
      ),
    ).toEqual([
      ["test1", "Summary: Python is a.", 2 / 3, true, 40, 9],
      ["test2", "Summary: The quick brown.", 1 / 3, false, 40, 9],
      ["test3", "Summary: Rust guarantees memory.", 2 / 3, true, 40, 9],
    ]);

    anthropic.reset();
    routeClaude();
    const cached = await promptEval(["run", "configs/eval_summarizer_claude.yaml", "-f", "json", "-o", "claude"]);
    expect(cached.code).toBe(0);
    expect(anthropic.requests).toHaveLength(0);

    const uncached = await promptEval(["run", "configs/eval_summarizer_claude.yaml", "-f", "json", "-o", "claude", "--no-cache"]);
    expect(uncached.code).toBe(0);
    expect(anthropic.requests.filter((request) => request.method === "POST")).toHaveLength(6);
    const [again] = exported(uncached.stdout)
      .slice(0, 1)
      .map((where) => JSON.parse(read(where)));
    expect(again.run_id).not.toBe(fileRun.run_id);
    expect(again.results.map((result: { output: string; error: string | null }) => [result.output, result.error])).toEqual(
      fileRun.results.map((result: { output: string }) => [result.output, null]),
    );
  }, 180_000);

  it("--concurrency bounds the calls at once (4 by default)", async () => {
    const starts: number[] = [];
    anthropic.route("POST /v1/messages", () => {
      starts.push(Date.now());
      const message = readJsonFixture("anthropic", "message.json");
      return { body: message, delayMs: 1_000 };
    });
    // The most calls in flight at once: each call lasts from its arrival for the server's 1,000 ms.
    const peak = () => Math.max(...starts.map((start) => starts.filter((other) => other <= start && other > start - 1_000).length));
    const one = await promptEval([
      "run",
      "configs/eval_summarizer_claude.yaml",
      "-f",
      "json",
      "-o",
      "slow",
      "-q",
      "--no-cache",
      "--concurrency",
      "1",
    ]);
    expect(one.code).toBe(0);
    expect(starts).toHaveLength(6);
    expect(peak()).toBe(1);
    starts.length = 0;
    const four = await promptEval(["run", "configs/eval_summarizer_claude.yaml", "-f", "json", "-o", "slow", "-q", "--no-cache"]);
    expect(four.code).toBe(0);
    expect(starts).toHaveLength(6);
    expect(peak()).toBe(4);
  }, 120_000);

  it("Ctrl-C (SIGINT) while the calls are in flight: exit 130, the eval cancelled, nothing exported", async () => {
    anthropic.route("POST /v1/messages", { body: readJsonFixture("anthropic", "message.json"), delayMs: 60_000 });
    const running = started("prompt-eval", ["run", "configs/eval_summarizer_claude.yaml", "-o", "interrupted", "--no-cache"]);
    await waitFor(() => anthropic.requests.length >= 1, { what: "the first call", timeoutMs: 60_000 });
    running.child.kill("SIGINT");
    const result = await running.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/Interrupted: 0 of 6 results had finished; nothing was exported\. The eval [0-9a-f-]{36} was cancelled/);
    expect(existsSync(path.join(workDir, "interrupted"))).toBe(false);
    const db = await openDatabase({ dataDir });
    try {
      const detail = await getEval({ db }, { userId: localUserId, evalId: evalIdOf(result.stderr) });
      // A cancelled run is claimed by no worker again: its waiting cells are cancelled, the calls
      // that were in flight were given up when the command stopped.
      expect(detail.eval.status).toBe("cancelled");
      expect(detail.eval.counts).toMatchObject({ ok: 0, warning: 0 });
    } finally {
      await db.close();
    }
  }, 120_000);

  it("models: runs each prompt on each model, repeat: N trials; comparison.md for one prompt on two models; -m replaces models", async () => {
    write(
      "configs/two-models.yaml",
      [
        "models: [mock/fast, mock/echo]",
        "repeat: 2",
        "prompts:",
        "  - ../prompts/summarizer_v1.yaml",
        "test_cases:",
        "  - name: only",
        "    inputs: {text: Tea is a drink., max_sentences: 1}",
        "    expected_contains: [Tea]",
        "",
      ].join("\n"),
    );
    const both = await promptEval(["run", "configs/two-models.yaml", "-f", "json", "-o", "models", "-v"]);
    expect(both.code).toBe(0);
    const paths = exported(both.stdout);
    expect(paths).toHaveLength(3);
    expect(paths[2]).toBe("models/comparison.md");
    const runs = paths.slice(0, 2).map((where) => JSON.parse(read(where)));
    expect(runs.map((run) => [run.prompt_name, run.model, run.results.map((result: { trial: number }) => result.trial)])).toEqual([
      ["summarizer_v1", "mock/fast", [1, 2]],
      ["summarizer_v1", "mock/echo", [1, 2]],
    ]);
    expect(both.stderr).toMatch(/\[PASS\] summarizer_v1 on mock\/echo: only \(trial 2\): contains=1\.000/);
    expect(markdownTableAfter(read("models/comparison.md"), "## Test-by-Test Comparison").rows).toEqual([["only", "✅ 2/2", "✅ 2/2"]]);

    const one = await promptEval(["run", "configs/two-models.yaml", "-f", "json", "-o", "one-model", "-m", "mock/fast"]);
    expect(one.code).toBe(0);
    expect(exported(one.stdout)).toEqual([expect.stringMatching(/^one-model\/summarizer_v1_[0-9a-f]{8}_\d{8}_\d{6}\.json$/)]);
  }, 120_000);

  it("--tags runs the test cases with any of the tags; a tag no test case has is an error naming the config's tags", async () => {
    const basic = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "json", "-o", "tags", "--tags", "basic"]);
    expect(basic.code).toBe(0);
    const [basicRun] = exported(basic.stdout)
      .filter((where) => where.endsWith(".json"))
      .map((where) => JSON.parse(read(where)));
    expect(basicRun.results.map((result: { test_case: string }) => result.test_case)).toEqual(["test1", "test2"]);

    rmSync(path.join(workDir, "tags"), { recursive: true });
    const either = await promptEval([
      "run",
      "configs/eval_summarizer.yaml",
      "-f",
      "json",
      "-o",
      "tags",
      "--tags",
      "basic,programming",
      "-m",
      "mock/echo",
    ]);
    expect(either.code).toBe(0);
    const [eitherRun] = exported(either.stdout)
      .filter((where) => where.endsWith(".json"))
      .map((where) => JSON.parse(read(where)));
    expect(eitherRun.model).toBe("mock/echo");
    expect(eitherRun.results.map((result: { test_case: string }) => result.test_case)).toEqual(["test1", "test2", "test3"]);

    const none = await promptEval(["run", "configs/eval_summarizer.yaml", "--tags", "nothing"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("No test cases have any of the tags nothing; the config's tags are basic, programming.");
  }, 180_000);

  it("--fail-under exits 1 when the overall pass rate is lower, 0 when it is not", async () => {
    const strict = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "json", "-o", "ci", "--fail-under", "0.9"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("Overall pass rate 66.7% (4 of 6 results) is below --fail-under 90.0%.");
    expect(exported(strict.stdout)).toHaveLength(3);
    const lenient = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "json", "-o", "ci", "--fail-under", "0.6"]);
    expect(lenient.code).toBe(0);
    const wrong = await promptEval(["run", "configs/eval_summarizer.yaml", "--fail-under", "90"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--fail-under must be a number from 0 to 1; got "90".');
  }, 180_000);

  it("--baseline RUN_ID compares each run with an earlier EvalRun: the interval, the verdict, a file beside the exports", async () => {
    const earlier = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "json", "-o", "before", "-q"]);
    expect(earlier.code).toBe(0);
    const baselineId = JSON.parse(read(exported(earlier.stdout)[0])).run_id;

    const later = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "json", "-o", "after", "-q", "--baseline", baselineId]);
    expect(later.code).toBe(0);
    const lines = later.stdout.split("\n");
    expect(lines[0]).toMatch(
      new RegExp(
        `^summarizer_v1 on mock/fast \\([0-9a-f]{8}\\) vs baseline summarizer_v1 on mock/fast \\(${baselineId}\\), 3 paired cases: ` +
          "pass rate 66\\.7% -> 66\\.7%, difference 0\\.0 pp \\(95% CI -\\d+\\.\\d pp to \\+\\d+\\.\\d pp, McNemar p = 1\\.000\\): not distinguishable$",
      ),
    );
    expect(lines[1]).toContain(`inline_prompt on mock/fast`);
    expect(lines[1]).toContain("not distinguishable");
    const paths = exported(later.stdout);
    expect(paths.at(-1)).toBe(`after/baseline_${baselineId}_comparison.md`);
    const report = read(paths.at(-1)!);
    expect(report).toContain("**Prompts Compared:** 3");
    const paired = markdownTableAfter(report, "## Paired Comparisons");
    expect(paired.rows[0][0]).toBe("Pass rate");
    expect(paired.rows[0][5]).toBe("**not distinguishable**");

    const unknown = await promptEval(["run", "configs/eval_summarizer.yaml", "--baseline", "0000000f"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No EvalRun has the run_id 0000000f.");
    expect(existsSync(path.join(workDir, "results", "baseline_0000000f_comparison.md"))).toBe(false);
    const malformed = await promptEval(["run", "configs/eval_summarizer.yaml", "--baseline", "../x"]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain("--baseline takes an EvalRun's run_id, 8 hex characters");
  }, 180_000);

  it("validate prints the plan: prompts, models, test cases, trials, cells, warnings; exit 0, or 2 with the problem", async () => {
    const valid = await promptEval(["validate", "configs/eval_summarizer.yaml"]);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toBe(
      [
        "Config: configs/eval_summarizer.yaml",
        "Prompts (2): summarizer_v1, inline_prompt",
        "Models (1): mock/fast (mock)",
        "Test cases (3): test1, test2, test3",
        "Trials: 1",
        "Cells: 6 (2 prompts x 1 models x 3 test cases x 1 trials)",
        "Metrics: contains, response_length",
        "Settings: max_tokens 256, temperature 0, evaluation_threshold 0.5",
        "Warnings: none",
        "Config is valid.",
        "",
      ].join("\n"),
    );
    write(
      "configs/warned.yaml",
      "models: [mock/fast, claude-sonnet-4-20250514]\nrepeat: 2\ncolour: blue\nprompts:\n  - name: p\n    template: '{text} {missing}'\ntest_cases:\n  - name: t\n    inputs: {text: hi}\n",
    );
    const warned = await parallaxr(["eval", "validate", "configs/warned.yaml"]);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain("Models (2): mock/fast (mock), claude-sonnet-4-20250514 (anthropic)");
    expect(warned.stdout).toContain("Cells: 4 (1 prompts x 2 models x 1 test cases x 2 trials)");
    expect(warned.stdout).toMatch(/Warnings \(2\):\n {2}configs\/warned\.yaml, line 3: .*colour/);
    expect(warned.stdout).toContain("  prompt p: Missing input variable missing in test case t (that result will be an error)");
    const absolute = path.join(workDir, "prompts", "summarizer_v1.yaml");
    write(
      "configs/absolute.yaml",
      `model: mock/fast\nprompts:\n  - ${absolute}\ntest_cases:\n  - name: t\n    inputs: {text: a, max_sentences: 1}\n`,
    );
    const fromAbsolute = await promptEval(["validate", "configs/absolute.yaml"]);
    expect(fromAbsolute.stderr).toBe("");
    expect(fromAbsolute.stdout).toContain("Prompts (1): summarizer_v1");
    write("configs/no-cases.yaml", "model: mock/fast\nprompts:\n  - name: p\n    template: '{text}'\n");
    const invalid = await parallaxr(["eval", "validate", "configs/no-cases.yaml"]);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toBe("");
    expect(invalid.stderr).toContain("configs/no-cases.yaml: No test cases found in config!");
  }, 60_000);

  it("says each of the spec's errors, exit 2, nothing called", async () => {
    const cases: Array<[string, string | null, string]> = [
      ["configs/nope.yaml", null, "Config file not found: configs/nope.yaml"],
      [
        "configs/invalid.yaml",
        "model: mock/fast\nprompts:\n  - name: x\n    template: '{a}'\n  oops: [\n",
        "configs/invalid.yaml, line 5: Invalid YAML at line 5",
      ],
      [
        "configs/missing-name.yaml",
        "model: mock/fast\nprompts:\n  - name: x\n    template: '{a}'\ntest_cases:\n  - inputs: {a: 1}\n",
        "configs/missing-name.yaml, line 6: test_cases[0].name is required",
      ],
      [
        "configs/missing-file.yaml",
        "model: mock/fast\nprompts:\n  - prompts/xyz.yaml\ntest_cases:\n  - name: t\n    inputs: {a: 1}\n",
        "configs/missing-file.yaml, line 3: FileNotFoundError: prompts/xyz.yaml\nPrompt file paths are relative to the config file's directory (configs): looked for configs/prompts/xyz.yaml.",
      ],
      ["configs/no-prompts.yaml", "model: mock/fast\ntest_cases:\n  - name: t\n", "No prompts found in config!"],
      ["configs/no-tests.yaml", "model: mock/fast\nprompts:\n  - name: x\n    template: '{a}'\n", "No test cases found in config!"],
      [
        "configs/bare-model.yaml",
        "model: llama3\nprompts:\n  - name: x\n    template: '{a}'\ntest_cases:\n  - name: t\n",
        "a bare model name must start with claude- (anthropic)",
      ],
    ];
    for (const [file, text, message] of cases) {
      if (text !== null) write(file, text);
      const result = await promptEval(["run", file]);
      expect(result.stderr, file).toContain(message);
      expect(result.code, file).toBe(2);
      expect(result.stdout, file).toBe("");
    }
    expect(anthropic.requests).toHaveLength(0);
    const usage = await promptEval(["run", "configs/eval_summarizer.yaml", "-f", "pdf"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("argument 'pdf' is invalid. Allowed choices are json, csv, markdown, html, junit, all.");
    const both = await promptEval(["run", "configs/eval_summarizer.yaml", "-v", "-q"]);
    expect(both.code).toBe(2);
    const concurrency = await promptEval(["run", "configs/eval_summarizer.yaml", "--concurrency", "0"]);
    expect(concurrency.code).toBe(2);
    expect(concurrency.stderr).toContain('--concurrency must be a whole number from 1 to 256; got "0".');
  }, 180_000);

  it("--help names every flag and the exit codes, for prompt-eval run and parallaxr eval", async () => {
    const help = await promptEval(["run", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of [
      "-o, --output",
      "-f, --format",
      "-m, --model",
      "-v, --verbose",
      "-q, --quiet",
      "--concurrency",
      "--no-cache",
      "--tags",
      "--baseline",
      "--fail-under",
      "--server",
      "--token",
    ]) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toContain("Exit codes: 0 the eval ran");
    const top = await parallaxr(["eval", "--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("validate [options] <config>");
    const validate = await parallaxr(["eval", "validate", "--help"]);
    expect(validate.stdout).toContain("Exit codes: 0 the config is valid");
  }, 60_000);
});
