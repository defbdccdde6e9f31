import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { openDatabase } from "@/lib/db/open-database";
import { listMatrices, matrixZip } from "@/lib/services/matrix";
import { waitFor } from "../helpers/databases";
import { readJsonFixture, startVendorServer, TEST_API_KEY, type RecordedRequest, type VendorServer } from "../helpers/vendor-server";

// `parallaxr matrix` and `pidcast-eval` as a user meets them (issue 13): subprocesses started in
// directories far from the repository, each holding a data/evals folder of the spec's layout
// (prompts/, inputs/, models.txt), keyless on mock models, and on the spec's Groq models answered
// by a local server speaking Groq's (OpenAI's) chat-completions format, its key and address in
// that directory's .env. The spec's manual checklist, automated.

const root = path.resolve(import.meta.dirname, "..", "..");
const bins = { parallaxr: path.join(root, "bin", "parallaxr.mjs"), "pidcast-eval": path.join(root, "bin", "pidcast-eval.mjs") };
const workRoot = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-cwd-"));
const databaseDir = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-data-"));

let groq: VendorServer;
/** Answers Groq gave, by model and prompt: what was paid for. */
let answered: Map<string, number>;
/** When set, a request after this many answers is never answered (the call in flight when the process dies). */
let answerOnly: number | null;
/** When set, Groq refuses every call with this status and body. */
let refuse: { status: number; body: unknown } | null;

type Result = { code: number; stdout: string; stderr: string };

const env = () => ({ PATH: process.env.PATH ?? "", HOME: workRoot, PARALLAXR_DATA_DIR: databaseDir }) as unknown as NodeJS.ProcessEnv;

function started(
  bin: keyof typeof bins,
  args: string[],
  cwd: string,
): { child: ChildProcess; stderr: () => string; done: Promise<Result> } {
  const child = spawn(process.execPath, [bins[bin], ...args], { cwd, env: env(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<Result>((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { child, stderr: () => stderr, done };
}
const run = (bin: keyof typeof bins, args: string[], cwd: string) => started(bin, args, cwd).done;

/**
 * A directory of its own with data/evals: prompts v1.txt ({{input}}) and v2.md, inputs
 * tech-talk-01 (titled by its heading) and interview-02, models.txt when models are given, and a
 * .env pointing Groq at the local server.
 */
function project(name: string, { models = null, inputs }: { models?: string[] | null; inputs?: Record<string, string> } = {}): string {
  const cwd = path.join(workRoot, name);
  const data = path.join(cwd, "data", "evals");
  mkdirSync(path.join(data, "prompts"), { recursive: true });
  mkdirSync(path.join(data, "inputs"), { recursive: true });
  writeFileSync(path.join(data, "prompts", "v1.txt"), "Summarize {{input_id}}:\n\n{{input}}\n");
  writeFileSync(path.join(data, "prompts", "v2.md"), "List the key points of this transcript:\n\n{{transcript}}\n");
  const texts = inputs ?? {
    "tech-talk-01": "# Example Tech Talk\n\nRust makes systems programming safer.\n",
    "interview-02": "An interview about gardening.\n",
  };
  for (const [id, text] of Object.entries(texts)) writeFileSync(path.join(data, "inputs", `${id}.md`), text);
  if (models) writeFileSync(path.join(data, "models.txt"), `${models.join("\n")}\n`);
  writeFileSync(path.join(cwd, ".env"), `GROQ_API_KEY=${TEST_API_KEY}\nGROQ_BASE_URL=${groq.baseURL}\n`);
  return cwd;
}

const dataOf = (cwd: string, ...parts: string[]) => path.join(cwd, "data", "evals", ...parts);
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
/** Every entry of runs/: the run files, and anything else left there (a temporary file of a killed write). */
const runsFolder = (cwd: string) => (existsSync(dataOf(cwd, "runs")) ? readdirSync(dataOf(cwd, "runs")).sort() : []);
const runFiles = (cwd: string) => runsFolder(cwd).filter((name) => !name.startsWith("."));
const progressLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("Running "));

function batchIdOf(stderr: string): string {
  const match = /^Batch (\d{8}_\d{6}_matrix): \d+ evals, \d+ at a time$/m.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match![1];
}

/** The key a Groq call is paid under: the model and the prompt it was sent. */
function callKey(request: RecordedRequest): string {
  const body = request.body as { model: string; messages: Array<{ content: string }> };
  return `${body.model}\u0000${body.messages.map((message) => message.content).join("\u0000")}`;
}

function routeGroq(): void {
  groq.route("POST /openai/v1/chat/completions", (request) => {
    if (refuse) return refuse;
    const total = [...answered.values()].reduce((sum, count) => sum + count, 0);
    if (answerOnly !== null && total >= answerOnly) return { hang: true };
    const key = callKey(request);
    answered.set(key, (answered.get(key) ?? 0) + 1);
    const body = request.body as { model: string; messages: Array<{ content: string }> };
    const completion = readJsonFixture("groq", "chat-completion.json");
    completion.model = body.model;
    completion.choices[0].message.content = `## Summary\n\n${body.model} read ${body.messages.at(-1)!.content.length} characters.`;
    completion.usage.prompt_tokens = 1200;
    completion.usage.completion_tokens = 85;
    return { body: completion };
  });
}

/** A command run on a terminal (script gives it one), typed input written to it; what the terminal showed. */
function onTerminal(commandLine: string, cwd: string, typed: string): Promise<{ code: number; output: string }> {
  const child = spawn("script", ["-qec", commandLine, "/dev/null"], { cwd, env: env(), stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  child.stdin.write(typed);
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, output })));
}

/** Every file of the batch's zip from the database equals the file the command wrote, byte for byte. */
async function expectFilesAsDownloaded(cwd: string, batchId: string, { index }: { index: boolean }): Promise<Record<string, Uint8Array>> {
  const db = await openDatabase({ dataDir: databaseDir });
  try {
    const [matrix] = (await listMatrices({ db }, { userId: localUserId, batchId, limit: 1 })).matrices;
    expect(matrix.status).toBe("completed");
    const files = unzipSync((await matrixZip({ db }, { userId: localUserId, matrixId: matrix.id })).bytes);
    for (const [entry, bytes] of Object.entries(files)) {
      if (entry === "comparisons/index.md" && !index) continue;
      expect(Buffer.from(readFileSync(dataOf(cwd, ...entry.split("/")))), entry).toEqual(Buffer.from(bytes));
    }
    return files;
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  groq = await startVendorServer({ prefix: "/openai/v1" });
});
afterAll(async () => {
  await groq.close();
  rmSync(workRoot, { recursive: true, force: true });
  rmSync(databaseDir, { recursive: true, force: true });
});
beforeEach(() => {
  groq.reset();
  answered = new Map();
  answerOnly = null;
  refuse = null;
  routeGroq();
});

describe("parallaxr matrix and pidcast-eval (subprocesses run from outside the repository)", () => {
  it("--help names every flag, the data folder, the files and the exit codes; pidcast-eval --help is the same command", async () => {
    const cwd = project("help");
    const help = await run("parallaxr", ["matrix", "--help"], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: parallaxr matrix \[options\]/);
    for (const flag of [
      "--prompts",
      "--models",
      "--inputs",
      "--transcripts",
      "--prompt-version",
      "--prompt_version",
      "--model",
      "--input",
      "--transcript_id",
      "--run-matrix",
      "--groq_api_key",
      "--verbose",
      "--data-dir",
      "--yes",
      "--concurrency",
      "--budget",
      "--no-cache",
      "--no-comparisons",
      "--grader",
      "--grader-model",
      "--metrics",
      "--resume",
      "--server",
      "--token",
    ])
      expect(help.stdout).toContain(flag);
    expect(help.stdout).toContain("runs/{run_id}.json");
    expect(help.stdout).toContain("batches/{batch_id}/summary.json");
    expect(help.stdout).toMatch(/Exit codes: 0 .*\n(.*\n)*.*130 interrupted/);
    const alias = await run("pidcast-eval", ["--help"], cwd);
    expect(alias.code).toBe(0);
    expect(alias.stdout).toBe(help.stdout);
  }, 120_000);

  it("runs every combination (2 prompts x 2 models x 2 inputs = 8): plan, a progress line per eval, summary, the batch folder as the API downloads it", async () => {
    const cwd = project("full", { models: ["mock/echo", "mock/fast"] });
    const result = await run("parallaxr", ["matrix"], cwd);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split("\n");
    // the plan before anything runs
    expect(lines.slice(0, 8)).toEqual([
      "Prompts: v1, v2",
      "Models: mock/echo, mock/fast",
      "Inputs: interview-02, tech-talk-01",
      "Evals: 8 (2 prompts x 2 models x 2 inputs)",
      expect.stringMatching(/^Estimated tokens: \d+ input \/ 8,000 output$/),
      expect.stringMatching(/^ {2}mock\/echo: 4 evals, \d+ input \/ 4,000 output tokens, /),
      expect.stringMatching(/^ {2}mock\/fast: 4 evals, \d+ input \/ 4,000 output tokens, /),
      expect.stringMatching(/^Estimated cost: /),
    ]);
    const batchId = batchIdOf(result.stderr);
    // one line per eval as it starts, counted 1 to 8, each combination once
    const progress = progressLines(result.stderr);
    expect(progress.map((line) => /^Running (\d+)\/8: /.exec(line)?.[1])).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    const combos = progress.map((line) => line.replace(/^Running \d+\/8: /, "")).sort();
    expect(combos).toEqual(
      ["v1", "v2"]
        .flatMap((prompt) =>
          ["mock/echo", "mock/fast"].flatMap((model) => ["interview-02", "tech-talk-01"].map((input) => `${prompt} + ${model} + ${input}`)),
        )
        .sort(),
    );
    // the summary after
    expect(result.stderr).toMatch(new RegExp(`^Batch ${batchId}: 8/8 evals succeeded, 0 failed in \\d+\\.\\ds$`, "m"));
    expect(result.stderr).toMatch(/^Tokens: \d+ input \/ \d+ output$/m);
    expect(result.stderr).toMatch(/^Actual cost: /m);
    expect(result.stdout.split("\n")).toEqual([
      "8 run files in data/evals/runs",
      `data/evals/batches/${batchId}/summary.json`,
      "data/evals/comparisons/index.md",
      "",
    ]);

    // runs/: one file per eval, named by the spec's run id
    const runs = runFiles(cwd);
    expect(runs).toHaveLength(8);
    for (const name of runs) expect(name).toMatch(/^\d{8}_\d{6}_v[12]_mock-(echo|fast)_(interview-02|tech-talk-01)\.json$/);
    const record = readJson(
      dataOf(
        cwd,
        "runs",
        runs.find((name) => name.includes("_v1_mock-fast_tech-talk-01"))!,
      ),
    );
    expect(record).toMatchObject({
      batch_id: batchId,
      prompt: { version: "v1", name: null },
      model: { name: "mock/fast", provider: "mock", model: "fast" },
      input: { id: "tech-talk-01", title: "Example Tech Talk" },
      error: null,
    });
    expect(record.output).toContain("Summarize tech-talk-01:");

    // batches/{batch_id}/summary.json with the spec's totals
    const summary = readJson(dataOf(cwd, "batches", batchId, "summary.json"));
    expect(summary).toMatchObject({
      batch_id: batchId,
      total_runs: 8,
      successful_runs: 8,
      failed_runs: 0,
      config: { prompts: ["v1", "v2"], models: ["mock/echo", "mock/fast"], transcripts: ["interview-02", "tech-talk-01"] },
      errors: [],
    });
    expect([...summary.runs].map((id: string) => `${id}.json`).sort()).toEqual(runs);
    expect(summary.total_tokens_input).toBe(runs.reduce((sum, name) => sum + readJson(dataOf(cwd, "runs", name)).tokens.input, 0));

    // comparisons/: 4 prompt comparisons (input x model) and 4 model comparisons (input x prompt), and the index
    const stamp = batchId.replace(/_matrix$/, "");
    const folders = readdirSync(dataOf(cwd, "comparisons"))
      .filter((name) => name !== "index.md")
      .sort();
    expect(folders).toEqual(
      [
        `${stamp}_model_interview-02_v1`,
        `${stamp}_model_interview-02_v2`,
        `${stamp}_model_tech-talk-01_v1`,
        `${stamp}_model_tech-talk-01_v2`,
        `${stamp}_prompt_interview-02_mock-echo`,
        `${stamp}_prompt_interview-02_mock-fast`,
        `${stamp}_prompt_tech-talk-01_mock-echo`,
        `${stamp}_prompt_tech-talk-01_mock-fast`,
      ].sort(),
    );
    const prompt = readFileSync(dataOf(cwd, "comparisons", `${stamp}_prompt_tech-talk-01_mock-fast`, "comparison.md"), "utf8");
    expect(prompt).toMatch(/^---\ncomparison_type: prompt_comparison\n/);
    expect(prompt).toContain(
      "# Prompt Comparison: tech-talk-01\n\n**Transcript**: Example Tech Talk\n**Model**: mock/fast\n**Compared**: v1, v2\n",
    );
    const index = readFileSync(dataOf(cwd, "comparisons", "index.md"), "utf8");
    const links = [...index.matchAll(/\]\((\.\/[^)]+)\)/g)].map((match) => decodeURIComponent(match[1]));
    expect(links).toHaveLength(8);
    for (const link of links) expect(existsSync(path.join(dataOf(cwd, "comparisons"), link)), link).toBe(true);

    await expectFilesAsDownloaded(cwd, batchId, { index: true });
  }, 180_000);

  it("pidcast-eval --run-matrix --prompts v1,v2 --models llama-3.3-70b --transcripts tech-talk-01, as the spec writes it: only that subset, 2 evals on Groq", async () => {
    const cwd = project("subset", { models: ["llama-3.3-70b", "mixtral"] });
    const result = await run(
      "pidcast-eval",
      ["--run-matrix", "--prompts", "v1,v2", "--models", "llama-3.3-70b", "--transcripts", "tech-talk-01"],
      cwd,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Evals: 2 (2 prompts x 1 model x 1 input)\n");
    expect(result.stderr).toMatch(/^ {2}llama-3\.3-70b: 2 evals, \d+ input \/ 2,000 output tokens, \$\d+\.\d{4}$/m);
    expect(progressLines(result.stderr).sort()).toEqual([
      "Running 1/2: v1 + llama-3.3-70b + tech-talk-01",
      "Running 2/2: v2 + llama-3.3-70b + tech-talk-01",
    ]);
    const calls = groq.requests.filter((request) => request.method === "POST");
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
      expect(call.body.model).toBe("llama-3.3-70b-versatile");
    }
    expect(runFiles(cwd)).toHaveLength(2);
    const batchId = batchIdOf(result.stderr);
    const summary = readJson(dataOf(cwd, "batches", batchId, "summary.json"));
    expect(summary).toMatchObject({
      total_runs: 2,
      successful_runs: 2,
      total_tokens_input: 2400,
      total_tokens_output: 170,
      config: { prompts: ["v1", "v2"], models: ["llama-3.3-70b"], transcripts: ["tech-talk-01"] },
    });
    expect(summary.total_cost_usd).toBeGreaterThan(0);
    // one prompt comparison (v1 vs v2 on tech-talk-01 and llama), no model comparison (one model)
    const comparison = readFileSync(
      dataOf(cwd, "comparisons", `${batchId.replace(/_matrix$/, "")}_prompt_tech-talk-01_llama-3.3-70b`, "comparison.md"),
      "utf8",
    );
    expect(comparison).toContain("**Model**: llama-3.3-70b-versatile\n**Compared**: v1, v2\n");
    expect(comparison).toContain("**Tokens**: 1,200 input / 85 output\n");
    expect(comparison).toContain("## Summary\n\nllama-3.3-70b-versatile read");
    await expectFilesAsDownloaded(cwd, batchId, { index: true });
  }, 120_000);

  it("single mode, the spec's flags: pidcast-eval --prompt_version v1 --model llama-3.3-70b --transcript_id tech-talk-01 prints the output and saves its run file (--groq_api_key)", async () => {
    // an input of its own: the same prompt to the same model earlier would be answered from the cache
    const cwd = project("single", { inputs: { "tech-talk-01": "# Single\n\nOne talk, run alone.\n" } });
    writeFileSync(path.join(cwd, ".env"), `GROQ_BASE_URL=${groq.baseURL}\n`);
    const result = await run(
      "pidcast-eval",
      ["--prompt_version", "v1", "--model", "llama-3.3-70b", "--transcript_id", "tech-talk-01", "--groq_api_key", TEST_API_KEY],
      cwd,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^## Summary\n\nllama-3\.3-70b-versatile read \d+ characters\.\n$/);
    expect(progressLines(result.stderr)).toEqual(["Running 1/1: v1 + llama-3.3-70b + tech-talk-01"]);
    expect(groq.requests).toHaveLength(1);
    expect(groq.requests[0].headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    const [name] = runFiles(cwd);
    expect(name).toMatch(/^\d{8}_\d{6}_v1_llama-3\.3-70b_tech-talk-01\.json$/);
    expect(result.stderr).toContain(`Saved data/evals/runs/${name}`);
    expect(readJson(dataOf(cwd, "runs", name))).toMatchObject({
      model: { name: "llama-3.3-70b", provider: "groq", model: "llama-3.3-70b-versatile" },
      output: result.stdout.trimEnd(),
      tokens: { input: 1200, output: 85 },
    });
    // single mode writes no comparison
    expect(existsSync(dataOf(cwd, "comparisons"))).toBe(false);
  }, 120_000);

  it("every eval failing: the spec's '0/2 evals succeeded. Check batch summary for errors', the errors in summary.json, exit 1", async () => {
    refuse = { status: 401, body: readJsonFixture("groq", "error-401-invalid-api-key.json") };
    const cwd = project("failing", { models: ["llama-3.3-70b"], inputs: { "tech-talk-01": "# Talk\n\nText.\n" } });
    const result = await run("parallaxr", ["matrix", "--no-comparisons"], cwd);
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n");
    const at = lines.indexOf("0/2 evals succeeded. Check batch summary for errors");
    expect(at, result.stderr).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^Batch \d{8}_\d{6}_matrix: 0\/2 evals succeeded, 2 failed in /);
    const batchId = batchIdOf(result.stderr);
    expect(result.stderr).toContain(
      `parallaxr: every eval failed (0/2 evals succeeded. Check batch summary for errors); the errors are in data/evals/batches/${batchId}/summary.json.`,
    );
    const summary = readJson(dataOf(cwd, "batches", batchId, "summary.json"));
    expect(summary).toMatchObject({ total_runs: 2, successful_runs: 0, failed_runs: 2 });
    expect(summary.errors).toHaveLength(2);
    for (const error of summary.errors) expect(error.message).toMatch(/^Groq rejected the key ending in \.\.\.7f3a/);
    expect(existsSync(dataOf(cwd, "comparisons"))).toBe(false);
    expect(runFiles(cwd)).toHaveLength(2);
  }, 120_000);

  it("each invalid subset gets the spec's message (and the same form for --models and --inputs), an unknown name is named; exit 2 and nothing runs", async () => {
    const cwd = project("invalid", { models: ["mock/echo"] });
    const cases: Array<[string[], string]> = [
      [["--prompts", "v1,,v2"], '--prompts must be comma-separated versions (e.g., v1,v2,v3): item 2 of "v1,,v2" is empty'],
      [["--prompts", "v1 v2"], '--prompts must be comma-separated versions (e.g., v1,v2,v3): "v1 v2" has white space in it'],
      [["--prompts", "v9"], '--prompts: unknown prompt version "v9"; available: v1, v2'],
      [
        ["--models", "mock/echo,mock/echo"],
        '--models must be comma-separated models (e.g., llama-3.3-70b,mixtral): "mock/echo" is named twice',
      ],
      [["--inputs", ""], "--inputs must be comma-separated input ids (e.g., tech-talk-01,interview-02): the list is empty"],
      [["--inputs", "tech-talk-01,nope"], '--inputs: unknown input "nope"; available: interview-02, tech-talk-01'],
      [
        ["--transcripts", "a,,b"],
        '--transcripts must be comma-separated transcript IDs (e.g., tech-talk-01,interview-02): item 2 of "a,,b" is empty',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run("parallaxr", ["matrix", ...args], cwd);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toBe(`parallaxr: ${message}\n`);
    }
    const unrouted = await run("parallaxr", ["matrix", "--models", "nobody-knows"], cwd);
    expect(unrouted.code).toBe(2);
    expect(unrouted.stderr).toContain("nobody-knows");
    rmSync(dataOf(cwd, "models.txt"));
    const noModels = await run("parallaxr", ["matrix"], cwd);
    expect(noModels.code).toBe(2);
    expect(noModels.stderr).toBe(
      `parallaxr: --models is required: there is no ${path.join("data", "evals", "models.txt")} (one model per line) to run every model from; name them with --models (e.g., llama-3.3-70b,mixtral)\n`,
    );
    expect(existsSync(dataOf(cwd, "batches"))).toBe(false);
    expect(groq.requests).toHaveLength(0);
  }, 120_000);

  it("above 100 evals the spec's question: without a terminal or --yes it is printed and nothing runs (exit 2); --yes answers it", async () => {
    const inputs = Object.fromEntries(
      Array.from({ length: 26 }, (_, index) => [`talk-${String(index + 1).padStart(2, "0")}`, `Talk ${index + 1}.`]),
    );
    const cwd = project("confirm", { models: ["mock/fast", "mock/mock"], inputs });
    const refused = await run("parallaxr", ["matrix"], cwd);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("Evals: 104 (2 prompts x 2 models x 26 inputs)\n");
    expect(refused.stderr).toMatch(/^This will run 104 evals\. Estimated cost: \S+\. Continue\? \[y\/N\]$/m);
    expect(refused.stderr).toContain("parallaxr: More than 100 evals and no terminal to answer on: run again with --yes to go ahead");
    expect(progressLines(refused.stderr)).toEqual([]);
    expect(existsSync(dataOf(cwd, "batches"))).toBe(false);

    // on a terminal the person answers: no stops before anything is sent (exit 1)
    const declined = await onTerminal(`"${process.execPath}" "${bins.parallaxr}" matrix`, cwd, "n\n");
    expect(declined.code, declined.output).toBe(1);
    expect(declined.output).toMatch(/This will run 104 evals\. Estimated cost: \S+\. Continue\? \[y\/N\] /);
    expect(declined.output).toContain("parallaxr: Not run: the answer was no. Nothing was sent.");
    expect(existsSync(dataOf(cwd, "batches"))).toBe(false);

    const accepted = await run("parallaxr", ["matrix", "--yes", "--concurrency", "16", "--no-comparisons"], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toMatch(/^This will run 104 evals\. Estimated cost: \S+\. Continue\? \[y\/N\] y \(--yes\)$/m);
    expect(progressLines(accepted.stderr)).toHaveLength(104);
    expect(accepted.stderr).toMatch(/: 104\/104 evals succeeded, 0 failed in /);
    expect(runFiles(cwd)).toHaveLength(104);
  }, 240_000);

  it("on a terminal, the progress bar 'Running X/Y: {prompt} + {model} + {input}' rewritten in place (script gives the command a terminal)", async () => {
    const cwd = project("tty", { models: ["mock/echo", "mock/fast"] });
    const { stdout } = await promisify(execFile)(
      "script",
      ["-qec", `"${process.execPath}" "${bins["pidcast-eval"]}" --run-matrix`, "/dev/null"],
      {
        cwd,
        env: env(),
        timeout: 120_000,
      },
    );
    const frames = stdout.split("\r\u001b[2K").slice(1, -1);
    const bars = frames.filter((frame) => frame.startsWith("["));
    expect(bars.length).toBeGreaterThanOrEqual(2);
    for (const bar of bars)
      expect(bar).toMatch(/^\[[= ]{20}\] Running [1-8]\/8: v[12] \+ mock\/(echo|fast) \+ (interview-02|tech-talk-01)$/);
    expect(bars.some((bar) => bar.startsWith("[====================] Running 8/8: "))).toBe(true);
    // no progress line of its own on a terminal: the bar is rewritten instead
    expect(stdout).not.toMatch(/(^|\n)Running \d/);
    expect(stdout).toMatch(/8\/8 evals succeeded/);
  }, 120_000);

  it("SIGKILL mid-batch, then --resume BATCH_ID: every eval answered (paid) once, every run file there once", async () => {
    const cwd = project("resume", { models: ["llama-3.3-70b", "llama-3.1-8b"] });
    answerOnly = 3;
    const first = started("parallaxr", ["matrix", "--no-cache"], cwd);
    // three evals answered and their run files written; the next calls are in flight, never answered
    await waitFor(() => runFiles(cwd).length === 3 && groq.requests.length >= 4, {
      timeoutMs: 90_000,
      what: "3 run files and calls in flight",
    });
    first.child.kill("SIGKILL");
    await first.done;
    const batchId = batchIdOf(first.stderr());
    const before = runFiles(cwd);
    expect(existsSync(dataOf(cwd, "batches", batchId, "summary.json"))).toBe(false);

    answerOnly = null;
    const resumed = await run("parallaxr", ["matrix", "--resume", batchId], cwd);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Batch ${batchId}: 3 of 8 evals had finished; they are not run again.`);
    expect(progressLines(resumed.stderr).map((line) => /^Running (\d+)\/8/.exec(line)?.[1])).toEqual(["4", "5", "6", "7", "8"]);
    expect(resumed.stderr).toMatch(new RegExp(`^Batch ${batchId}: 8/8 evals succeeded, 0 failed in `, "m"));

    // paid once: every one of the 8 model x prompt calls answered exactly once, across both processes
    expect(answered.size).toBe(8);
    expect([...answered.values()]).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    const runs = runFiles(cwd);
    expect(runs).toHaveLength(8);
    for (const name of before) expect(runs).toContain(name);
    // a run file the killed process was writing (its temporary file) is written again whole, and the temporary removed
    expect(runsFolder(cwd)).toEqual(runs);
    const combos = runs.map((name) => {
      const record = readJson(dataOf(cwd, "runs", name));
      return `${record.prompt.version} ${record.model.name} ${record.input.id}`;
    });
    expect(new Set(combos).size).toBe(8);
    const summary = readJson(dataOf(cwd, "batches", batchId, "summary.json"));
    expect(summary).toMatchObject({ total_runs: 8, successful_runs: 8 });
    expect([...summary.runs].map((id: string) => `${id}.json`).sort()).toEqual(runs);
    await expectFilesAsDownloaded(cwd, batchId, { index: true });

    // a batch id nobody ran is named, with where it was looked for
    const unknown = await run("parallaxr", ["matrix", "--resume", "20000101_000000_matrix"], cwd);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No matrix batch 20000101_000000_matrix in the data folder");
  }, 240_000);
});
