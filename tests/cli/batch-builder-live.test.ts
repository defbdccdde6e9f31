import { describe, expect, it } from "vitest";
import type { BatchJob, BatchSummary } from "@/lib/api/batches";
import type { Key } from "@/cli/batch/builder/keys";
import { renderLive } from "@/cli/batch/live-render";
import { liveSnapshot, type LiveSnapshot } from "@/cli/batch/live-snapshot";
import { actionFailed, initialLiveView, liveKey, receiveSnapshot, type LiveViewState } from "@/cli/batch/live-view";

// The live status view's pure parts (cli/batch/live-*.ts): the exact lines it draws for known
// snapshots, what its keys ask of the run, and snapshots made from a batch as getBatch returns it.

const running: LiveSnapshot = {
  runId: "food_glam_v1",
  status: "running",
  counts: { total: 54, pending: 10, running: 3, success: 40, failed: 1, skipped: 0 },
  rows: [
    { jobId: "j-000042", promptId: "p-0011", provider: "openai", model: "gpt-image-1.5", status: "running", seconds: 3.24 },
    { jobId: "j-000043", promptId: "p-0011", provider: "gemini", model: "gemini-2.5-flash-image", status: "running", seconds: 1 },
    { jobId: "j-000044", promptId: "p-0011", provider: "flux", model: "flux-2-flex", status: "running", seconds: null },
    { jobId: "j-000041", promptId: "p-0011", provider: "openai", model: "gpt-image-1.5", status: "failed", seconds: 12.5 },
  ],
  elapsedSeconds: 83,
  jobsPerMinute: 29.64,
  estimatedCostUsd: 1.234,
  actualCostUsd: null,
  budgetUsd: 10,
  budgetRemainingUsd: 8.77,
};

const view = (snapshot: LiveSnapshot, more: Partial<LiveViewState> = {}): LiveViewState => ({
  ...receiveSnapshot(initialLiveView(), snapshot),
  ...more,
});

const char = (c: string): Key => ({ name: "char", char: c });

describe("the live view's lines", () => {
  it("a running batch: summary panel, counts, progress, the job table and its keys, within 80 columns", () => {
    const lines = renderLive(view(running));
    expect(lines).toEqual([
      "Batch run food_glam_v1: running                                     elapsed 1:23",
      "Jobs 54: 10 queued, 3 running, 40 success, 1 failed, 0 skipped",
      "Progress [##############################..........] 41/54 done (75%)",
      "Throughput 29.6 jobs/min, estimated cost $1.23, actual cost not reported",
      "Budget remaining $8.77 of $10.00",
      "",
      "Job       Prompt  Provider  Model                   Status   Seconds",
      "j-000042  p-0011  openai    gpt-image-1.5           running      3.2",
      "j-000043  p-0011  gemini    gemini-2.5-flash-image  running      1.0",
      "j-000044  p-0011  flux      flux-2-flex             running        -",
      "j-000041  p-0011  openai    gpt-image-1.5           failed      12.5",
      "",
      "Keys: p pause, s stop",
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it("paused offers resume; the stop question says what stopping keeps; an ended run says its counts", () => {
    expect(renderLive(view({ ...running, status: "paused" })).at(-1)).toBe("Keys: r resume, s stop");
    expect(renderLive(view(running, { askStop: true })).slice(-2)).toEqual([
      "Stop the run? No new job starts; running jobs finish and every output is kept.",
      "y: stop (the run ends as cancelled), n: keep running",
    ]);
    const cancelled = renderLive(view({ ...running, status: "cancelled", counts: { ...running.counts, pending: 13, running: 0 } }));
    expect(cancelled[0]).toBe("Batch run food_glam_v1: cancelled                                   elapsed 1:23");
    expect(cancelled.at(-1)).toBe("Run cancelled: 40 success, 1 failed, 0 skipped.");
  });

  it("no budget, no throughput yet, no rows; a narrow terminal gets a cut table and a short bar", () => {
    const fresh: LiveSnapshot = {
      ...running,
      status: "planned",
      counts: { total: 4, pending: 4, running: 0, success: 0, failed: 0, skipped: 0 },
      rows: [],
      elapsedSeconds: 0,
      jobsPerMinute: null,
      budgetUsd: null,
      budgetRemainingUsd: null,
      actualCostUsd: 0.5,
    };
    expect(renderLive(view(fresh))).toEqual([
      "Batch run food_glam_v1: planned                                     elapsed 0:00",
      "Jobs 4: 4 queued, 0 running, 0 success, 0 failed, 0 skipped",
      "Progress [........................................] 0/4 done (0%)",
      "Throughput -, estimated cost $1.23, actual cost $0.50",
      "Budget remaining: no budget set",
      "",
      "No job has started yet.",
      "",
      "Keys: p pause, s stop",
    ]);
    const narrow = renderLive(view(running), 50, 2);
    for (const line of narrow) expect(line.length).toBeLessThanOrEqual(50);
    expect(narrow.filter((l) => l.startsWith("j-"))).toHaveLength(2);
    expect(renderLive(initialLiveView())).toEqual(["Batch run: starting..."]);
  });
});

describe("the live view's keys", () => {
  it("s asks before stopping: n keeps running, y asks the run to stop once", () => {
    const start = view(running);
    const asked = liveKey(start, char("s"));
    expect(asked).toEqual({ state: { ...start, askStop: true }, action: null });
    expect(liveKey(asked.state, char("n")).state.askStop).toBe(false);
    expect(liveKey(asked.state, { name: "escape" }).state.askStop).toBe(false);
    const stopped = liveKey(asked.state, char("y"));
    expect(stopped.action).toBe("stop");
    expect(stopped.state.stopping).toBe(true);
    expect(renderLive(stopped.state).at(-1)).toBe("Stopping: no new job starts, running jobs finish...");
    // once stopping, no key asks anything more
    expect(liveKey(stopped.state, char("s")).action).toBeNull();
    expect(liveKey(stopped.state, char("p")).action).toBeNull();
  });

  it("Ctrl-C asks too, and a second Ctrl-C confirms; Esc and q ask", () => {
    const asked = liveKey(view(running), { name: "ctrl-c" });
    expect(asked.state.askStop).toBe(true);
    expect(liveKey(asked.state, { name: "ctrl-c" }).action).toBe("stop");
    expect(liveKey(view(running), { name: "escape" }).state.askStop).toBe(true);
    expect(liveKey(view(running), char("q")).state.askStop).toBe(true);
  });

  it("p pauses a running run, r resumes a paused one; the note goes once the snapshot shows it", () => {
    const paused = liveKey(view(running), char("p"));
    expect(paused.action).toBe("pause");
    expect(paused.state.note).toBe("Pausing...");
    expect(liveKey(view(running), char("r")).action).toBeNull();
    const shown = receiveSnapshot(paused.state, { ...running, status: "paused" });
    expect(shown.note).toBeNull();
    expect(liveKey(shown, char("p")).action).toBeNull();
    expect(liveKey(shown, char("r")).action).toBe("resume");
  });

  it("an ended run takes no keys; a refused request is said in the view", () => {
    const ended = view({ ...running, status: "completed" });
    expect(liveKey(ended, char("s"))).toEqual({ state: ended, action: null });
    const refused = actionFailed(
      liveKey(liveKey(view(running), char("s")).state, char("y")).state,
      "stop",
      new Error("the database is gone"),
    );
    expect(refused.stopping).toBe(false);
    expect(renderLive(refused).slice(-2)).toEqual(["Could not stop the run: the database is gone", "Keys: p pause, s stop"]);
  });
});

describe("snapshots from a batch", () => {
  const job = (n: number, status: BatchJob["status"], started: string | null, completed: string | null): BatchJob => ({
    job_id: `j-${String(n).padStart(6, "0")}`,
    prompt_id: `p-000${n}`,
    prompt: "a prompt",
    params: { provider: "mock", model: `m${n}`, n: 1, provider_options: {} },
    status,
    attempts: started ? 1 : 0,
    started_at: started,
    completed_at: completed,
    estimated_cost_usd: 0,
    actual_cost_usd: null,
    artifacts: { image_paths: [], receipt_paths: [] },
    warnings: [],
    error: null,
  });
  const summary = {
    id: "5f0c6a8e-3a57-4c57-9d3a-2c6c1b8f0a11",
    runId: "v1",
    status: "running",
    outDir: "/tmp/runs/v1",
    createdAt: "2026-11-26T10:00:00.000Z",
    startedAt: "2026-11-26T10:00:00.000Z",
    completedAt: null,
    counts: { total: 5, pending: 1, running: 1, success: 2, failed: 1, skipped: 0 },
    images: 2,
    plannedImages: 5,
    elapsedSeconds: 30,
    jobsPerMinute: 6,
    estimatedCostUsd: 0.2,
    actualCostUsd: null,
    spentUsd: 0.1,
    budgetUsd: 1,
    budgetMode: "estimate",
    budgetRemainingUsd: 0.9,
    limits: { concurrency: 3, provider_concurrency: {}, budget_usd: 1, budget_mode: "estimate" },
    promptsFile: "prompts.txt",
    matrixFile: "matrix.yaml",
  } as BatchSummary;

  it("running jobs first with their seconds so far, then the finished, latest first", () => {
    const jobs = [
      job(1, "success", "2026-11-26T10:00:00.000Z", "2026-11-26T10:00:04.000Z"),
      job(2, "failed", "2026-11-26T10:00:01.000Z", "2026-11-26T10:00:09.500Z"),
      job(3, "success", "2026-11-26T10:00:05.000Z", "2026-11-26T10:00:07.000Z"),
      job(4, "running", "2026-11-26T10:00:20.000Z", null),
      job(5, "pending", null, null),
    ];
    const snapshot = liveSnapshot(summary, jobs, new Date("2026-11-26T10:00:30.000Z"));
    expect(snapshot.rows.map((r) => [r.jobId, r.status, r.seconds, r.model])).toEqual([
      ["j-000004", "running", 10, "m4"],
      ["j-000002", "failed", 8.5, "m2"],
      ["j-000003", "success", 2, "m3"],
      ["j-000001", "success", 4, "m1"],
    ]);
    expect(snapshot).toMatchObject({
      runId: "v1",
      status: "running",
      counts: summary.counts,
      elapsedSeconds: 30,
      jobsPerMinute: 6,
      budgetRemainingUsd: 0.9,
    });
  });
});
