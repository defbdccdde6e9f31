import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchSchema } from "@/lib/api/batches";
import type { Database } from "@/lib/db/database";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { createBatch, resumeBatch } from "@/lib/services/batches";
import { userA, waitFor } from "../helpers/databases";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Where the crash test's database lives: a Postgres URL, or a PGlite data folder that only one process may open at a time. */
export interface CrashDatabase {
  /** Opens the database in this process (closed before a worker process opens a PGlite folder). */
  open(): Promise<Database>;
  /** The worker process's environment to reach the same database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

function spawnBatchWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/batch-worker.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** run.json as it is now; every read is checked against the schema (a reader never sees it half-written). */
function readManifest(dir: string): RunManifest {
  const manifest = JSON.parse(readFileSync(path.join(dir, "run.json"), "utf8")) as RunManifest;
  const problems = runManifestProblems(manifest);
  if (problems.length > 0) throw new Error(`run.json is not valid: ${problems.join("; ")}`);
  return manifest;
}

/**
 * A 100-job mock batch run by a worker process that is killed with SIGKILL in the middle, then
 * resumed (resumeBatch) and finished by a second process: every planned job once in run.json,
 * no image written twice, and no call answered twice at the mock (MOCK_IMAGE_CALL_LOG, one line
 * per answered call across both processes).
 */
export function describeBatchCrash(label: string, create: () => Promise<CrashDatabase | null>): void {
  describe(`a 100-job image batch killed mid-run on ${label}`, () => {
    let database: CrashDatabase | null = null;
    const scratch = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-crash-"));
    const children: Array<ReturnType<typeof spawnBatchWorker>> = [];
    beforeAll(async () => {
      database = await create();
    });
    afterAll(async () => {
      for (const child of children) child.child.kill("SIGKILL");
      await Promise.all(children.map((child) => child.exited));
      await database?.drop();
      rmSync(scratch, { recursive: true, force: true });
    });

    it(
      "is resumed after SIGKILL: every job once in run.json, no image written twice, no call answered twice",
      { timeout: 180_000 },
      async (context) => {
        if (!database) return context.skip();
        const out = path.join(scratch, "crash_run");
        const log = path.join(scratch, "calls.jsonl");
        const prompts = Array.from({ length: 100 }, (_, k) => `crash prompt ${k + 1}`).join("\n");
        const matrix =
          "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 32x32\n    provider_options:\n      mock_latency_ms: 150\n";
        let db = await database.open();
        const created = await createBatch(
          db,
          userA,
          createBatchSchema.parse({
            prompts: { name: "prompts.txt", text: prompts },
            matrix: { name: "matrix.yaml", text: matrix },
            concurrency: 2,
          }),
          {
            outDir: out,
          },
        );
        expect(created.plan.jobs).toBe(100);
        await db.close();

        const env = { ...database.env, MOCK_IMAGE_CALL_LOG: log, BATCH_LEASE_MS: "1500" };
        const first = spawnBatchWorker(env);
        children.push(first);
        await waitFor(() => readManifest(out).summary.succeeded >= 30, {
          timeoutMs: 90_000,
          intervalMs: 10,
          what: `30 jobs done (worker output: ${first.output()})`,
        });
        first.child.kill("SIGKILL");
        await first.exited;
        const atKill = readManifest(out);
        expect(atKill.summary.succeeded).toBeLessThan(100);

        db = await database.open();
        const resumed = await resumeBatch(db, userA, { outDir: out });
        expect(resumed).toMatchObject({ id: created.id, recreated: false });
        await db.close();

        const second = spawnBatchWorker(env);
        children.push(second);
        const done = await waitFor(
          () => {
            const manifest = readManifest(out);
            return manifest.status === "completed" ? manifest : null;
          },
          { timeoutMs: 120_000, intervalMs: 10, what: `the resumed run to complete (worker output: ${second.output()})` },
        );
        second.child.kill("SIGTERM");
        await second.exited;

        // Every planned job once, each a success with one image.
        expect(done.jobs.map((job) => job.job_id)).toEqual(Array.from({ length: 100 }, (_, k) => `j-${String(k + 1).padStart(6, "0")}`));
        expect(done.jobs.every((job) => job.status === "success" && job.artifacts.image_paths.length === 1)).toBe(true);
        // The jobs done before the kill kept their files.
        for (const job of atKill.jobs.filter((one) => one.status === "success")) {
          expect(done.jobs.find((one) => one.job_id === job.job_id)!.artifacts).toEqual(job.artifacts);
        }
        // No image written twice: one image and one receipt per job in the folder, all listed.
        const files = readdirSync(out);
        const pngs = files.filter((name) => name.endsWith(".png"));
        expect(pngs).toHaveLength(100);
        expect(new Set(pngs.map((name) => /-(j-\d{6})-/.exec(name)![1])).size).toBe(100);
        expect(files.filter((name) => name.startsWith("receipt-"))).toHaveLength(100);
        expect(pngs.sort()).toEqual(done.jobs.map((job) => job.artifacts.image_paths[0]).sort());
        // No call answered twice, over both processes; and both did part of the work.
        const calls = readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as { pid: number; prompt: string });
        const perPrompt = new Map<string, number>();
        for (const call of calls) perPrompt.set(call.prompt, (perPrompt.get(call.prompt) ?? 0) + 1);
        expect([...perPrompt.entries()].filter(([, count]) => count > 1)).toEqual([]);
        expect(perPrompt.size).toBe(100);
        expect(new Set(calls.map((call) => call.pid)).size).toBe(2);
      },
    );
  });
}
