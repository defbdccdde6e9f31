import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// `parallaxr batch-run` with no flags on a real terminal: a tmux pane of 80 x 24 started in a
// directory far from the repository that holds a prompt file and a matrix for the mock provider,
// with its own data folder. Keys go in with `tmux send-keys`, the screen comes back with `tmux
// capture-pane -p`: the builder's five steps, the run with its live status table, the run folder
// it wrote, and the headless command line it printed, run again with --dry-run for the same plan.
// Every screen read is kept in test-results/batch-builder-tmux/ to look at.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const captures = path.join(root, "test-results", "batch-builder-tmux");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-builder-cwd-"));
/** A second directory whose matrix makes every job take 1.5 s, for pause, resume and stop. */
const slowDir = mkdtempSync(path.join(tmpdir(), "parallaxr-builder-slow-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-builder-data-"));
const socket = `parallaxr-builder-${process.pid}`;

const PROMPTS = [
  "# food prompts",
  "A bowl of ramen with a soft egg",
  "",
  "A stack of pancakes with berries",
  "A slice of lemon tart",
  "A plate of dumplings",
  "A cup of hot chocolate",
  "A taco with lime",
  "A bowl of pho",
].join("\n");

const MATRIX = `version: 1
defaults:
  n: 1
  output_format: png
matrix:
  - provider: mock
    model: [mock-image, mock-image-b]
    size: [256x256, 512x512]
    seed: [1]
limits:
  concurrency: 2
`;

const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

let session = 0;
let name = "";
let shot = 0;

/** Starts `parallaxr batch-run` with no flags in a fresh 80 x 24 pane; the shell prints its exit code after it. */
function start(cwd = workDir): void {
  name = `s${++session}`;
  const vars = { PATH: process.env.PATH ?? "", HOME: cwd, TERM: "xterm-256color", PARALLAXR_DATA_DIR: dataDir };
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
    cwd,
    ...Object.entries(vars).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    `node ${bin} batch-run; echo "EXIT=$?."; sleep 600`,
  );
}

/** The pane's visible screen (history: the whole scrollback too, wrapped lines joined). */
function screen(history = false): string {
  return tmux("capture-pane", "-p", "-t", name, ...(history ? ["-J", "-S", "-"] : []));
}

function keep(label: string, text: string): void {
  writeFileSync(path.join(captures, `${String(++shot).padStart(2, "0")}-${name}-${label}.txt`), text);
}

/** Waits until the screen shows `text` (or matches it), then keeps the capture under `label`. */
async function waitFor(text: string | RegExp, label: string, { history = false, timeoutMs = 20_000 } = {}): Promise<string> {
  const until = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    last = screen(history);
    if (typeof text === "string" ? last.includes(text) : text.test(last)) {
      keep(label, last);
      return last;
    }
    if (Date.now() > until) {
      keep(`${label}-timeout`, last);
      throw new Error(`the screen did not show ${String(text)} within ${timeoutMs} ms; it showed:\n${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends tmux key names (Enter, Tab, BTab, Escape, Left, C-u) or text typed as it is. */
function keys(...names: string[]): void {
  for (const key of names)
    tmux("send-keys", "-t", name, ...(/^(Enter|Tab|BTab|Escape|Left|Right|Up|Down|C-[a-z])$/.test(key) ? [key] : ["-l", key]));
}

/** The screen's lines without the trailing empty ones. */
const lines = (text: string) => text.replace(/\n+$/, "").split("\n");

beforeAll(() => {
  // A session that outlives the tests: a tmux server with no session exits, and a new session
  // started while it exits fails ("server exited unexpectedly").
  tmux("new-session", "-d", "-s", "keep", "sleep 3600");
  rmSync(captures, { recursive: true, force: true });
  mkdirSync(captures, { recursive: true });
  writeFileSync(path.join(workDir, "prompts.txt"), PROMPTS);
  writeFileSync(path.join(workDir, "matrix.yaml"), MATRIX);
  writeFileSync(path.join(slowDir, "prompts.txt"), PROMPTS);
  writeFileSync(
    path.join(slowDir, "matrix.yaml"),
    `${MATRIX.replace("    seed: [1]", "    seed: [1]\n    provider_options:\n      mock_latency_ms: 1500")}`,
  );
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
  for (const dir of [workDir, slowDir, dataDir]) rmSync(dir, { recursive: true, force: true });
});

/** run.json of a run folder. */
const manifest = (dir: string) => JSON.parse(readFileSync(path.join(dir, "run.json"), "utf8"));

describe("parallaxr batch-run's builder in a terminal", () => {
  it(
    "walks the five steps, runs, shows the live table to completed and prints the same run's command line",
    { timeout: 240_000 },
    async () => {
      start();
      let text = await waitFor("Batch run builder, step 1 of 5: Load prompts", "step1", { timeoutMs: 60_000 });
      expect(lines(text).slice(3, 5)).toEqual(["> Prompt file (.txt or .csv): prompts.txt", "  Files here: prompts.txt"]);

      keys("Enter");
      text = await waitFor("Loaded 7 prompts from prompts.txt", "step1-loaded");
      expect(text).toContain("    First: p-0001  A bowl of ramen with a soft egg");
      expect(text).toContain("    Last:  p-0005  A cup of hot chocolate");
      keys("2-6", "Enter");
      text = await waitFor("Selected: 5 of 7 prompts (p-0002 to p-0006)", "step1-range");
      expect(text).toContain("  [ Quit ]  > [ Next ]");

      keys("Enter");
      await waitFor("step 2 of 5: Load matrix", "step2");
      keys("Enter");
      text = await waitFor("Expanded jobs: 20 (4 combinations x 5 prompts)", "step2-loaded");
      expect(text).toContain("  Loaded matrix.yaml: 1 block, 0 includes, 0 excludes");
      expect(text).toContain("  Warnings: none");

      keys("Enter");
      text = await waitFor("step 3 of 5: Review plan", "step3");
      expect(lines(text).slice(3, 13)).toEqual([
        "  Prompts:         5 (range 2-6 of 7)",
        "  Matrix size:     1 block, 0 includes, 4 combinations",
        "  Total jobs:      20",
        "  Total images:    20",
        "  Estimated cost:  $0.00 (no budget, mode estimate)",
        "  Jobs to run:     20",
        "",
        "  Provider / model     Jobs  Images  Est. cost",
        "  mock / mock-image      10      10      $0.00",
        "  mock / mock-image-b    10      10      $0.00",
      ]);

      keys("Enter");
      text = await waitFor("step 4 of 5: Set limits", "step4");
      // the matrix's limits fill the fields
      expect(text).toContain("> Concurrency (1-64, blank for the matrix's or 3): 2");
      keys("C-u", "3", "Tab", "mock=2", "Tab", "5", "Tab", "Right");
      text = await waitFor("< strict >", "step4-set");
      expect(text).toContain("  Per-provider concurrency (e.g. openai=1,gemini=2): mock=2");
      expect(text).toContain("  Budget in USD (blank for the matrix's or none): 5");
      keys("Tab", "Tab", "Enter");

      text = await waitFor("step 5 of 5: Confirm and run", "step5");
      expect(lines(text).slice(3, 16)).toEqual([
        "  Prompts:  prompts.txt, 5 (range 2-6)",
        "  Matrix:   matrix.yaml, 4 combinations",
        "  Jobs:     20 to run of 20, 20 images, estimated $0.00",
        "  Limits:   concurrency 3 (mock=2), budget $5.00, mode strict",
        "",
        "> Output folder: runs/prompts",
        "",
        "  Run writes run.json (status planned) into that folder, then starts the jobs.",
        "  The same run without the builder:",
        "    parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out \\",
        "      runs/prompts --concurrency 3 --provider-concurrency mock=2 --budget 5 \\",
        "      --budget-mode strict --prompt-range 2-6",
        "",
      ]);
      keys("Enter", "Enter");

      text = await waitFor("Run completed: 20 success, 0 failed, 0 skipped.", "live-completed", { timeoutMs: 120_000 });
      expect(text).toMatch(/^Batch run prompts: completed {2,}elapsed \d+:\d\d$/m);
      expect(text).toContain("Jobs 20: 0 queued, 0 running, 20 success, 0 failed, 0 skipped");
      expect(text).toContain("Progress [########################################] 20/20 done (100%)");
      expect(text).toContain("Budget remaining $5.00 of $5.00");
      expect(text).toMatch(/^Job {7}Prompt {2}Provider {2}Model {9}Status {3}Seconds$/m);
      expect(text).toMatch(/^j-0000\d\d {2}p-000[2-6] {2}mock {6}mock-image(-b| {2}) {2}success +\d+\.\d$/m);
      for (const line of lines(text)) expect(line.length).toBeLessThanOrEqual(80);

      text = await waitFor("EXIT=0.", "end", { history: true });
      const command =
        "parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/prompts --concurrency 3 " +
        "--provider-concurrency mock=2 --budget 5 --budget-mode strict --prompt-range 2-6";
      expect(text).toContain(`The same run without the builder:\n  ${command}\n`);
      expect(text).toContain("Batch prompts completed: 20 success, 0 failed, 0 skipped (20 image(s))");
      expect(text).toContain("Manifest: runs/prompts/run.json\nOutput folder: runs/prompts");

      // The run folder holds what the builder chose.
      const run = manifest(path.join(workDir, "runs", "prompts"));
      expect(run.status).toBe("completed");
      expect(run.limits).toEqual({ concurrency: 3, provider_concurrency: { mock: 2 }, budget_usd: 5, budget_mode: "strict" });
      expect(run.jobs).toHaveLength(20);
      expect(new Set(run.jobs.map((job: { prompt_id: string }) => job.prompt_id))).toEqual(
        new Set(["p-0002", "p-0003", "p-0004", "p-0005", "p-0006"]),
      );
      for (const job of run.jobs) expect(existsSync(path.join(workDir, "runs", "prompts", job.artifacts.image_paths[0]))).toBe(true);

      // The printed command line plans the same run (parity), checked with --dry-run.
      const args = command.split(" ").slice(2);
      const dry = spawnSync(process.execPath, [bin, "batch-run", ...args, "--dry-run"], {
        cwd: workDir,
        env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
        encoding: "utf8",
      });
      expect(dry.status).toBe(0);
      expect(dry.stdout).toContain("Jobs:            20\n");
      expect(dry.stdout).toContain("Estimated cost:  $0.00 (budget $5.00, mode strict)\n");
      expect(dry.stdout).toContain("Concurrency:     3 (mock=2)\n");
    },
  );

  it(
    "pause and resume; stop asks first, n keeps running, y ends the run as cancelled with its outputs kept",
    { timeout: 240_000 },
    async () => {
      start(slowDir);
      await waitFor("step 1 of 5", "stop-step1", { timeoutMs: 60_000 });
      // Enter through every step with what the folder and the matrix give
      keys("Enter", "Enter");
      await waitFor("Selected: 7 of 7 prompts", "stop-step1-loaded");
      keys("Enter", "Enter");
      await waitFor("Expanded jobs: 28", "stop-step2");
      keys("Enter", "Enter");
      await waitFor("step 4 of 5", "stop-step4");
      keys("Tab", "Tab", "Tab", "Tab", "Tab", "Enter");
      await waitFor("> Output folder: runs/prompts", "stop-step5");
      keys("Enter", "Enter");

      await waitFor(/^Batch run prompts: running/m, "stop-running", { timeoutMs: 120_000 });
      await waitFor("Keys: p pause, s stop", "stop-keys");
      keys("p");
      let text = await waitFor("Keys: r resume, s stop", "stop-paused", { timeoutMs: 30_000 });
      expect(text).toMatch(/^Batch run prompts: paused {2,}elapsed/m);
      keys("r");
      await waitFor(/^Batch run prompts: running[\s\S]*Keys: p pause, s stop/m, "stop-resumed", { timeoutMs: 30_000 });

      keys("s");
      text = await waitFor("Stop the run?", "stop-asked");
      expect(text).toContain("Stop the run? No new job starts; running jobs finish and every output is kept.");
      expect(text).toContain("y: stop (the run ends as cancelled), n: keep running");
      keys("n");
      await waitFor("Keys: p pause, s stop", "stop-kept");
      keys("s");
      await waitFor("Stop the run?", "stop-asked-again");
      keys("y");
      await waitFor(/Run cancelled: \d+ success, 0 failed, 0 skipped\./, "stop-cancelled", { timeoutMs: 60_000 });
      // a stop ends the command as Ctrl-C does: exit 130, the outputs kept for --resume
      // The exit code ends with a dot: a screen read while "EXIT=130" is half drawn ("EXIT=13") is not an answer.
      text = await waitFor(/EXIT=\d+\./, "stop-end", { history: true });
      expect(text).toContain("EXIT=130.");
      // A job in flight when the run was cancelled may still finish: the view's last drawing and the
      // command's summary both count it.
      const done = Number(/Batch prompts cancelled: (\d+) success, 0 failed, 0 skipped, (\d+) not run/.exec(text)?.[1]);
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(28);
      expect(text).toContain(`Batch prompts cancelled: ${done} success, 0 failed, 0 skipped, ${28 - done} not run`);
      expect([...text.matchAll(/Run cancelled: (\d+) success/g)].at(-1)?.[1]).toBe(String(done));
      const run = manifest(path.join(slowDir, "runs", "prompts"));
      expect(run.status).toBe("cancelled");
      const succeeded = run.jobs.filter((job: { status: string }) => job.status === "success");
      expect(succeeded).toHaveLength(done);
      for (const job of succeeded) expect(existsSync(path.join(slowDir, "runs", "prompts", job.artifacts.image_paths[0]))).toBe(true);
    },
  );

  it("errors show on their field; q asks before quitting and y quits with nothing written", { timeout: 120_000 }, async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "parallaxr-builder-quit-"));
    writeFileSync(path.join(empty, "prompts.txt"), PROMPTS);
    try {
      start(empty);
      await waitFor("step 1 of 5", "quit-step1", { timeoutMs: 60_000 });
      keys("C-u", "missing.txt", "Enter");
      let text = await waitFor("Error:", "quit-error");
      expect(text).toContain(`  Error: missing.txt: no such file here (${empty})`);
      keys("Tab", "Tab", "q");
      text = await waitFor("Quit the builder?", "quit-asked");
      expect(lines(text).at(-1)).toBe("Quit the builder? Nothing has been written or run. y: quit, n: stay");
      keys("y");
      text = await waitFor("EXIT=0.", "quit-end", { history: true });
      expect(text).toContain("Batch run builder: quit, nothing was written.");
      expect(readdirSync(empty)).toEqual(["prompts.txt"]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
