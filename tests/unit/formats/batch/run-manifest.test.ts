import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import Ajv from "ajv";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planBudget } from "@/lib/core/batch/budget";
import { parseMatrix, planJobs } from "@/lib/core/batch/matrix";
import { imageFileName, receiptFileName, uniqueFileName } from "@/lib/formats/batch/output-file-name";
import { buildRunManifest, relativeRunPath, type JobState, type RunState } from "@/lib/formats/batch/run-manifest";
import { readRunManifest, resolveRunPath, writeRunManifest } from "@/lib/formats/batch/write-run-manifest";

const schema = JSON.parse(readFileSync(join(process.cwd(), "schemas/run.schema.json"), "utf8"));
const validate = new Ajv({ allErrors: true }).compile(schema);
const assertValid = (doc: unknown) => {
  const ok = validate(doc);
  if (!ok) throw new Error(JSON.stringify(validate.errors, null, 2));
};

const MATRIX = readFileSync(join(__dirname, "../../core/batch/fixtures/spec-matrix.yaml"), "utf8");

function plannedState(promptCount = 2): RunState {
  const def = parseMatrix(MATRIX, "matrix.yaml");
  const prompts = Array.from({ length: promptCount }, (_, i) => ({ id: `p-000${i + 1}`, prompt: `dish ${i + 1}`, metadata: {} }));
  const { jobs } = planJobs(prompts, def);
  const budget = planBudget(jobs, { budgetUsd: 1.2, mode: "estimate" });
  return {
    runId: "food_glam_v1",
    createdAt: new Date("2026-01-06T19:03:21.456Z"),
    startedAt: null,
    completedAt: null,
    status: "planned",
    promptsFile: "prompts.txt",
    matrixFile: "matrix.yaml",
    promptCount: prompts.length,
    matrixBlocks: def.matrix.length,
    limits: { concurrency: 3, provider_concurrency: { openai: 1, gemini: 2 }, budget_usd: 1.2, budget_mode: "estimate" },
    jobs: jobs.map((job, i): JobState => ({
      job,
      status: budget.decisions[i].run ? "pending" : "skipped",
      estimatedCostUsd: budget.decisions[i].estimated_cost_usd,
      warnings: budget.decisions[i].warnings,
    })),
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parallaxr-run-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("run.json schema v1", () => {
  it("is valid against the shipped schema after every simulated job", () => {
    const runDir = join(dir, "food_glam_v1");
    mkdirSync(runDir);
    const state = plannedState();
    const write = () => {
      writeRunManifest(runDir, buildRunManifest(state));
      const onDisk = readRunManifest(runDir);
      assertValid(onDisk);
      return onDisk;
    };
    const planned = write();
    expect(planned.status).toBe("planned");
    expect(planned.inputs).toEqual({
      prompts_path: "prompts.txt",
      matrix_path: "matrix.yaml",
      prompt_count: 2,
      matrix_blocks: 2,
      expanded_jobs: 28,
      planned_images: 28,
    });
    expect(planned.created_at).toBe("2026-01-06T19:03:21Z");
    expect(planned.summary.skipped).toBeGreaterThan(0);
    state.status = "running";
    state.startedAt = new Date("2026-01-06T19:03:25Z");
    write();
    let clock = Date.parse("2026-01-06T19:03:30Z");
    state.jobs.forEach((s, i) => {
      if (s.status === "skipped") return;
      s.status = "running";
      s.attempts = 1;
      s.startedAt = new Date(clock);
      write();
      clock += 1000;
      s.completedAt = new Date(clock);
      if (i % 7 === 3) {
        s.status = "failed";
        s.attempts = 2;
        s.error = "provider error 500 after one retry";
      } else {
        const image = imageFileName({ provider: s.job.params.provider, at: s.completedAt, jobId: s.job.job_id, index: 0, format: "jpeg" });
        s.status = "success";
        s.imagePaths = [image];
        s.receiptPaths = [receiptFileName(image)];
        s.actualCostUsd = i % 2 ? 0.01 : null;
      }
      const m = write();
      expect(m.jobs[i].status).toBe(s.status);
    });
    state.status = "completed";
    state.completedAt = new Date(clock);
    const done = write();
    expect(done.summary.succeeded + done.summary.failed + done.summary.skipped).toBe(28);
    expect(done.jobs.every((j) => j.status !== "pending" && j.status !== "running")).toBe(true);
    expect(done.summary.actual_cost_usd).toBeGreaterThan(0);
    expect(done.jobs[0].artifacts.image_paths[0]).toBe("openai-20260106T190331Z-j-000001-00.jpg");
    // a manifest with an absolute path or a wrong status is refused by the schema
    expect(validate({ ...done, status: "done" })).toBe(false);
    const bad = structuredClone(done);
    bad.jobs[0].artifacts.image_paths = ["/etc/passwd"];
    expect(validate(bad)).toBe(false);
    bad.jobs[0].artifacts.image_paths = ["../x.jpg"];
    expect(validate(bad)).toBe(false);
  });

  it("refuses paths that leave the run folder", () => {
    expect(relativeRunPath("a\\b.jpg")).toBe("a/b.jpg");
    for (const p of ["/abs.jpg", "../up.jpg", "a/../../b", "C:/x.jpg", ""]) expect(() => relativeRunPath(p)).toThrow();
    expect(() => resolveRunPath(dir, "../x")).toThrow(/leaves the run folder/);
  });

  it("never shows a reader half a file while it is rewritten 500 times", async () => {
    const state = plannedState(4);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const reader = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
       const { readFileSync } = require("node:fs");
       const flag = workerData.flag;
       let reads = 0, missing = 0; const bad = [];
       while (Atomics.load(flag, 0) === 0) {
         let text;
         try { text = readFileSync(workerData.file, "utf8"); } catch { missing++; continue; }
         reads++;
         try {
           const m = JSON.parse(text);
           if (m.schema_version !== 1 || m.jobs.length !== workerData.jobs) bad.push(text.slice(0, 80));
         } catch { bad.push(text.slice(-80)); }
       }
       parentPort.postMessage({ reads, missing, bad: bad.slice(0, 3), badCount: bad.length });`,
      { eval: true, workerData: { file: join(dir, "run.json"), flag, jobs: state.jobs.length } },
    );
    const result = new Promise<{ reads: number; missing: number; bad: string[]; badCount: number }>((ok) => reader.once("message", ok));
    writeRunManifest(dir, buildRunManifest(state));
    for (let i = 0; i < 500; i++) {
      const s = state.jobs[i % state.jobs.length];
      s.status = i % 2 ? "success" : "running";
      s.warnings = [`rewrite ${i} `.repeat(i % 50)];
      writeRunManifest(dir, buildRunManifest(state));
      if (i % 25 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    Atomics.store(flag, 0, 1);
    const { reads, missing, bad, badCount } = await result;
    await reader.terminate();
    expect(bad).toEqual([]);
    expect(badCount).toBe(0);
    expect(missing).toBe(0);
    expect(reads).toBeGreaterThan(10);
    expect(readdirSync(dir)).toEqual(["run.json"]);
    assertValid(readRunManifest(dir));
  });

  it("resolves its relative paths after the folder is moved", () => {
    const runDir = join(dir, "food_glam_v1");
    mkdirSync(runDir);
    writeFileSync(join(runDir, "prompts.txt"), "dish 1\ndish 2\n");
    writeFileSync(join(runDir, "matrix.yaml"), MATRIX);
    const state = plannedState();
    const s = state.jobs[0];
    const image = imageFileName({ provider: "openai", at: new Date(), jobId: s.job.job_id, index: 0, format: "jpeg" });
    writeFileSync(join(runDir, image), "jpeg bytes");
    writeFileSync(join(runDir, receiptFileName(image)), "{}");
    Object.assign(s, { status: "success", attempts: 1, imagePaths: [image], receiptPaths: [receiptFileName(image)] });
    writeRunManifest(runDir, buildRunManifest(state));

    const moved = join(dir, "elsewhere", "renamed_run");
    mkdirSync(join(dir, "elsewhere"));
    renameSync(runDir, moved);
    const m = readRunManifest(moved);
    expect(readFileSync(resolveRunPath(moved, m.inputs.prompts_path), "utf8")).toBe("dish 1\ndish 2\n");
    expect(parseMatrix(readFileSync(resolveRunPath(moved, m.inputs.matrix_path), "utf8"), m.inputs.matrix_path).matrix).toHaveLength(2);
    for (const p of [...m.jobs[0].artifacts.image_paths, ...m.jobs[0].artifacts.receipt_paths]) {
      expect(existsSync(resolveRunPath(moved, p))).toBe(true);
    }
    expect(JSON.stringify(m)).not.toContain(dir);
  });

  it("names 200 parallel jobs finishing in the same second without a collision", async () => {
    const at = new Date("2026-01-06T19:03:42.999Z");
    const taken = new Set<string>();
    const written = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 5));
        const jobId = `j-${String(i + 1).padStart(6, "0")}`;
        const names: string[] = [];
        for (let index = 0; index < 2; index++) {
          const name = uniqueFileName(imageFileName({ provider: "mock", at, jobId, index, format: "png" }), taken);
          taken.add(name);
          // "wx" fails if the file exists: a collision would throw here
          await writeFile(join(dir, name), `image ${jobId} ${index}`, { flag: "wx" });
          await writeFile(join(dir, receiptFileName(name)), "{}", { flag: "wx" });
          names.push(name);
        }
        return names;
      }),
    );
    const all = written.flat();
    expect(new Set(all).size).toBe(400);
    expect(readdirSync(dir)).toHaveLength(800);
    // the job id alone kept them apart: no name needed a -2 suffix
    expect(all.every((n) => /^mock-20260106T190342Z-j-\d{6}-0[01]\.png$/.test(n))).toBe(true);
    expect(readFileSync(join(dir, "mock-20260106T190342Z-j-000200-01.png"), "utf8")).toBe("image j-000200 1");
  });
});
