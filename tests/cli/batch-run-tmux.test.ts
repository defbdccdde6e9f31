import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";

// `parallaxr batch-run` with no flags on a real terminal (a tmux pane of 80 x 24, in a directory far
// from the repository, its own data folder): the builder's five steps, then the real run on the
// mock image model with the live table, stop from the keys, and the summary and command line at
// the end. Keys go in with `tmux send-keys`, the screen comes back with `tmux capture-pane -p`; every
// screen read is kept in test-results/batch-run-tmux/ to be looked at.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const captures = path.join(root, "test-results", "batch-run-tmux");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-tty-"));
const dataDir = path.join(workDir, ".data");
const socket = `parallaxr-batch-run-${process.pid}`;

const PROMPTS = ["# food prompts", "A bowl of ramen", "", "A stack of pancakes", "A slice of lemon tart"].join("\n");
const MATRIX = `version: 1
defaults:
  output_format: png
matrix:
  - provider: mock
    model: [mock-image, mock-image-b]
    size: [64x64]
    seed: [1, 2]
limits:
  concurrency: 2
`;

const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let session = 0;
let name = "";
let shot = 0;

/** Starts `parallaxr batch-run` in a fresh 80 x 24 pane; the shell prints its exit code after it. */
function start(env: Record<string, string> = {}): void {
  name = `s${++session}`;
  const vars = { PATH: process.env.PATH ?? "", HOME: workDir, TERM: "xterm-256color", PARALLAXR_DATA_DIR: dataDir, ...env };
  tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    "80",
    "-y",
    "24",
    "-c",
    workDir,
    ...Object.entries(vars).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    `node ${bin} batch-run; echo EXIT=$?; sleep 600`,
  );
}

function screen(history = false): string {
  return tmux("capture-pane", "-p", "-t", name, ...(history ? ["-J", "-S", "-"] : []));
}

async function waitFor(text: string | RegExp, label: string, { history = false, timeoutMs = 90_000 } = {}): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    last = screen(history);
    if (typeof text === "string" ? last.includes(text) : text.test(last)) {
      writeFileSync(path.join(captures, `${String(++shot).padStart(2, "0")}-${name}-${label}.txt`), last);
      return last;
    }
    if (Date.now() > until) {
      writeFileSync(path.join(captures, `${String(++shot).padStart(2, "0")}-${name}-${label}-timeout.txt`), last);
      throw new Error(`the screen did not show ${String(text)} within ${timeoutMs} ms; it showed:\n${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function keys(...names: string[]): void {
  for (const key of names)
    tmux("send-keys", "-t", name, ...(/^(Enter|Tab|BTab|Escape|Left|Right|Up|Down|C-[a-z])$/.test(key) ? [key] : ["-l", key]));
}

/** Through the builder's five steps with what the folder and the matrix give, into `out`. */
async function walkBuilder(out: string, label: string): Promise<void> {
  await waitFor("Batch run builder, step 1 of 5: Load prompts", `${label}-step1`);
  keys("Enter", "Enter");
  await waitFor("Selected: 3 of 3 prompts", `${label}-step1-loaded`);
  keys("Enter", "Enter");
  await waitFor("Expanded jobs: 12", `${label}-step2`);
  keys("Enter", "Enter");
  await waitFor("step 4 of 5", `${label}-step4`);
  keys("Tab", "Tab", "Tab", "Tab", "Tab", "Enter");
  await waitFor("> Output folder: runs/prompts", `${label}-step5`);
  keys("C-u", out, "Enter", "Enter");
}

const readManifest = (out: string) => JSON.parse(readFileSync(path.join(workDir, out, "run.json"), "utf8")) as RunManifest;

beforeAll(() => {
  rmSync(captures, { recursive: true, force: true });
  mkdirSync(captures, { recursive: true });
  writeFileSync(path.join(workDir, "prompts.txt"), PROMPTS);
  writeFileSync(path.join(workDir, "matrix.yaml"), MATRIX);
});
afterEach(() => {
  try {
    tmux("kill-session", "-t", name);
  } catch {
    // the session ended on its own
  }
});
afterAll(() => {
  try {
    tmux("kill-server");
  } catch {
    // no sessions were left
  }
  rmSync(workDir, { recursive: true, force: true });
});

describe("parallaxr batch-run with no flags on a terminal", () => {
  it("the builder, then the real run in the live table to completed, the counts, manifest and the same run's command line", async () => {
    start();
    await walkBuilder("runs/tty_v1", "run");
    let text = await waitFor(/Run completed: 12 success, 0 failed, 0 skipped\./, "live-completed");
    expect(text).toMatch(/^Batch run tty_v1: completed {2,}elapsed \d+:\d\d$/m);
    expect(text).toContain("Jobs 12: 0 queued, 0 running, 12 success, 0 failed, 0 skipped");
    text = await waitFor("EXIT=0", "run-end", { history: true });
    expect(text).toContain(
      "The same run without the builder:\n  parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/tty_v1",
    );
    expect(text).toContain("Batch tty_v1 completed: 12 success, 0 failed, 0 skipped (12 image(s))");
    expect(text).toContain("Manifest: runs/tty_v1/run.json");
    expect(text).toContain("Output folder: runs/tty_v1");

    const manifest = readManifest("runs/tty_v1");
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest.status).toBe("completed");
    expect(manifest.jobs).toHaveLength(12);
    const images = readdirSync(path.join(workDir, "runs", "tty_v1")).filter((file) => file.endsWith(".png"));
    expect(images).toHaveLength(12);
  }, 240_000);

  it("s then y in the live table cancels the run, keeps what finished and exits 130", async () => {
    start({ PARALLAXR_MOCK_IMAGE_LATENCY_MS: "1500" });
    await walkBuilder("runs/tty_stop", "stop");
    await waitFor("Keys: p pause, s stop", "stop-running");
    await waitFor(/Jobs 12: \d+ queued, \d+ running, [1-9]\d* success/, "stop-some-done");
    keys("s");
    await waitFor("Stop the run?", "stop-asked");
    keys("y");
    await waitFor(/Run cancelled: \d+ success, 0 failed, 0 skipped\./, "stop-cancelled");
    // the jobs in flight at the stop finish and are kept; the summary waits for them
    const text = await waitFor("EXIT=130", "stop-end", { history: true });
    const summary = /^Batch tty_stop cancelled: (\d+) success, 0 failed, 0 skipped, (\d+) not run \(\d+ image\(s\)\)$/m.exec(text);
    expect(summary).not.toBeNull();
    const done = Number(summary![1]);
    expect(Number(summary![2])).toBe(12 - done);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(12);
    expect(text).toContain(
      "Interrupted: the batch was cancelled; its outputs are kept. Continue it with: parallaxr batch-run --out runs/tty_stop --resume",
    );
    const manifest = readManifest("runs/tty_stop");
    expect(manifest.status).toBe("cancelled");
    const finished = manifest.jobs.filter((job) => job.status === "success");
    expect(finished).toHaveLength(done);
    for (const job of finished) expect(existsSync(path.join(workDir, "runs", "tty_stop", job.artifacts.image_paths[0]))).toBe(true);
  }, 240_000);
});
