import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { createServerTestDatabase, postgresServerAvailable, waitFor, type TestDatabase } from "../helpers/databases";
import { receiptIsWhole } from "../helpers/receipts";

// `parallaxr batch-run` on the Postgres server (DATABASE_URL, a database of this file's own), as a
// subprocess from a directory outside the repository: a run on the mock image model killed with
// SIGKILL in the middle, then --resume once the killed worker's leases have ended
// (PARALLAXR_LEASE_SECONDS=2): every job once, no image written twice.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-pg-cwd-"));
const available = await postgresServerAvailable();
let database: TestDatabase | null = null;

type Result = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

function started(args: string[]): { child: ChildProcess; stderr: () => string; done: Promise<Result> } {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: workDir,
      DATABASE_URL: database!.url!,
      PARALLAXR_LEASE_SECONDS: "2",
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const done = new Promise<Result>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, stderr: () => stderr, done };
}

beforeAll(async () => {
  if (!available) return;
  database = await createServerTestDatabase();
  writeFileSync(path.join(workDir, "prompts.txt"), Array.from({ length: 10 }, (_, i) => `Prompt ${i + 1}: a green circle`).join("\n"));
  writeFileSync(
    path.join(workDir, "matrix.yaml"),
    "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 32x32\n    seed: [1, 2, 3, 4]\n    provider_options:\n      mock_latency_ms: 250\nlimits:\n  concurrency: 4\n",
  );
});
afterAll(async () => {
  await database?.drop();
  rmSync(workDir, { recursive: true, force: true });
});

describe.skipIf(!available)("parallaxr batch-run on the Postgres server", () => {
  it("SIGKILL in the middle of a 40-job run, then --resume: every job once, no image written twice", async () => {
    const out = "runs/pg_v1";
    const folder = path.join(workDir, out);
    const images = () => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".png")) : []);
    const first = started(["batch-run", "--prompts", "prompts.txt", "--matrix", "matrix.yaml", "--out", out]);
    await waitFor(() => images().length >= 10 || first.child.exitCode !== null, { timeoutMs: 120_000, what: "10 images" });
    expect(first.child.exitCode, first.stderr()).toBeNull();
    first.child.kill("SIGKILL");
    expect((await first.done).signal).toBe("SIGKILL");

    const before = JSON.parse(readFileSync(path.join(folder, "run.json"), "utf8")) as RunManifest;
    const doneBefore = before.jobs.filter((job) => job.status === "success");
    expect(doneBefore.length).toBeGreaterThan(0);
    expect(doneBefore.length).toBeLessThan(40);
    // An image whose receipt was written is whole and vouched for: it is reused, never written again.
    // One without its receipt, or whose receipt the kill cut off before its bytes were all written
    // (the file exists from its open on), is an attempt the kill cut off (at most the 4 in flight):
    // it may be deleted and its job called again.
    const vouched = images().filter((name) => receiptIsWhole(path.join(folder, `receipt-${name.slice(0, name.lastIndexOf("."))}.json`)));
    expect(images().length - vouched.length).toBeLessThanOrEqual(4);
    const stamps = new Map(vouched.map((name) => [name, statSync(path.join(folder, name)).mtimeMs]));

    const resumed = await started(["batch-run", "--out", out, "--resume"]).done;
    expect(resumed.stderr).not.toContain("[WARNING]");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Batch pg_v1 completed: 40 success, 0 failed, 0 skipped (40 image(s))");

    const manifest = JSON.parse(readFileSync(path.join(folder, "run.json"), "utf8")) as RunManifest;
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest.jobs.map((job) => job.job_id)).toEqual(Array.from({ length: 40 }, (_, i) => `j-${String(i + 1).padStart(6, "0")}`));
    expect(manifest.jobs.every((job) => job.status === "success")).toBe(true);
    for (const job of doneBefore) expect(manifest.jobs.find((j) => j.job_id === job.job_id)).toEqual(job);
    const after = images();
    expect(after).toHaveLength(40);
    expect(new Set(manifest.jobs.flatMap((job) => job.artifacts.image_paths))).toEqual(new Set(after));
    for (const [name, mtimeMs] of stamps) expect(statSync(path.join(folder, name)).mtimeMs).toBe(mtimeMs);
  }, 300_000);
});
