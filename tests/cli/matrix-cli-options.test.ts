import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { openDatabase } from "@/lib/db/open-database";
import { insertPrompt } from "@/lib/db/prompts/prompts";
import { getMatrix, listMatrices } from "@/lib/services/matrix";
import { waitFor } from "../helpers/databases";
import { readJsonFixture, startVendorServer, TEST_API_KEY, type VendorServer } from "../helpers/vendor-server";

// `parallaxr matrix` beyond the spec's checklist (issue 13): Ctrl-C pauses the batch and --resume
// finishes it, a prompt saved in the app as name@vN, --metrics and --grader files (their problems
// named with file and line) and --verbose. Subprocesses from a directory outside the repository;
// Groq is a local server speaking its chat-completions format.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const workRoot = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-options-cwd-"));
const databaseDir = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-options-data-"));

let groq: VendorServer;
let answered: Map<string, number>;
let answerOnly: number | null;

type Result = { code: number; stdout: string; stderr: string };

function started(args: string[], cwd: string): { child: ChildProcess; stderr: () => string; done: Promise<Result> } {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: workRoot, PARALLAXR_DATA_DIR: databaseDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<Result>((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { child, stderr: () => stderr, done };
}
const run = (args: string[], cwd: string) => started(args, cwd).done;

function project(name: string, models: string[]): string {
  const cwd = path.join(workRoot, name);
  const data = path.join(cwd, "data", "evals");
  mkdirSync(path.join(data, "prompts"), { recursive: true });
  mkdirSync(path.join(data, "transcripts"), { recursive: true });
  writeFileSync(path.join(data, "prompts", "v1.txt"), `Summarize (${name}):\n\n{{input}}\n`);
  writeFileSync(
    path.join(data, "prompts", "v2.yaml"),
    `name: keypoints\nsystem: Be brief.\ntemplate: |\n  Key points of {input_id}:\n  {transcript}\n`,
  );
  writeFileSync(path.join(data, "transcripts", "tech-talk-01.md"), "# Example Tech Talk\n\nRust makes systems programming safer.\n");
  writeFileSync(path.join(data, "transcripts", "interview-02.txt"), "An interview about gardening.\n");
  writeFileSync(path.join(data, "models.txt"), `# the models every batch runs\n${models.join("\n")}\n`);
  writeFileSync(path.join(cwd, ".env"), `GROQ_API_KEY=${TEST_API_KEY}\nGROQ_BASE_URL=${groq.baseURL}\n`);
  return cwd;
}
const dataOf = (cwd: string, ...parts: string[]) => path.join(cwd, "data", "evals", ...parts);
const runFiles = (cwd: string) => (existsSync(dataOf(cwd, "runs")) ? readdirSync(dataOf(cwd, "runs")).sort() : []);

async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ dataDir: databaseDir });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

function batchIdOf(stderr: string): string {
  const match = /^Batch (\d{8}_\d{6}_matrix): \d+ evals, \d+ at a time$/m.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return match![1];
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
  groq.route("POST /openai/v1/chat/completions", (request) => {
    const body = request.body as { model: string; messages: Array<{ role: string; content: string }> };
    const total = [...answered.values()].reduce((sum, count) => sum + count, 0);
    if (answerOnly !== null && total >= answerOnly) return { hang: true };
    const key = `${body.model}\u0000${JSON.stringify(body.messages)}`;
    answered.set(key, (answered.get(key) ?? 0) + 1);
    const completion = readJsonFixture("groq", "chat-completion.json");
    completion.model = body.model;
    // a grader's call is answered with a grade
    completion.choices[0].message.content = body.messages.at(-1)!.content.startsWith("Grade this answer")
      ? "0.8"
      : `Answer of ${body.model}.`;
    completion.usage.prompt_tokens = 300;
    completion.usage.completion_tokens = 20;
    return { body: completion };
  });
});

describe("parallaxr matrix: interrupting, saved prompts, grading, --verbose", () => {
  it("Ctrl-C pauses the batch (exit 130, the finished evals' run files written); --resume finishes it, each eval answered once", async () => {
    const cwd = project("interrupt", ["llama-3.3-70b", "llama-3.1-8b"]);
    answerOnly = 2;
    const first = started(["matrix", "--no-cache", "--concurrency", "2"], cwd);
    await waitFor(() => runFiles(cwd).length === 2 && groq.requests.length >= 3, {
      timeoutMs: 90_000,
      what: "2 run files and a call in flight",
    });
    first.child.kill("SIGINT");
    const stopped = await first.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    const batchId = batchIdOf(stopped.stderr);
    expect(stopped.stderr).toContain(
      `parallaxr: Interrupted: 2 of 8 evals had finished (their run files are in data/evals/runs). The batch ${batchId} is paused; parallaxr matrix --resume ${batchId} finishes it without running the finished evals again.`,
    );
    expect(runFiles(cwd)).toHaveLength(2);
    const paused = await withDatabase(async (db) => (await listMatrices({ db }, { userId: localUserId, batchId, limit: 1 })).matrices[0]);
    expect(paused.status).toBe("paused");

    answerOnly = null;
    const resumed = await run(["matrix", "--resume", batchId], cwd);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`Resuming batch ${batchId} (paused): 8 evals`);
    expect(resumed.stderr).toMatch(new RegExp(`^Batch ${batchId}: 8/8 evals succeeded, 0 failed in `, "m"));
    expect(answered.size).toBe(8);
    expect([...answered.values()].every((count) => count === 1)).toBe(true);
    expect(runFiles(cwd)).toHaveLength(8);
    // the yaml prompt's name heads its sections; the system text was sent
    const stamp = batchId.replace(/_matrix$/, "");
    const comparison = readFileSync(dataOf(cwd, "comparisons", `${stamp}_prompt_tech-talk-01_llama-3.3-70b`, "comparison.md"), "utf8");
    expect(comparison).toContain("## Version v2 (keypoints)\n");
    expect(groq.requests.some((request) => JSON.stringify(request.body.messages).includes("Be brief."))).toBe(true);
  }, 240_000);

  it("a prompt saved in the app runs as name@vN beside the files; an unknown one is named (exit 2)", async () => {
    const cwd = project("saved", ["mock/fast"]);
    await withDatabase((db) =>
      asUser(db, localUserId, (tx) =>
        insertPrompt(tx, { name: "house-style", text: "House style summary of {{input_id}}: {{input}}", type: "generator" }),
      ),
    );
    const result = await run(["matrix", "--prompts", "v1,house-style@v1", "--inputs", "tech-talk-01"], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Prompts: v1, house-style@v1\n");
    const [saved] = runFiles(cwd).filter((name) => name.includes("house-style@v1"));
    expect(saved).toMatch(/^\d{8}_\d{6}_house-style@v1_mock-fast_tech-talk-01\.json$/);
    expect(JSON.parse(readFileSync(dataOf(cwd, "runs", saved), "utf8")).output).toContain(
      "House style summary of tech-talk-01: # Example Tech Talk",
    );

    // saved prompts alone need no prompts/ folder
    rmSync(dataOf(cwd, "prompts"), { recursive: true });
    const alone = await run(["matrix", "--prompts", "house-style@v1", "--inputs", "interview-02"], cwd);
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stderr).toContain("Running 1/1: house-style@v1 + mock/fast + interview-02\n");
    expect(runFiles(cwd).filter((name) => name.endsWith("_house-style@v1_mock-fast_interview-02.json"))).toHaveLength(1);

    const unknown = await run(["matrix", "--prompts", "nothing@v4"], cwd);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("parallaxr: No saved prompt nothing has a version 4 (nothing@v4).\n");
  }, 180_000);

  it("--metrics FILE scores each eval (a wrong file is named with its line); --grader FILE grades each by --grader-model; --verbose tells each finished eval", async () => {
    const cwd = project("grading", ["mock/fast", "mock/echo"]);
    writeFileSync(path.join(cwd, "bad.yaml"), "- type: response_length\n  max_words: 300\n- type: contains\n  value: x\n");
    const bad = await run(["matrix", "--metrics", "bad.yaml"], cwd);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^parallaxr: bad\.yaml, line 3: metric 2: /);
    writeFileSync(path.join(cwd, "broken.yaml"), "- type: response_length\n  max_words: [1\n");
    const broken = await run(["matrix", "--metrics", "broken.yaml"], cwd);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^parallaxr: broken\.yaml, line \d: /);

    writeFileSync(path.join(cwd, "metrics.yaml"), "metrics:\n  - type: response_length\n    max_words: 3\n");
    const scored = await run(["matrix", "--inputs", "interview-02", "--metrics", "metrics.yaml", "--verbose"], cwd);
    expect(scored.code, scored.stderr).toBe(0);
    const finished = scored.stderr.split("\n").filter((line) => line.startsWith("[OK] "));
    expect(finished).toHaveLength(4);
    for (const line of finished)
      expect(line).toMatch(/^\[OK\] v[12] \+ mock\/(fast|echo) \+ interview-02 \(\d{8}_\d{6}_\S+\): \d+ input \/ \d+ output tokens, /);
    const scoredId = batchIdOf(scored.stderr);
    const evals = await withDatabase(async (db) => {
      const [matrix] = (await listMatrices({ db }, { userId: localUserId, batchId: scoredId, limit: 1 })).matrices;
      return (await getMatrix({ db }, { userId: localUserId, matrixId: matrix.id })).evals;
    });
    expect(evals).toHaveLength(4);
    // the mock echoes a prompt of more than 3 words: over max_words, scored 0 and not passed
    for (const item of evals) expect(item.metricScores).toMatchObject({ scores: { response_length: 0 }, passed: false });

    writeFileSync(path.join(cwd, "grader.txt"), "Grade this answer from 0 to 1: {{output}}\n");
    const graded = await run(
      ["matrix", "--inputs", "interview-02", "--models", "mock/fast", "--grader", "grader.txt", "--grader-model", "llama-3.1-8b"],
      cwd,
    );
    expect(graded.code, graded.stderr).toBe(0);
    const gradedId = batchIdOf(graded.stderr);
    const gradedEvals = await withDatabase(async (db) => {
      const [matrix] = (await listMatrices({ db }, { userId: localUserId, batchId: gradedId, limit: 1 })).matrices;
      return (await getMatrix({ db }, { userId: localUserId, matrixId: matrix.id })).evals;
    });
    expect(gradedEvals).toHaveLength(2);
    for (const item of gradedEvals) expect(item).toMatchObject({ graderError: null, grade: 0.8 });
    // the grader model got each output in its prompt
    const graderCalls = groq.requests.filter((request) => request.body.messages.at(-1).content.startsWith("Grade this answer"));
    expect(graderCalls).toHaveLength(2);
    for (const call of graderCalls) expect(call.body.model).toBe("llama-3.1-8b-instant");
    writeFileSync(path.join(cwd, "no-output.txt"), "Grade it.\n");
    const noOutput = await run(["matrix", "--grader", "no-output.txt", "--models", "mock/fast"], cwd);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toBe("parallaxr: The grader prompt has no {{output}}: put {{output}} where the eval's answer goes.\n");
  }, 240_000);
});
