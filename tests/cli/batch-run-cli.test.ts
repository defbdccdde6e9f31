import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { waitFor } from "../helpers/databases";
import { receiptIsWhole } from "../helpers/receipts";

// `parallaxr batch-run` and `param-forge batch-run` as a user meets them (issue 14): subprocesses
// started in a directory far from the repository, with a data folder of their own; the spec's
// example inputs on the keyless mock image model, and a 100-job run on the OpenAI wire format
// answered by a local server that counts every call, killed with SIGKILL and resumed.

const root = path.resolve(import.meta.dirname, "..", "..");
const bins = { parallaxr: path.join(root, "bin", "parallaxr.mjs"), "param-forge": path.join(root, "bin", "param-forge.mjs") };
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-cwd-"));
const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "parallaxr-batch-data-")), "data");
const TEST_API_KEY = "sk-test-KEYMATERIAL-batch-0000";

type Result = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

function started(bin: keyof typeof bins, args: string[]): { child: ChildProcess; stderr: () => string; done: Promise<Result> } {
  const child = spawn(process.execPath, [bins[bin], ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<Result>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, stderr: () => stderr, done };
}
const parallaxr = (args: string[]) => started("parallaxr", args).done;
const write = (name: string, text: string) => writeFileSync(path.join(workDir, name), text);
const readManifest = (dir: string) => JSON.parse(readFileSync(path.join(workDir, dir, "run.json"), "utf8")) as RunManifest;

/** Every file under a folder, relative to it, sorted. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import("node:fs").Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

const SPEC_PROMPTS =
  "# Food glamour shots\nA glossy food portrait of ramen, steam rising\n\nSushi on black slate, top-down\nTacos al pastor under neon light\n";

// The spec's example matrix, word for word but for the providers and models (all the keyless mock)
// and small sizes, so that 42 real images are quick to draw.
const MOCK_MATRIX = `version: 1
defaults:
  n: 1
  output_format: jpeg
  background: null

matrix:
  - provider: mock
    model: [mock-image-a, mock-image-b]
    size: [64x64, 64x96]
    seed: [101, 102]
    provider_options:
      quality: [low, high]
      moderation: [low]

  - provider: mock
    model: [mock-gemini]
    size: [4:5]
    provider_options:
      image_size: ["512"]

include:
  - provider: mock
    model: mock-flux
    size: 64x64
    seed: 42
    provider_options:
      guidance: 5

exclude:
  - provider: mock
    size: 64x96
    provider_options:
      quality: low

limits:
  concurrency: 3
  provider_concurrency:
    mock: 2
  budget_usd: 10.0
  budget_mode: estimate
`;

beforeAll(() => {
  cpSync(path.join(root, "tests", "unit", "core", "batch", "fixtures", "spec-matrix.yaml"), path.join(workDir, "spec-matrix.yaml"));
  write("prompts.txt", SPEC_PROMPTS);
  write("matrix.yaml", MOCK_MATRIX);
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

describe("parallaxr batch-run: help, dry run and input errors (nothing opened, nothing written)", () => {
  it("--help lists the spec's flags, the exit codes and examples, for parallaxr and param-forge", async () => {
    for (const [bin, args] of [
      ["parallaxr", ["batch-run", "--help"]],
      ["param-forge", ["batch-run", "--help"]],
      ["param-forge", ["--help"]],
    ] as const) {
      const result = await started(bin, [...args]).done;
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: parallaxr batch-run \[options\]/);
      for (const flag of [
        "--prompts <path>",
        "--matrix <path>",
        "--out <dir>",
        "--concurrency <int>",
        "--provider-concurrency <provider=int,...>",
        "--budget <usd>",
        "--budget-mode <mode>",
        "--prompt-range <from-to>",
        "--dry-run",
        "--resume",
        "--server <url>",
      ]) {
        expect(result.stdout).toContain(flag);
      }
      expect(result.stdout).toContain("Exit codes: 0 the run completed");
      expect(result.stdout).toContain("130 interrupted by Ctrl-C");
      expect(result.stdout).toContain("param-forge batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/food_glam_v1");
      expect(result.stderr).toBe("");
    }
  });

  it("--dry-run of the spec's own matrix prints the plan on stdout and writes nothing (no run folder, no data folder)", async () => {
    const before = filesUnder(workDir);
    const result = await parallaxr([
      "batch-run",
      "--prompts",
      "prompts.txt",
      "--matrix",
      "spec-matrix.yaml",
      "--out",
      "runs/food_glam_v1",
      "--dry-run",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines.slice(0, 8)).toEqual([
      "Plan (dry run: nothing was written and no image was requested)",
      "Prompts:         3 (prompts.txt)",
      "Matrix:          2 block(s), 1 include(s), 14 combination(s) (spec-matrix.yaml)",
      "Jobs:            42",
      "Images:          42",
      expect.stringMatching(/^Estimated cost: {2}\$\d+\.\d\d \(budget \$10\.00, mode estimate\)$/),
      "Jobs to run:     42",
      "Concurrency:     3 (openai=1,gemini=2)",
    ]);
    expect(result.stdout).toMatch(/openai \/ gpt-image-1\.5\s+18\s+18\s+\$/);
    expect(result.stdout).toMatch(/gemini \/ gemini-2\.5-flash-image\s+3\s+3\s+/);
    expect(result.stdout).toMatch(/flux \/ flux-2-flex\s+3\s+3\s+/);
    expect(filesUnder(workDir)).toEqual(before);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("flags override the matrix's limits in the plan; --prompt-range keeps the prompts asked for", async () => {
    const result = await parallaxr([
      "batch-run",
      "--prompts",
      "prompts.txt",
      "--matrix",
      "spec-matrix.yaml",
      "--out",
      "runs/x",
      "--dry-run",
      "--concurrency",
      "5",
      "--provider-concurrency",
      "openai=2",
      "--budget",
      "0.5",
      "--budget-mode",
      "strict",
      "--prompt-range",
      "2-3",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Prompts:         2 (prompts.txt)");
    expect(result.stdout).toContain("Jobs:            28");
    expect(result.stdout).toMatch(/Estimated cost: {2}\$0\.\d\d \(budget \$0\.50, mode strict\)/);
    expect(result.stdout).toMatch(/Jobs to run: {5}\d+ \(skipped: \d+ over budget, 0 unknown price\)/);
    expect(result.stdout).toContain("Concurrency:     5 (openai=2)");
  });

  const inputErrors: Array<[string, Record<string, string>, string[], string]> = [
    [
      "an empty prompt file",
      { "empty.txt": "# nothing yet\n\n   \n" },
      ["--prompts", "empty.txt"],
      "empty.txt: no prompts (the file is empty, or every line is blank or a # comment): write one prompt a line.",
    ],
    [
      "a CSV without a prompt column",
      { "noprompt.csv": "text,id\nramen,a\n" },
      ["--prompts", "noprompt.csv"],
      'noprompt.csv, line 1: the required column "prompt" is missing (the header has "text", "id"): name the column that holds the prompts "prompt"',
    ],
    [
      "bad metadata JSON",
      { "badmeta.csv": 'prompt,metadata\nramen,"{""style"": ""glossy""}"\nsushi,{bad\n' },
      ["--prompts", "badmeta.csv"],
      'badmeta.csv, row 3, key "metadata": not valid JSON: write a JSON object, e.g. "{""style"": ""glossy""}"',
    ],
    [
      "a matrix block without a model",
      { "nomodel.yaml": "version: 1\nmatrix:\n  - provider: mock\n    size: 64x64\n" },
      ["--matrix", "nomodel.yaml"],
      "nomodel.yaml, line 3, at matrix[0]: this block has no model: every job needs a provider and a model",
    ],
    [
      "a matrix block without a provider",
      { "noprovider.yaml": "version: 1\nmatrix:\n  - model: mock-image\n  - provider: mock\n    model: x\n" },
      ["--matrix", "noprovider.yaml"],
      "noprovider.yaml, line 3, at matrix[0]: this block has no provider: every job needs a provider and a model",
    ],
    [
      "an unknown schema version",
      { "v2.yaml": "version: 2\nmatrix: []\n" },
      ["--matrix", "v2.yaml"],
      "v2.yaml, line 1, at version: unknown schema version 2: this Parallaxr reads version 1",
    ],
    [
      "a size the provider cannot make",
      { "badsize.yaml": "version: 1\nmatrix:\n  - provider: openai\n    model: gpt-image-1\n    size: [1024x1024, 4:5]\n" },
      ["--matrix", "badsize.yaml"],
      'badsize.yaml, line 5, at matrix[0].size: OpenAI\'s gpt-image models make sizes 1024x1024, 1536x1024, 1024x1536, auto, not "4:5" (openai/gpt-image-1): change the value or move it to a block of a provider that makes it.',
    ],
    [
      "a mock size out of range in an include entry",
      { "bigmock.yaml": "version: 1\ninclude:\n  - provider: mock\n    model: m\n    size: 9000x10\n" },
      ["--matrix", "bigmock.yaml"],
      "bigmock.yaml, line 5, at include[0].size: The mock makes images of 16 to 4096 px a side, not 9000x10 (mock/m)",
    ],
    [
      "a bad --provider-concurrency",
      {},
      ["--provider-concurrency", "openai"],
      '--provider-concurrency "openai": "openai" is not provider=N with N from 1 to 64 (e.g. openai=1,gemini=2).',
    ],
    ["a missing --out", {}, ["--out", ""], "--out <dir> is missing: name the run folder (e.g. --out runs/food_glam_v1)."],
    [
      "a prompt file of another kind",
      { "prompts.md": "# x\n" },
      ["--prompts", "prompts.md"],
      "prompts.md: a prompt file ends in .txt or .csv; rename it or pass the right file.",
    ],
    [
      "a prompt file that is not there",
      {},
      ["--prompts", "nowhere.txt"],
      "nowhere.txt: cannot read the prompt file (ENOENT); check the path.",
    ],
  ];

  it.each(inputErrors)(
    "%s: exit 2, the file, line or YAML path and what to do on stderr, nothing written",
    async (_what, files, args, message) => {
      for (const [name, text] of Object.entries(files)) write(name, text);
      const flags: Record<string, string> = { "--prompts": "prompts.txt", "--matrix": "matrix.yaml", "--out": "runs/bad" };
      for (let i = 0; i < args.length; i += 2) flags[args[i]] = args[i + 1];
      const result = await parallaxr(["batch-run", ...Object.entries(flags).flat()]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`parallaxr: ${message}`);
      expect(existsSync(path.join(workDir, "runs", "bad"))).toBe(false);
      expect(existsSync(dataDir)).toBe(false);
    },
  );

  it("without flags and without a terminal it says what to pass (exit 2)", async () => {
    const result = await parallaxr(["batch-run"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--prompts, --matrix and --out are missing");
  });
});

describe("parallaxr batch-run: runs on the data folder", () => {
  it("param-forge's command line as the spec writes it runs the spec's example on the mock: images, receipts and a valid run.json", async () => {
    const result = await started("param-forge", [
      "batch-run",
      "--prompts",
      "prompts.txt",
      "--matrix",
      "matrix.yaml",
      "--out",
      "runs/food_glam_v1",
    ]).done;
    expect(result.stderr).not.toContain("[WARNING]");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      "Batch food_glam_v1 completed: 42 success, 0 failed, 0 skipped (42 image(s))",
      expect.stringMatching(/^Cost: estimated \$\d+\.\d{4}, actual /),
      "Manifest: runs/food_glam_v1/run.json",
      "Output folder: runs/food_glam_v1",
      "",
    ]);
    // not a terminal: a line per finished job on stderr
    expect(result.stderr.match(/^j-0000\d\d success /gm)).toHaveLength(42);

    const folder = path.join(workDir, "runs", "food_glam_v1");
    const manifest = readManifest("runs/food_glam_v1");
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest).toMatchObject({
      schema_version: 1,
      run_id: "food_glam_v1",
      status: "completed",
      inputs: {
        prompts_path: "prompts.txt",
        matrix_path: "matrix.yaml",
        prompt_count: 3,
        matrix_blocks: 2,
        expanded_jobs: 42,
        planned_images: 42,
      },
      limits: { concurrency: 3, provider_concurrency: { mock: 2 }, budget_usd: 10, budget_mode: "estimate" },
      summary: { succeeded: 42, failed: 0, skipped: 0 },
    });
    expect(manifest.jobs.map((job) => job.job_id)).toEqual(Array.from({ length: 42 }, (_, i) => `j-${String(i + 1).padStart(6, "0")}`));
    // stable order: prompt by prompt, blocks in order, the include last
    expect(manifest.jobs.slice(0, 14).every((job) => job.prompt_id === "p-0001")).toBe(true);
    expect(manifest.jobs[12].params).toMatchObject({ model: "mock-gemini", size: "4:5", provider_options: { image_size: "512" } });
    expect(manifest.jobs[13].params).toMatchObject({ model: "mock-flux", seed: 42, provider_options: { guidance: 5 } });
    // copies of the inputs, byte for byte
    expect(readFileSync(path.join(folder, "prompts.txt"), "utf8")).toBe(SPEC_PROMPTS);
    expect(readFileSync(path.join(folder, "matrix.yaml"), "utf8")).toBe(MOCK_MATRIX);

    const listed = new Set<string>(["run.json", "prompts.txt", "matrix.yaml"]);
    for (const job of manifest.jobs) {
      expect(job.status).toBe("success");
      expect(job.artifacts.image_paths).toHaveLength(1);
      expect(job.artifacts.receipt_paths).toHaveLength(1);
      const [image] = job.artifacts.image_paths;
      expect(image).toMatch(new RegExp(`^mock-\\d{8}T\\d{6}Z-${job.job_id}-00\\.jpg$`));
      expect(job.artifacts.receipt_paths[0]).toBe(`receipt-${image.replace(/\.jpg$/, "")}.json`);
      listed.add(image).add(job.artifacts.receipt_paths[0]);
      const metadata = await sharp(path.join(folder, image)).metadata();
      expect(metadata.format).toBe("jpeg");
      const size = job.params.size as string;
      expect(`${metadata.width}x${metadata.height}`).toBe(size === "4:5" ? "410x512" : size);
      const receipt = JSON.parse(readFileSync(path.join(folder, job.artifacts.receipt_paths[0]), "utf8"));
      expect(JSON.stringify(receipt)).toContain(job.prompt);
    }
    // nothing else in the folder: no temp file, no stray image
    expect(filesUnder(folder)).toEqual([...listed].sort());
  }, 180_000);

  it("an existing run.json is refused without --resume (exit 2), and left as it was", async () => {
    const file = path.join(workDir, "runs", "food_glam_v1", "run.json");
    const before = { text: readFileSync(file, "utf8"), mtime: statSync(file).mtimeMs };
    const result = await parallaxr(["batch-run", "--prompts", "prompts.txt", "--matrix", "matrix.yaml", "--out", "runs/food_glam_v1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("runs/food_glam_v1/run.json exists: add --resume to continue that run, or choose another --out.");
    expect(readFileSync(file, "utf8")).toBe(before.text);
    expect(statSync(file).mtimeMs).toBe(before.mtime);
  });

  it("--resume of a finished run calls nothing and rewrites no image", async () => {
    const folder = path.join(workDir, "runs", "food_glam_v1");
    const images = filesUnder(folder).filter((name) => name.endsWith(".jpg"));
    const stamps = images.map((name) => statSync(path.join(folder, name)).mtimeMs);
    const result = await parallaxr(["batch-run", "--out", "runs/food_glam_v1", "--resume"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Batch food_glam_v1 completed: 42 success, 0 failed, 0 skipped");
    expect(result.stderr).not.toMatch(/^j-\d+ success/m);
    expect(filesUnder(folder).filter((name) => name.endsWith(".jpg"))).toEqual(images);
    expect(images.map((name) => statSync(path.join(folder, name)).mtimeMs)).toEqual(stamps);
  }, 120_000);
});

describe("parallaxr batch-run: failed and skipped jobs", () => {
  it("a refused job is failed with the provider's error, a strict budget skips an unknown price without a call; exit 1 names --resume", async () => {
    write("one.txt", "A bowl of ramen\n");
    write(
      "mixed.yaml",
      [
        "version: 1",
        "matrix:",
        "  - provider: mock",
        "    model: mock-image",
        "    size: 32x32",
        "    provider_options:",
        "      mock_fail: content_policy",
        "  - provider: mock",
        "    model: mock-image",
        "    size: 32x32",
        "    seed: 7",
        "include:",
        "  - provider: openai",
        "    model: gpt-image-unpriced",
        "    size: 1024x1024",
        "limits:",
        "  budget_mode: strict",
        "",
      ].join("\n"),
    );
    const result = await parallaxr(["batch-run", "--prompts", "one.txt", "--matrix", "mixed.yaml", "--out", "runs/mixed"]);
    expect(result.code).toBe(1);
    expect(result.stdout.split("\n")[0]).toBe("Batch mixed completed: 1 success, 1 failed, 1 skipped (1 image(s))");
    expect(result.stderr).toContain(
      "parallaxr: 1 job(s) failed (their errors are in run.json). Run them again with: parallaxr batch-run --out runs/mixed --resume",
    );
    expect(result.stderr).toMatch(
      /^j-000001 failed {2}p-0001 mock\/mock-image 32x32 mock_fail=content_policy: .*refused the prompt on purpose/m,
    );
    expect(result.stderr).toMatch(/^j-000003 skipped p-0001 openai\/gpt-image-unpriced 1024x1024: .*no known price/m);
    const manifest = readManifest("runs/mixed");
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest.jobs.map((job) => [job.job_id, job.status, job.artifacts.image_paths.length])).toEqual([
      ["j-000001", "failed", 0],
      ["j-000002", "success", 1],
      ["j-000003", "skipped", 0],
    ]);
    expect(manifest.jobs[0].error).toContain("refused the prompt on purpose");
    expect(manifest.jobs[2].attempts).toBe(0);
    expect(manifest.summary).toMatchObject({ succeeded: 1, failed: 1, skipped: 1 });
  }, 120_000);
});

/** A local server speaking OpenAI's Image API that counts every call by prompt, answering each after `delayMs`. */
async function startCountingImageServer(delayMs: number) {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 80, b: 20 } } })
    .png()
    .toBuffer();
  const received = new Map<string, number>();
  const answered = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      if (
        request.method !== "POST" ||
        request.url !== "/v1/images/generations" ||
        request.headers.authorization !== `Bearer ${TEST_API_KEY}`
      ) {
        response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const prompt = (JSON.parse(body) as { prompt: string }).prompt;
      received.set(prompt, (received.get(prompt) ?? 0) + 1);
      const timer = setTimeout(() => {
        const answer = JSON.stringify({
          created: Math.floor(Date.now() / 1000),
          data: [{ b64_json: png.toString("base64") }],
          usage: { total_tokens: 100, input_tokens: 10, output_tokens: 90 },
        });
        response.writeHead(200, { "content-type": "application/json" }).end(answer, () => {
          answered.set(prompt, (answered.get(prompt) ?? 0) + 1);
        });
      }, delayMs);
      // a client that went away (killed) never got its image
      response.on("close", () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, received, answered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("parallaxr batch-run: SIGKILL in the middle of a 100-job run, then --resume", () => {
  it("every planned job once in run.json, no image written twice, no finished job called again at the provider", async () => {
    const vendor = await startCountingImageServer(150);
    try {
      const runDir = path.join(workDir, "kill");
      mkdirSync(runDir);
      writeFileSync(
        path.join(runDir, "prompts.txt"),
        Array.from({ length: 100 }, (_, i) => `Prompt number ${i + 1}: a red square`).join("\n"),
      );
      writeFileSync(
        path.join(runDir, "matrix.yaml"),
        "version: 1\nmatrix:\n  - provider: openai\n    model: gpt-image-1\n    size: 1024x1024\n    provider_options:\n      quality: low\n      output_format: png\nlimits:\n  concurrency: 4\n",
      );
      write(".env", `OPENAI_API_KEY=${TEST_API_KEY}\nOPENAI_BASE_URL=${vendor.url}\n`);
      const out = "runs/killed_v1";
      const folder = path.join(workDir, out);
      const first = started("parallaxr", ["batch-run", "--prompts", "kill/prompts.txt", "--matrix", "kill/matrix.yaml", "--out", out]);
      const images = () => filesUnder(folder).filter((name) => name.endsWith(".png"));
      await waitFor(() => images().length >= 30 || first.child.exitCode !== null, { timeoutMs: 120_000, what: "30 images" });
      expect(first.child.exitCode, first.stderr()).toBeNull();
      first.child.kill("SIGKILL");
      const killed = await first.done;
      expect(killed.signal).toBe("SIGKILL");

      const beforeKill = readManifest(out);
      expect(runManifestProblems(beforeKill)).toEqual([]);
      const doneBefore = beforeKill.jobs.filter((job) => job.status === "success");
      expect(doneBefore.length).toBeGreaterThan(0);
      expect(doneBefore.length).toBeLessThan(100);
      // An image whose receipt was written is whole and vouched for: it is reused, never written
      // again. One without its receipt, or with one the kill cut off, is an attempt the kill cut off
      // (at most the 4 in flight): it may be deleted and its job called again (counted below among
      // the calls made twice).
      const vouched = images().filter((name) => receiptIsWhole(path.join(folder, `receipt-${name.slice(0, name.lastIndexOf("."))}.json`)));
      expect(images().length - vouched.length).toBeLessThanOrEqual(4);
      const imagesBefore = new Map(
        vouched.map((name) => {
          const stats = statSync(path.join(folder, name));
          return [name, { ino: stats.ino, mtimeMs: stats.mtimeMs, size: stats.size }];
        }),
      );
      const receivedBefore = new Map(vendor.received);

      const resumed = await parallaxr(["batch-run", "--out", out, "--resume"]);
      expect(resumed.stderr).not.toContain("[WARNING]");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain("Batch killed_v1 completed: 100 success, 0 failed, 0 skipped (100 image(s))");
      expect(resumed.stderr).toMatch(/\[INFO\] Resuming killed_v1: \d+ job\(s\) queued again\./);

      const manifest = readManifest(out);
      expect(runManifestProblems(manifest)).toEqual([]);
      expect(manifest.status).toBe("completed");
      // every planned job once, all done
      expect(manifest.jobs.map((job) => job.job_id)).toEqual(Array.from({ length: 100 }, (_, i) => `j-${String(i + 1).padStart(6, "0")}`));
      expect(manifest.jobs.every((job) => job.status === "success" && job.artifacts.image_paths.length === 1)).toBe(true);
      // jobs done before the kill kept their record as it was
      for (const job of doneBefore) expect(manifest.jobs.find((j) => j.job_id === job.job_id)).toEqual(job);

      // one image a job on disk: none written twice, no orphan of the killed process
      const after = images();
      expect(after).toHaveLength(100);
      expect(new Set(manifest.jobs.map((job) => job.artifacts.image_paths[0]))).toEqual(new Set(after));
      for (const [name, stamp] of imagesBefore) {
        const stats = statSync(path.join(folder, name));
        expect({ name, ino: stats.ino, mtimeMs: stats.mtimeMs, size: stats.size }).toEqual({ name, ...stamp });
      }

      // at the provider: every prompt called, a job that had finished never again; only the calls
      // in flight at the kill (at most the concurrency of 4) were made a second time
      expect(vendor.received.size).toBe(100);
      for (const job of doneBefore) expect(vendor.received.get(job.prompt)).toBe(1);
      const calledTwice = [...vendor.received].filter(([, calls]) => calls > 1).map(([prompt]) => prompt);
      expect(calledTwice.length).toBeLessThanOrEqual(4);
      for (const prompt of calledTwice) expect(receivedBefore.get(prompt)).toBe(1);
      expect([...vendor.received.values()].every((calls) => calls <= 2)).toBe(true);
      // and no image was answered twice but for a call whose answer the killed process never saved
      const answeredTwice = [...vendor.answered].filter(([, n]) => n > 1).map(([prompt]) => prompt);
      for (const prompt of answeredTwice) expect(doneBefore.some((job) => job.prompt === prompt)).toBe(false);
    } finally {
      rmSync(path.join(workDir, ".env"), { force: true });
      await vendor.close();
    }
  }, 300_000);
});

describe("parallaxr batch-run: Ctrl-C", () => {
  it("cancels the run (status cancelled), keeps its outputs and exits 130; --resume then finishes it", async () => {
    write(
      "slow.yaml",
      "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 32x32\n    seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n    provider_options:\n      mock_latency_ms: 300\nlimits:\n  concurrency: 2\n",
    );
    const out = "runs/interrupted";
    const folder = path.join(workDir, out);
    const run = started("parallaxr", ["batch-run", "--prompts", "prompts.txt", "--matrix", "slow.yaml", "--out", out]);
    await waitFor(() => filesUnder(folder).filter((name) => name.endsWith(".png")).length >= 2 || run.child.exitCode !== null, {
      timeoutMs: 120_000,
      what: "2 images",
    });
    run.child.kill("SIGINT");
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(
      `Interrupted: the batch was cancelled; its outputs are kept. Continue it with: parallaxr batch-run --out ${out} --resume`,
    );
    expect(result.stdout).toMatch(/^Batch interrupted cancelled: \d+ success, 0 failed, 0 skipped, \d+ not run/);
    const manifest = readManifest(out);
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest.status).toBe("cancelled");
    const done = manifest.jobs.filter((job) => job.status === "success");
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(done.length).toBeLessThan(30);
    for (const job of done) expect(existsSync(path.join(folder, job.artifacts.image_paths[0]))).toBe(true);

    // --resume --dry-run says what would run again and changes nothing
    const manifestText = readFileSync(path.join(folder, "run.json"), "utf8");
    const planned = await parallaxr(["batch-run", "--out", out, "--resume", "--dry-run"]);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toBe(
      `Resume of interrupted (${out}/run.json, status cancelled): ${done.length} of 30 job(s) succeeded and are kept; ` +
        `${30 - done.length} run again if the budget allows (0 failed, ${30 - done.length} pending or interrupted, 0 skipped).\n`,
    );
    expect(readFileSync(path.join(folder, "run.json"), "utf8")).toBe(manifestText);

    const resumed = await parallaxr(["batch-run", "--out", out, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Batch interrupted completed: 30 success, 0 failed, 0 skipped (30 image(s))");
    expect(filesUnder(folder).filter((name) => name.endsWith(".png"))).toHaveLength(30);
  }, 180_000);
});
