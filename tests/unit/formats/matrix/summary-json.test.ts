import { describe, expect, it } from "vitest";
import { allFailedLine, runSummaryLines } from "@/lib/formats/matrix/run-summary-lines";
import { batchSummary, batchSummaryJson } from "@/lib/formats/matrix/summary-json";
import { matrix, models, record } from "./records";

const config = { prompts: ["v1", "v2"], models: ["llama-3.3-70b", "mixtral"], inputs: ["tech-talk-01", "interview-02"] };
const base = { batchId: "20251227_143500_matrix", timestamp: "2025-12-27T14:35:00Z", config, durationSeconds: 45.2 };

describe("batchSummary", () => {
  it("writes the spec's keys in the spec's order, then errors and the unpriced counts", () => {
    const summary = batchSummary({ ...base, runs: matrix(["v1", "v2"], [models.llama, models.mixtral], ["tech-talk-01", "interview-02"]) });
    expect(Object.keys(JSON.parse(batchSummaryJson(summary)))).toEqual([
      "batch_id",
      "timestamp",
      "total_runs",
      "successful_runs",
      "failed_runs",
      "total_tokens_input",
      "total_tokens_output",
      "total_cost_usd",
      "duration_seconds",
      "config",
      "runs",
      "errors",
      "unpriced_runs",
      "unpriced_models",
    ]);
    expect(summary.config).toEqual({
      prompts: ["v1", "v2"],
      models: ["llama-3.3-70b", "mixtral"],
      transcripts: ["tech-talk-01", "interview-02"],
    });
    expect(summary.runs[0]).toBe("20251227_143500_v1_llama-3.3-70b_tech-talk-01");
    expect(summary.runs).toHaveLength(8);
  });

  it("adds up tokens and cost, counts failures and lists their errors", () => {
    const runs = [
      record({ tokens: { input: 12_500, output: 850 }, costUsd: 0.0098 }),
      record({ version: "v2", tokens: { input: 12_500, output: 920 }, costUsd: 0.0105 }),
      record({ version: "v3", output: null, error: "Groq answered 500", tokens: { input: null, output: null }, costUsd: null }),
      record({ version: "v4", model: models.echo, tokens: { input: 100, output: 10 }, costUsd: null }),
    ];
    const summary = batchSummary({ ...base, runs });
    expect(summary).toMatchObject({
      total_runs: 4,
      successful_runs: 3,
      failed_runs: 1,
      total_tokens_input: 25_100,
      total_tokens_output: 1_780,
      total_cost_usd: 0.0203,
      duration_seconds: 45.2,
      errors: [{ run_id: "20251227_143500_v3_llama-3.3-70b_tech-talk-01", message: "Groq answered 500" }],
      unpriced_runs: 1,
      unpriced_models: ["mock/echo"],
    });
    expect(runSummaryLines(summary)).toEqual([
      "Batch 20251227_143500_matrix: 3/4 evals succeeded, 1 failed in 45.2s",
      "Tokens: 25,100 input / 1,780 output",
      "Actual cost: $0.0203 (not counting 1 unpriced run: mock/echo)",
    ]);
  });

  it("never calls an all-unpriced batch free", () => {
    const summary = batchSummary({ ...base, runs: [record({ model: models.echo, costUsd: null })] });
    expect(summary.total_cost_usd).toBeNull();
    expect(runSummaryLines(summary)[2]).toBe("Actual cost: unknown");
  });

  it("says the spec's line when every eval failed", () => {
    const runs = Array.from({ length: 12 }, (_, index) =>
      record({ version: `v${index}`, output: null, error: "401 invalid key", costUsd: null }),
    );
    const summary = batchSummary({ ...base, runs });
    expect(summary.successful_runs).toBe(0);
    expect(summary.errors).toHaveLength(12);
    expect(runSummaryLines(summary)[0]).toBe("0/12 evals succeeded. Check batch summary for errors");
    expect(allFailedLine(12)).toBe("0/12 evals succeeded. Check batch summary for errors");
  });

  it("handles an empty batch", () => {
    const summary = batchSummary({ ...base, runs: [], durationSeconds: 0 });
    expect(summary).toMatchObject({
      total_runs: 0,
      successful_runs: 0,
      failed_runs: 0,
      total_tokens_input: 0,
      total_tokens_output: 0,
      total_cost_usd: 0,
      runs: [],
      errors: [],
      unpriced_runs: 0,
    });
    expect(runSummaryLines(summary)).toEqual(["Batch 20251227_143500_matrix: no evals ran"]);
  });
});
