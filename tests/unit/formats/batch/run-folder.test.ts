import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMatrix, planJobs } from "@/lib/core/batch/matrix";
import { parsePromptSet } from "@/lib/core/batch/prompts";
import { openRunFolder, prepareRunFolder, runManifestProblems } from "@/lib/formats/batch/run-folder";
import { buildRunManifest } from "@/lib/formats/batch/run-manifest";
import { writeRunManifest } from "@/lib/formats/batch/write-run-manifest";

const MATRIX = "version: 1\nmatrix:\n  - { provider: mock, model: mock-image, seed: [1, 2] }\n";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "parallaxr-folder-"));
  mkdirSync(join(dir, "inputs"));
  writeFileSync(join(dir, "inputs", "prompts.txt"), "ramen\nsushi\n");
  writeFileSync(join(dir, "inputs", "matrix.yaml"), MATRIX);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function startRun(out: string) {
  const folder = prepareRunFolder(out, join(dir, "inputs", "prompts.txt"), join(dir, "inputs", "matrix.yaml"));
  const prompts = parsePromptSet(readFileSync(join(folder.dir, folder.promptsFile), "utf8"), folder.promptsFile);
  const def = parseMatrix(readFileSync(join(folder.dir, folder.matrixFile), "utf8"), folder.matrixFile);
  const { jobs } = planJobs(prompts, def);
  const manifest = buildRunManifest({
    runId: folder.runId,
    createdAt: new Date(),
    startedAt: null,
    completedAt: null,
    status: "planned",
    promptsFile: folder.promptsFile,
    matrixFile: folder.matrixFile,
    promptCount: prompts.length,
    matrixBlocks: def.matrix.length,
    limits: { concurrency: 3, provider_concurrency: {}, budget_usd: null, budget_mode: "estimate" },
    jobs: jobs.map((job) => ({ job, status: "pending", estimatedCostUsd: 0 })),
  });
  writeRunManifest(folder.dir, manifest);
  return folder;
}

describe("batch run folder", () => {
  it("copies the inputs in by name, the run id being the folder's name", () => {
    const folder = startRun(join(dir, "runs", "food_glam_v1"));
    expect(folder.runId).toBe("food_glam_v1");
    expect(readdirSync(folder.dir).sort()).toEqual(["matrix.yaml", "prompts.txt", "run.json"]);
    expect(readFileSync(join(folder.dir, "matrix.yaml"), "utf8")).toBe(MATRIX);
  });

  it("refuses a folder with run.json unless resumed, and resumes from the folder alone after a move", () => {
    const folder = startRun(join(dir, "runs", "food_glam_v1"));
    expect(() => startRun(folder.dir)).toThrow(/run\.json exists: add --resume to continue that run, or choose another --out/);
    rmSync(join(dir, "inputs"), { recursive: true });
    renameSync(join(dir, "runs"), join(dir, "moved"));
    const resumed = openRunFolder(join(dir, "moved", "food_glam_v1"));
    expect(resumed.manifest.jobs).toHaveLength(4);
    expect(resumed.runId).toBe("food_glam_v1");
    expect(readFileSync(join(resumed.dir, resumed.matrixFile), "utf8")).toBe(MATRIX);
  });

  it("refuses to resume a folder without run.json, an invalid run.json, or a missing input copy", () => {
    expect(() => openRunFolder(join(dir, "nothing"))).toThrow(/does not exist: there is no run to resume/);
    const folder = startRun(join(dir, "r"));
    const manifest = JSON.parse(readFileSync(join(folder.dir, "run.json"), "utf8"));
    manifest.jobs[0].status = "done";
    writeFileSync(join(folder.dir, "run.json"), JSON.stringify(manifest));
    expect(() => openRunFolder(folder.dir)).toThrow(
      /not a valid run.json v1 \(\/jobs\/0\/status must be equal to one of the allowed values\)/,
    );
    manifest.jobs[0].status = "pending";
    expect(runManifestProblems(manifest)).toEqual([]);
    writeFileSync(join(folder.dir, "run.json"), JSON.stringify(manifest));
    rmSync(join(folder.dir, "prompts.txt"));
    expect(() => openRunFolder(folder.dir)).toThrow(/prompts\.txt is missing: run\.json names it as an input copy/);
  });

  it("refuses input names that would clash with the run's own files", () => {
    writeFileSync(join(dir, "inputs", "run.json"), "x");
    expect(() => prepareRunFolder(join(dir, "r"), join(dir, "inputs", "run.json"), join(dir, "inputs", "matrix.yaml"))).toThrow(
      /cannot be named "run.json" in a run folder; rename it/,
    );
  });
});
