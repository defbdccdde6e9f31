import { describe, expect, it } from "vitest";
import type { EvalResult, EvalRun } from "@/lib/core/eval/eval-run";
import { compareEvalRuns } from "@/lib/core/eval/stats/compare-eval-runs";

function result(test_case: string, passed: boolean, metrics: Record<string, number>, trial = 1): EvalResult {
  return {
    test_case,
    prompt_name: "p",
    trial,
    system_prompt: "",
    input_text: "",
    output: "",
    metrics,
    passed,
    latency_ms: 1,
    tokens_in: 1,
    tokens_out: 1,
    cost_usd: null,
    error: null,
  };
}

function run(run_id: string, prompt_name: string, results: EvalResult[]): EvalRun {
  return {
    run_id,
    prompt_name,
    model: "mock/echo",
    config: { model: "mock/echo", max_tokens: 1024, temperature: 0, evaluation_threshold: 0.5 },
    started_at: "2026-01-01T00:00:00.000Z",
    completed_at: null,
    results,
    pass_rate: 0,
    avg_latency_ms: 0,
    cost_usd: null,
  };
}

/** Cavo et al. (Fagerland et al. 2017, ch. 8) as two runs of 161 cases, the candidate first. */
function cavoRuns(): { baseline: EvalRun; candidate: EvalRun } {
  const baseline: EvalResult[] = [];
  const candidate: EvalResult[] = [];
  const cells: Array<[number, boolean, boolean]> = [
    [59, true, true],
    [6, false, true],
    [16, true, false],
    [80, false, false],
  ];
  let index = 0;
  for (const [count, baselinePassed, candidatePassed] of cells) {
    for (let n = 0; n < count; n += 1, index += 1) {
      baseline.push(result(`case ${index}`, baselinePassed, { contains: baselinePassed ? 1 : 0 }));
      candidate.push(result(`case ${index}`, candidatePassed, { contains: candidatePassed ? 1 : 0 }));
    }
  }
  // A case only one run has is not paired.
  baseline.push(result("only in the baseline", true, { contains: 1 }));
  return { baseline: run("aaaaaaaa", "v1", baseline), candidate: run("bbbbbbbb", "v2", candidate.reverse()) };
}

describe("compareEvalRuns", () => {
  it("pairs by test case and gives Newcombe's interval, McNemar and the cases needed with one trial", () => {
    const { baseline, candidate } = cavoRuns();
    const comparison = compareEvalRuns(baseline, candidate, { resamples: 2000 });
    expect(comparison.paired_cases).toBe(161);
    expect(comparison.baseline).toEqual({ run_id: "aaaaaaaa", prompt_name: "v1", model: "mock/echo" });
    const passRate = comparison.pass_rate;
    expect(passRate.method).toBe("newcombe");
    expect(passRate.difference).toBeCloseTo(-10 / 161, 12);
    expect(passRate.interval.low).toBeCloseTo(-0.1186, 4);
    expect(passRate.interval.high).toBeCloseTo(-0.0046, 4);
    expect(passRate.discordant).toEqual({ baseline_only: 16, candidate_only: 6 });
    expect(passRate.mcnemar_p_value).toBeCloseTo((2 * 110056) / 4194304, 12);
    // Newcombe's interval excludes 0, but the exact McNemar p is 0.0525: the two disagree at the
    // border, and the verdict takes the one that does not claim a difference.
    expect(passRate.distinguishable).toBe(false);
    expect(passRate.cases_needed).toBe(276);
    expect(passRate.baseline.value).toBeCloseTo(75 / 161, 12);
    expect(passRate.candidate.value).toBeCloseTo(65 / 161, 12);
    expect(passRate.candidate.standard_error).toBeCloseTo(Math.sqrt(((65 / 161) * (96 / 161)) / 161), 12);
    expect(comparison.scores.map((score) => score.metric)).toEqual(["contains"]);
    expect(comparison.scores[0].difference).toBeCloseTo(-10 / 161, 12);
    expect(comparison.scores[0].resamples).toBe(2000);
  });

  it("says not distinguishable for a small difference on few cases", () => {
    const baseline = run("aaaaaaaa", "v1", [
      result("a", true, { contains: 1 }),
      result("b", false, { contains: 0.5 }),
      result("c", true, { contains: 1 }),
    ]);
    const candidate = run("bbbbbbbb", "v2", [
      result("a", true, { contains: 1 }),
      result("b", true, { contains: 1 }),
      result("c", true, { contains: 1 }),
    ]);
    const comparison = compareEvalRuns(baseline, candidate);
    expect(comparison.pass_rate.difference).toBeCloseTo(1 / 3, 12);
    expect(comparison.pass_rate.distinguishable).toBe(false);
    expect(comparison.pass_rate.mcnemar_p_value).toBe(1);
    expect(comparison.scores[0].interval).toEqual({ low: 0, high: 0.5 });
    expect(comparison.scores[0].distinguishable).toBe(false);
  });

  it("with several trials bootstraps per-case pass rates, clusters the errors by case and counts a missing score as 0", () => {
    const baseline = run("aaaaaaaa", "v1", [
      result("a", true, { contains: 1 }, 1),
      result("a", true, { contains: 1 }, 2),
      result("b", false, {}, 1),
      result("b", false, {}, 2),
    ]);
    const candidate = run("bbbbbbbb", "v2", [
      result("a", true, { contains: 1 }, 1),
      result("a", false, { contains: 0 }, 2),
      result("b", true, { contains: 1 }, 1),
      result("b", true, { contains: 1 }, 2),
    ]);
    const comparison = compareEvalRuns(baseline, candidate);
    const passRate = comparison.pass_rate;
    expect(passRate.method).toBe("bootstrap");
    expect(passRate.mcnemar_p_value).toBeNull();
    // per-case differences: a 0.5 - 1 = -0.5, b 1 - 0 = 1
    expect(passRate.difference).toBeCloseTo(0.25, 12);
    expect(passRate.discordant).toEqual({ baseline_only: 1, candidate_only: 1 });
    expect(passRate.interval).toEqual({ low: -0.5, high: 1 });
    expect(passRate.distinguishable).toBe(false);
    // baseline [[1, 1], [0, 0]]: sqrt(2) / 4, clustered
    expect(passRate.baseline.standard_error).toBeCloseTo(Math.SQRT2 / 4, 12);
    expect(comparison.scores[0].baseline.value).toBe(0.5);
    expect(comparison.scores[0].difference).toBeCloseTo(0.25, 12);
  });
});
