import { describe, expect, it } from "vitest";
import { planBudget } from "@/lib/core/batch/budget";
import { parseMatrix, planJobs } from "@/lib/core/batch/matrix";
import { resumeJobStates } from "@/lib/formats/batch/resume-run";
import { buildRunManifest, type JobState, type RunState } from "@/lib/formats/batch/run-manifest";

const MATRIX = `version: 1
matrix:
  - provider: openai
    model: gpt-image-1.5
    size: 1024x1024
    seed: [1, 2, 3, 4]
    provider_options: { quality: high }
`;
const prompts = [{ id: "p-0001", prompt: "ramen", metadata: {} }];

function state(jobs: JobState[]): RunState {
  return {
    runId: "r",
    createdAt: new Date("2026-01-06T19:00:00Z"),
    startedAt: new Date("2026-01-06T19:00:01Z"),
    completedAt: null,
    status: "running",
    promptsFile: "prompts.txt",
    matrixFile: "matrix.yaml",
    promptCount: 1,
    matrixBlocks: 1,
    limits: { concurrency: 1, provider_concurrency: {}, budget_usd: 0.3, budget_mode: "estimate" },
    jobs,
  };
}

describe("batch --resume", () => {
  it("keeps success jobs, re-queues failed, interrupted and budget-skipped ones, counting what was spent", () => {
    const { jobs } = planJobs(prompts, parseMatrix(MATRIX, "matrix.yaml"));
    const first = planBudget(jobs, { budgetUsd: 0.3, mode: "estimate" });
    expect(first.decisions.map((d) => d.run)).toEqual([true, true, false, false]);
    const manifest = buildRunManifest(
      state([
        {
          job: jobs[0],
          status: "success",
          attempts: 1,
          estimatedCostUsd: 0.133,
          actualCostUsd: 0.1,
          imagePaths: ["a.jpg"],
          receiptPaths: ["receipt-a.json"],
        },
        { job: jobs[1], status: "running", attempts: 1, estimatedCostUsd: 0.133 },
        { job: jobs[2], status: "skipped", estimatedCostUsd: 0.133, warnings: ["skipped: budget"] },
        { job: jobs[3], status: "failed", attempts: 2, estimatedCostUsd: 0.133, error: "500" },
      ]),
    );
    const again = planJobs(prompts, parseMatrix(MATRIX, "matrix.yaml")).jobs;
    const resumed = resumeJobStates(manifest, again);
    expect(resumed.jobs.map((j) => j.status)).toEqual(["success", "pending", "pending", "pending"]);
    expect(resumed.jobs[0].imagePaths).toEqual(["a.jpg"]);
    expect(resumed.spentUsd).toBe(0.1);
    expect(resumed.requeued).toBe(3);
    // a larger budget on resume lets the budget-skipped jobs run
    const pending = resumed.jobs.filter((j) => j.status === "pending").map((j) => j.job);
    const decided = planBudget(pending, { budgetUsd: 0.6, mode: "estimate", alreadySpentUsd: resumed.spentUsd });
    expect(decided.decisions.map((d) => d.run)).toEqual([true, true, true]);
  });

  it("refuses when the inputs no longer make the stored jobs", () => {
    const { jobs } = planJobs(prompts, parseMatrix(MATRIX, "matrix.yaml"));
    const manifest = buildRunManifest(state(jobs.map((job) => ({ job, status: "pending", estimatedCostUsd: 0.133 }))));
    const changed = planJobs(prompts, parseMatrix(MATRIX.replace("[1, 2, 3, 4]", "[1, 2, 5, 4]"), "matrix.yaml")).jobs;
    expect(() => resumeJobStates(manifest, changed)).toThrow(
      "the run's prompt or matrix copy no longer makes the jobs run.json lists (j-000003): restore prompts.txt and matrix.yaml or start a new run",
    );
  });
});
