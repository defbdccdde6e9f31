import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { concatenateDocuments } from "@/lib/core/experiment-document";
import { formatMockResponse } from "@/lib/core/mock-response";
import { estimateTokens } from "@/lib/core/tokens";
import { readExperimentsCsv } from "@/lib/formats/read-experiments-csv";
import { CsvRecordReader } from "@/lib/formats/parse-csv";
import { routeExampleVendors } from "../helpers/experiment-vendors";
import { readJsonFixture, startVendorServer, TEST_API_KEY, type VendorServer } from "../helpers/vendor-server";

// `parallaxr run` as a user meets it: a subprocess started in a directory far from the repository,
// its keys in that directory's .env, OpenRouter and Ollama answered by local servers speaking
// their wire formats.

const bin = path.resolve(import.meta.dirname, "..", "..", "bin", "parallaxr.mjs");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-run-cwd-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-run-data-"));

let openrouter: VendorServer;
let ollama: VendorServer;

function parallaxr(args: string[]): { child: ChildProcess; done: Promise<{ code: number; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code: code ?? (signal === "SIGKILL" ? 137 : -1), stdout, stderr })),
  );
  return { child, done };
}
const run = (args: string[]) => parallaxr(args).done;
const write = (name: string, text: string) => writeFileSync(path.join(workDir, name), text);
const read = (name: string) => readFileSync(path.join(workDir, name), "utf8");

function records(text: string): string[][] {
  const reader = new CsvRecordReader(text, "out.csv", ",");
  const all: string[][] = [];
  for (let record = reader.next(); record !== null; record = reader.next()) all.push(record);
  return all;
}

const prompt = "Summarize the following information from {{source}}:\n\nThe topic is {{topic}}.\n";
const context = "Additional context: This is a test of the parallaxr system.\n";
const experiments =
  "provider,model,source,topic\nmock,mock,Wikipedia,AI\nopenrouter,anthropic/claude-sonnet-4,Encyclopedia,ML\nollama,llama3.2,Database,NLP\n";

beforeAll(async () => {
  openrouter = await startVendorServer({ prefix: "/api/v1" });
  ollama = await startVendorServer();
  write("prompt.txt", prompt);
  write("context.txt", context);
  write("experiments.csv", experiments);
  write(".env", `OPENROUTER_API_KEY=${TEST_API_KEY}\nOPENROUTER_BASE_URL=${openrouter.baseURL}\nOLLAMA_BASE_URL=${ollama.origin}\n`);
});
afterAll(async () => {
  await openrouter.close();
  await ollama.close();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  openrouter.reset();
  ollama.reset();
  routeExampleVendors(openrouter, ollama);
});

describe("parallaxr run (a subprocess run from outside the repository)", () => {
  it("runs the spec's example scenario with --verbose: its columns, statuses, echo and stderr lines", async () => {
    const result = await run(["run", "-p", "prompt.txt", "-c", "context.txt", "-e", "experiments.csv", "-o", "results.csv", "--verbose"]);
    expect(result.stderr).toBe(
      [
        "[INFO] Loading prompt from prompt.txt",
        "[INFO] Loading context from context.txt",
        "[INFO] Loading experiments from experiments.csv",
        "[INFO] openrouter: using OPENROUTER_API_KEY and OPENROUTER_BASE_URL from ./.env",
        "[INFO] ollama: using OLLAMA_BASE_URL from ./.env",
        "[INFO] Starting experiment 1/3: mock/mock",
        "[INFO] Completed experiment 1/3: status=ok",
        "[INFO] Starting experiment 2/3: openrouter/anthropic/claude-sonnet-4",
        "[INFO] Completed experiment 2/3: status=ok",
        "[INFO] Starting experiment 3/3: ollama/llama3.2",
        "[INFO] Completed experiment 3/3: status=ok",
        "[INFO] All experiments completed. Results written to results.csv",
        "",
      ].join("\n"),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");

    const document = concatenateDocuments([
      { name: "prompt.txt", text: prompt },
      { name: "context.txt", text: context },
    ]);
    const rendered = (source: string, topic: string) => document.replace("{{source}}", source).replace("{{topic}}", topic);
    const echo = formatMockResponse({ model: "mock", variables: { source: "Wikipedia", topic: "AI" }, input: rendered("Wikipedia", "AI") });
    const text = read("results.csv");
    expect(text.endsWith("\r\n")).toBe(true);
    const [header, ...rows] = records(text);
    expect(header).toEqual([
      "provider",
      "model",
      "source",
      "topic",
      "status",
      "input_tokens",
      "context_window",
      "output_tokens",
      "output",
      "error_message",
    ]);
    expect(rows).toEqual([
      [
        "mock",
        "mock",
        "Wikipedia",
        "AI",
        "ok",
        String(estimateTokens(rendered("Wikipedia", "AI"))),
        "",
        String(estimateTokens(echo)),
        echo,
        "",
      ],
      [
        "openrouter",
        "anthropic/claude-sonnet-4",
        "Encyclopedia",
        "ML",
        "ok",
        String(estimateTokens(rendered("Encyclopedia", "ML"))),
        "200000",
        "123",
        "Machine learning is...",
        "",
      ],
      [
        "ollama",
        "llama3.2",
        "Database",
        "NLP",
        "ok",
        String(estimateTokens(rendered("Database", "NLP"))),
        "8192",
        "89",
        "Natural language processing...",
        "",
      ],
    ]);
    expect(echo.split("\n").slice(0, 5)).toEqual([
      "MOCK RESPONSE",
      `Input tokens: ${estimateTokens(rendered("Wikipedia", "AI"))}`,
      "Model: mock",
      "Variables: {'source': 'Wikipedia', 'topic': 'AI'}",
      "--- Original Input ---",
    ]);
    // the key went to the local OpenRouter as the .env in the working directory gave it
    expect(openrouter.requests.find((request) => request.method === "POST")?.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  }, 120_000);

  it("appends to an existing output (header once), prints warnings and errors without --verbose", async () => {
    write("more.csv", "provider,model,source,topic\nmock,mock,,AI\nnowhere,x,a,b\n");
    const first = await run(["run", "-p", "prompt.txt", "-e", "more.csv", "-o", "appended.csv"]);
    expect(first.code).toBe(0);
    expect(first.stderr.split("\n").filter(Boolean)).toEqual([
      "[WARNING] Variable {{source}} in template has no value in experiment row 1",
      expect.stringMatching(/^\[ERROR\] Unknown provider nowhere: use one of mock, .*openrouter/),
    ]);
    const second = await run(["run", "-p", "prompt.txt", "-e", "more.csv", "-o", "appended.csv"]);
    expect(second.code).toBe(0);
    const all = records(read("appended.csv"));
    expect(all.filter((record) => record[0] === "provider")).toHaveLength(1);
    expect(all.slice(1).map((record) => [record[0], record[4]])).toEqual([
      ["mock", "warning"],
      ["nowhere", "error"],
      ["mock", "warning"],
      ["nowhere", "error"],
    ]);
  }, 120_000);

  it("refuses bad input before any call: file, line and column named, exit 2", async () => {
    write("broken.csv", 'provider,model,source\nmock,mock,"never closed\n');
    const broken = await run(["run", "-p", "prompt.txt", "-e", "broken.csv", "-o", "x.csv"]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("broken.csv, line 2, column 3: a quoted value is never closed.");
    const missing = await run(["run", "-p", "nope.txt", "-e", "experiments.csv", "-o", "x.csv"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot read the prompt file nope.txt");
    write("other.csv", "a,b\n1,2\n");
    const header = await run(["run", "-p", "prompt.txt", "-e", "experiments.csv", "-o", "other.csv"]);
    expect(header.code).toBe(2);
    expect(header.stderr).toContain("exists with another header");
    const usage = await run(["run", "-p", "prompt.txt"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("required option '-e, --experiments <file>' not specified");
    expect(openrouter.requests).toHaveLength(0);
    // The data folder holds a database by now, so each of these began opening it as it started
    // (cli/early-database.ts); each gave it back on the way out.
    expect(existsSync(path.join(dataDir, "pglite", "PG_VERSION"))).toBe(true);
    expect(existsSync(path.join(dataDir, "pglite.pid"))).toBe(false);
  }, 120_000);

  it("--help names every flag of the spec and the exit codes", async () => {
    const help = await run(["run", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of [
      "--prompt",
      "-p",
      "--experiments",
      "-e",
      "--output",
      "-o",
      "--context",
      "-c",
      "--verbose",
      "-v",
      "--timeout",
      "--resume",
      "--dry-run",
      "--concurrency",
    ]) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toContain("Exit codes: 0 every row was written");
  }, 60_000);

  it("killed with SIGKILL mid-run, then --resume: every row once in the output, no finished row called twice", async () => {
    const rows = 200;
    write(
      "many.csv",
      ["provider,model,id", ...Array.from({ length: rows }, (_, index) => `openrouter,anthropic/claude-sonnet-4,${index + 1}`)].join("\n"),
    );
    write("id-prompt.txt", "Row {{id}}");
    const calls = new Map<string, number>();
    openrouter.route("POST /api/v1/chat/completions", (request) => {
      const body = request.body as { messages: Array<{ content: string }> };
      const id = /Row (\d+)/.exec(body.messages.at(-1)!.content)![1];
      calls.set(id, (calls.get(id) ?? 0) + 1);
      const completion = readJsonFixture("openrouter", "chat-completion.json");
      completion.choices[0].message.content = `answer ${id}`;
      return { body: completion, delayMs: 20 };
    });
    const first = parallaxr(["run", "-p", "id-prompt.txt", "-e", "many.csv", "-o", "many-out.csv"]);
    // kill once some rows are written, well before all are
    for (let waited = 0; waited < 60_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const written = (() => {
        try {
          return records(read("many-out.csv")).length - 1;
        } catch {
          return 0;
        }
      })();
      if (written >= 20) break;
    }
    first.child.kill("SIGKILL");
    const killed = await first.done;
    expect(killed.code).toBe(137);
    const before = records(read("many-out.csv")).length - 1;
    expect(before).toBeGreaterThanOrEqual(20);
    expect(before).toBeLessThan(rows);

    const resumed = await run(["run", "-p", "id-prompt.txt", "-e", "many.csv", "-o", "many-out.csv", "--resume", "--verbose"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("[INFO] Continuing the interrupted run");
    const [, ...written] = records(read("many-out.csv"));
    expect(written.map((record) => record[2])).toEqual(Array.from({ length: rows }, (_, index) => String(index + 1)));
    expect(written.filter((record) => record[3] !== "ok" || record[7] !== `answer ${record[2]}`)).toEqual([]);
    // the one call in flight when the process died may be made again; nothing that had finished is
    const twice = [...calls.entries()].filter(([, count]) => count > 1);
    expect(twice.length).toBeLessThanOrEqual(1);
    expect(calls.size).toBe(rows);
    expect(readExperimentsCsv(read("many.csv"), "many.csv").rows).toHaveLength(rows);
  }, 240_000);
});
