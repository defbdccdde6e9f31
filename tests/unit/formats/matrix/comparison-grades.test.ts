import { describe, expect, it } from "vitest";
import { pairedBootstrapInterval } from "@/lib/core/eval/stats/paired-bootstrap-interval";
import { comparisonGroups, type ComparisonGroup } from "@/lib/formats/matrix/comparison-groups";
import { comparisonMarkdown } from "@/lib/formats/matrix/comparison-markdown";
import type { MatrixGrading, MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";
import { parseRunFile, runFileJson } from "@/lib/formats/matrix/run-file";
import { batchSummary, batchSummaryJson } from "@/lib/formats/matrix/summary-json";
import { parseComparison, textOf } from "./markdown-blocks";
import { models, record } from "./records";

const at = { batchTimestamp: "20251227_143000", timestamp: "2025-12-27T14:30:00Z" };
const INPUTS = Array.from({ length: 10 }, (_, index) => `talk-${String(index + 1).padStart(2, "0")}`);

const graded = (grade: number | null, error: string | null = null): MatrixGrading => ({ by: "grader", grade, error });

/** v1 and v2 on llama over the ten inputs, graded pass (1) on the inputs numbered in each list, fail (0) on the others. */
function passFailBatch(v1Passes: number, v2Passes: number): MatrixRunRecord[] {
  return ["v1", "v2"].flatMap((version) =>
    INPUTS.map((inputId, index) => record({ version, inputId, grading: graded(index < (version === "v1" ? v1Passes : v2Passes) ? 1 : 0) })),
  );
}

function promptGroup(runs: MatrixRunRecord[], inputId = "talk-01"): ComparisonGroup {
  return comparisonGroups({ runs, ...at }).find((group) => group.type === "prompt_comparison" && group.input.id === inputId)!;
}

/** The lines of the paragraph under the title (the comparison's facts and its paired grades). */
function factsOf(markdown: string): string[] {
  return textOf(parseComparison(markdown).blocks[1]).split("\n");
}

/** The facts paragraph of each eval's section, by its heading. */
function sectionFacts(markdown: string): Record<string, string[]> {
  const { blocks } = parseComparison(markdown);
  const sections: Record<string, string[]> = {};
  blocks.forEach((block, index) => {
    if (block.type === "heading" && block.level === 2) sections[textOf(block)] = textOf(blocks[index + 1]).split("\n");
  });
  return sections;
}

describe("comparisons with a grader's grades", () => {
  it("pairs v2 against v1 over the ten inputs: 8 of 10 against 2 of 10 passed, Newcombe's interval and McNemar both decide", () => {
    // Computed by hand: both passed a = 2, v1 only b = 0, v2 only c = 6, neither d = 2. Difference
    // 6/10 = +60 points. Newcombe (method 10): Wilson 95% of 8/10 is 0.4902 to 0.9433 and of 2/10
    // 0.0567 to 0.5098; ad - bc = 4 > n/2 = 5? no: phi = 0, so the interval is
    // 0.6 - sqrt(0.3098^2 + 0.3098^2) = 0.1618 to 0.6 + sqrt(0.1433^2 + 0.1433^2) = 0.8027.
    // Exact McNemar: 2 x (1/2)^6 = 0.03125. Both exclude 0 / reject: v2 higher.
    const group = promptGroup(passFailBatch(2, 8));
    expect(group.paired).toHaveLength(1);
    const [measure] = group.paired![0].grades.measures;
    expect(group.paired![0].grades.pairedInputs).toBe(10);
    expect(measure.measure).toBe("pass rate");
    expect(measure.baseline).toBe(0.2);
    expect(measure.candidate).toBe(0.8);
    expect(measure.difference).toBeCloseTo(0.6, 12);
    expect(measure.interval.low).toBeCloseTo(0.161824, 5);
    expect(measure.interval.high).toBeCloseTo(0.802682, 5);
    expect(measure.mcnemarP).toBeCloseTo(0.03125, 12);
    expect(measure.verdict).toBe("candidate higher");

    const markdown = comparisonMarkdown(group);
    expect(factsOf(markdown)).toEqual([
      "Transcript: talk-01",
      "Model: llama-3.3-70b-versatile",
      "Compared: v1, v2",
      "Pass rate, v2 vs v1: 80% vs 20% over 10 paired inputs; difference +60.0 points, 95% CI +16.2 points to +80.3 points; McNemar p = 0.0313; v2 higher",
    ]);
    // Each eval's grade under its duration.
    expect(sectionFacts(markdown)).toEqual({
      "Version v1": ["Tokens: 1,000 input / 100 output", "Cost: $0.0010", "Duration: 1.5s", "Grade: 1.00"],
      "Version v2": ["Tokens: 1,000 input / 100 output", "Cost: $0.0010", "Duration: 1.5s", "Grade: 1.00"],
    });
    expect(sectionFacts(comparisonMarkdown(promptGroup(passFailBatch(2, 8), "talk-05")))["Version v1"]).toContain("Grade: 0.00");
    // The front matter is the spec's, grades or not.
    expect(parseComparison(markdown).frontMatter).toEqual({
      comparison_type: "prompt_comparison",
      timestamp: "2025-12-27T14:30:00Z",
      transcript: "talk-01",
      model: "llama-3.3-70b-versatile",
      prompts_compared: ["v1", "v2"],
    });
  });

  it("says 'not distinguishable' when the interval excludes 0 but McNemar's exact p is 0.05 or more (5 of 5 discordant one way)", () => {
    // a = 3, b = 0, c = 5, d = 2: +50 points, Newcombe +7.8 to +73.3 points (excludes 0), p = 2 x (1/2)^5 = 0.0625.
    const markdown = comparisonMarkdown(promptGroup(passFailBatch(3, 8)));
    expect(factsOf(markdown)[3]).toBe(
      "Pass rate, v2 vs v1: 80% vs 30% over 10 paired inputs; difference +50.0 points, 95% CI +7.8 points to +73.3 points; McNemar p = 0.0625; not distinguishable",
    );
  });

  it("leaves out inputs a side did not grade (a failed eval, a grader that failed) and shows why in that eval's section", () => {
    const runs = passFailBatch(2, 8).map((run) =>
      run.prompt.version === "v2" && run.input.id === "talk-01"
        ? { ...run, output: null, error: "groq answered 500", grading: graded(null) }
        : run.prompt.version === "v1" && run.input.id === "talk-02"
          ? { ...run, grading: graded(null, "timeout: No answer\nwithin 60 s.") }
          : run,
    );
    const group = promptGroup(runs, "talk-01");
    expect(group.paired![0].grades.pairedInputs).toBe(8);
    // Left: a = 0 (talk-01 and talk-02 gone), b = 0, c = 6, d = 2: 6/8 against 0/8.
    expect(group.paired![0].grades.measures[0]).toMatchObject({ baseline: 0, candidate: 0.75, mcnemarP: expect.closeTo(0.03125, 12) });
    expect(sectionFacts(comparisonMarkdown(group))["Version v2"]).toEqual([
      "Tokens: 1,000 input / 100 output",
      "Cost: $0.0010",
      "Duration: 1.5s",
      "Grade: none (the eval failed)",
    ]);
    expect(sectionFacts(comparisonMarkdown(promptGroup(runs, "talk-02")))["Version v1"]).toEqual([
      "Tokens: 1,000 input / 100 output",
      "Cost: $0.0010",
      "Duration: 1.5s",
      "Grade: none",
      "Grader error: timeout: No answer within 60 s.",
    ]);
  });

  it("compares the mean grade with the paired bootstrap when grades are not all pass or fail (a model comparison)", () => {
    const llamaGrades = [0.5, 0.6, 0.7, 0.4, 0.5, 0.9, 0.3, 0.6, 0.5, 0.8];
    const mixtralGrades = [0.7, 0.8, 0.7, 0.6, 0.9, 0.9, 0.6, 0.7, 0.8, 0.9];
    const runs = INPUTS.flatMap((inputId, index) => [
      record({ inputId, model: models.llama, grading: graded(llamaGrades[index]) }),
      record({ inputId, model: models.mixtral, grading: graded(mixtralGrades[index]) }),
    ]);
    const group = comparisonGroups({ runs, ...at }).find((one) => one.type === "model_comparison" && one.input.id === "talk-01")!;
    // By hand: means 5.8 / 10 = 0.58 and 7.6 / 10 = 0.76; paired differences 0.2, 0.2, 0, 0.2, 0.4, 0, 0.3, 0.1, 0.3, 0.1 average +0.18.
    const [measure] = group.paired![0].grades.measures;
    expect(measure).toMatchObject({ measure: "mean grade", method: "bootstrap", mcnemarP: null });
    expect(measure.baseline).toBeCloseTo(0.58, 12);
    expect(measure.candidate).toBeCloseTo(0.76, 12);
    expect(measure.difference).toBeCloseTo(0.18, 12);
    const differences = mixtralGrades.map((grade, index) => grade - llamaGrades[index]);
    expect(measure.interval).toEqual(pairedBootstrapInterval(differences));
    // Every difference is 0 or more and seven are positive: the interval lies above 0.
    expect(measure.interval.low).toBeGreaterThan(0);
    expect(measure.interval.high).toBeLessThanOrEqual(0.4);
    const low = `+${measure.interval.low.toFixed(2)}`;
    const high = `+${measure.interval.high.toFixed(2)}`;
    expect(factsOf(comparisonMarkdown(group))).toEqual([
      "Transcript: talk-01",
      "Prompt: v1",
      "Compared: llama-3.3-70b-versatile, mixtral-8x7b-32768",
      `Mean grade, mixtral-8x7b-32768 vs llama-3.3-70b-versatile: 0.76 vs 0.58 over 10 paired inputs; difference +0.18, 95% CI ${low} to ${high}; paired bootstrap; mixtral-8x7b-32768 higher`,
    ]);
  });

  it("pairs each later version against the first in a comparison of three", () => {
    const runs = ["v1", "v2", "v10"].flatMap((version) =>
      INPUTS.slice(0, 4).map((inputId) => record({ version, inputId, grading: graded(version === "v1" ? 0 : 1) })),
    );
    const group = promptGroup(runs);
    expect(group.paired!.map((pairing) => `${pairing.candidate} vs ${pairing.baseline}`)).toEqual(["v2 vs v1", "v10 vs v1"]);
    // 4 of 4 against 0 of 4: +100 points; Wilson 95% of 4/4 is 0.5101 to 1 and of 0/4 0 to 0.4899, phi = 0
    // (a margin is 0), so the low end is 1 - sqrt(0.4899^2 + 0.4899^2) = 0.3072; p = 2 x (1/2)^4 = 0.125: not distinguishable.
    expect(factsOf(comparisonMarkdown(group)).slice(3)).toEqual([
      "Pass rate, v2 vs v1: 100% vs 0% over 4 paired inputs; difference +100.0 points, 95% CI +30.7 points to +100.0 points; McNemar p = 0.1250; not distinguishable",
      "Pass rate, v10 vs v1: 100% vs 0% over 4 paired inputs; difference +100.0 points, 95% CI +30.7 points to +100.0 points; McNemar p = 0.1250; not distinguishable",
    ]);
  });

  it("says so when no input was graded on both sides", () => {
    const runs = [record({ version: "v1", grading: graded(1) }), record({ version: "v2", grading: graded(null, "no grade") })];
    expect(factsOf(comparisonMarkdown(promptGroup(runs, "tech-talk-01")))[3]).toBe("Grades, v2 vs v1: no input graded on both sides");
  });
});

describe("comparisons with metrics", () => {
  const metricsGrading = (quality: number | null, passed: boolean): MatrixGrading => ({
    by: "metrics",
    metrics: ["response_length", "quality"],
    scores: quality === null ? { response_length: 1 } : { response_length: 1, quality },
    passed,
    error: quality === null ? "quality: the judge groq/llama-3.1-8b-instant failed (rate_limited: slow down)" : null,
  });

  it("shows each metric's score and the verdict per eval, and pairs the pass rate and each metric's mean score", () => {
    const quality = { v1: [0.5, 0.5, 0.8, 0.4, 0.9, 0.2, 0.6, 0.7, 0.8, 0.3], v2: [0.9, 0.8, 0.8, 0.9, 0.9, 0.7, 0.9, 0.8, 0.9, 0.7] };
    const runs = (["v1", "v2"] as const).flatMap((version) =>
      INPUTS.map((inputId, index) =>
        record({ version, inputId, grading: metricsGrading(quality[version][index], quality[version][index] >= 0.7) }),
      ),
    );
    const group = promptGroup(runs);
    const markdown = comparisonMarkdown(group);
    expect(sectionFacts(markdown)["Version v1"].slice(3)).toEqual(["Scores: response_length 1.00, quality 0.50 (not passed)"]);
    expect(sectionFacts(markdown)["Version v2"].slice(3)).toEqual(["Scores: response_length 1.00, quality 0.90 (passed)"]);
    // Pass rates by hand: v1 passes talk-03, 05, 08, 09 (4 of 10); v2 every one (10 of 10): c = 6, b = 0, p = 0.03125.
    const [passRate, length, judged] = group.paired![0].grades.measures;
    expect(passRate).toMatchObject({
      measure: "pass rate",
      baseline: 0.4,
      candidate: 1,
      mcnemarP: expect.closeTo(0.03125, 12),
      verdict: "candidate higher",
    });
    expect(length).toMatchObject({ measure: "response_length", baseline: 1, candidate: 1, difference: 0, verdict: "not distinguishable" });
    // quality by hand: 5.7 / 10 against 8.3 / 10, +0.26.
    expect(judged.measure).toBe("quality");
    expect(judged.baseline).toBeCloseTo(0.57, 12);
    expect(judged.candidate).toBeCloseTo(0.83, 12);
    expect(judged.difference).toBeCloseTo(0.26, 12);
    const facts = factsOf(markdown);
    expect(facts[3]).toMatch(
      /^Pass rate, v2 vs v1: 100% vs 40% over 10 paired inputs; difference \+60\.0 points, 95% CI \+\d+\.\d points to \+\d+\.\d points; McNemar p = 0\.0313; v2 higher$/,
    );
    expect(facts[4]).toBe(
      "response_length (mean score), v2 vs v1: 1.00 vs 1.00 over 10 paired inputs; difference 0.00, 95% CI 0.00 to 0.00; paired bootstrap; not distinguishable",
    );
    expect(facts[5]).toMatch(
      /^quality \(mean score\), v2 vs v1: 0\.83 vs 0\.57 over 10 paired inputs; difference \+0\.26, 95% CI \+0\.\d\d to \+0\.\d\d; paired bootstrap; v2 higher$/,
    );
  });

  it("names a metric its judge could not score, with the judge's error", () => {
    const runs = [
      record({ version: "v1", grading: metricsGrading(null, false) }),
      record({ version: "v2", grading: metricsGrading(0.9, true) }),
    ];
    expect(sectionFacts(comparisonMarkdown(promptGroup(runs, "tech-talk-01")))["Version v1"].slice(3)).toEqual([
      "Scores: response_length 1.00, quality none (not passed)",
      "Grader error: quality: the judge groq/llama-3.1-8b-instant failed (rate_limited: slow down)",
    ]);
  });
});

describe("grades in the batch's JSON files", () => {
  it("adds 'grading' after the spec's keys of a run file, and reads it back", () => {
    const run = record({ grading: graded(0.75) });
    const text = runFileJson(run);
    expect(Object.keys(JSON.parse(text))).toEqual([
      "run_id",
      "batch_id",
      "timestamp",
      "prompt",
      "model",
      "input",
      "output",
      "tokens",
      "cost_usd",
      "duration_seconds",
      "error",
      "grading",
    ]);
    expect(JSON.parse(text).grading).toEqual({ by: "grader", grade: 0.75, error: null });
    const back = parseRunFile(text, "run.json", () => run.model.label);
    expect(back).toEqual({ ok: true, record: run });
    expect(runFileJson(record({}))).not.toContain("grading");
    const broken = parseRunFile(text.replace('"grade": 0.75', '"grade": 7.5'), "runs/x.json");
    expect(broken).toEqual({ ok: false, error: expect.stringContaining('runs/x.json: "grading" must be') });
  });

  it("adds the batch's grading to summary.json after the spec's keys, and leaves an ungraded batch's as it was", () => {
    const runs = passFailBatch(2, 8).map((run, index) =>
      index === 0 ? { ...run, output: null, error: "failed", grading: graded(null) } : run,
    );
    const config = { prompts: ["v1", "v2"], models: ["llama-3.3-70b"], inputs: INPUTS };
    const summary = batchSummary({ batchId: "20251227_143000_matrix", timestamp: at.timestamp, config, runs, durationSeconds: 3 });
    const keys = Object.keys(JSON.parse(batchSummaryJson(summary)));
    expect(keys.at(-1)).toBe("grading");
    // 19 graded: v1 passes talk-02 (talk-01 failed), v2 talk-01 to talk-08: 9 of 19.
    expect(summary.grading).toEqual({ by: "grader", graded_runs: 19, ungraded_runs: 1, mean_grade: Math.round((9 / 19) * 1e6) / 1e6 });
    const plain = batchSummary({
      batchId: "20251227_143000_matrix",
      timestamp: at.timestamp,
      config,
      runs: runs.map(({ grading: _, ...run }) => run),
      durationSeconds: 3,
    });
    expect(Object.keys(plain)).not.toContain("grading");
  });
});
