import { describe, expect, it } from "vitest";
import {
  buildPlan,
  formatProviderConcurrency,
  lineInMessage,
  parseProviderConcurrency,
  promptPreview,
  type LimitsInput,
} from "@/components/batches/build-plan";
import { formatElapsed, formatThroughput } from "@/components/batches/batch-view";

// The /batches builder's plan as the browser makes it from the two files, the range and the limits.

const NO_LIMITS: LimitsInput = { concurrency: "", providerConcurrency: "", budgetUsd: "", budgetMode: "" };
const PROMPTS = { name: "prompts.txt", text: "# food\nramen in steam\n\nsushi on slate\ntacos al pastor\n" };
const MATRIX = {
  name: "matrix.yaml",
  text: `version: 1
defaults:
  n: 1
matrix:
  - provider: mock
    model: mock-image
    size: [256x256, 512x512]
  - provider: openai
    model: gpt-image-1
    size: 1024x1024
    provider_options:
      quality: [low, high]
include:
  - provider: flux
    model: flux-unknown-model
    size: 1024x1024
limits:
  concurrency: 2
  provider_concurrency: {openai: 1}
`,
};

describe("buildPlan", () => {
  it("plans prompts x combinations with the matrix's limits, and says an unknown price as unknown", () => {
    const built = buildPlan({ prompts: PROMPTS, matrix: MATRIX, range: "", limits: NO_LIMITS });
    expect(built.problems).toEqual([]);
    expect(built.prompts.map((prompt) => prompt.id)).toEqual(["p-0001", "p-0002", "p-0003"]);
    expect(
      built.combinations.map((params) => `${params.provider}/${params.size}/${String(params.provider_options.quality ?? "")}`),
    ).toEqual(["mock/256x256/", "mock/512x512/", "openai/1024x1024/low", "openai/1024x1024/high", "flux/1024x1024/"]);
    expect(built.limits).toEqual({ concurrency: 2, providerConcurrency: { openai: 1 }, budgetUsd: null, budgetMode: "estimate" });
    const summary = built.summary!;
    expect(summary.jobs).toBe(15);
    expect(summary.images).toBe(15);
    expect(summary.prompt_count).toBe(3);
    const flux = summary.breakdown.find((row) => row.provider === "flux")!;
    expect(flux.estimated_cost_usd).toBeNull();
    expect(flux.unknown_price_jobs).toBe(3);
    // gpt-image-1 1024x1024 low 0.011 and high from the reference, for 3 prompts; mock costs 0.
    const openai = summary.breakdown.find((row) => row.provider === "openai")!;
    expect(openai.estimated_cost_usd).toBeGreaterThan(0);
    expect(summary.estimated_cost_usd).toBeCloseTo(openai.estimated_cost_usd!, 6);
    expect(built.warnings.some((warning) => warning.includes("without a known price"))).toBe(true);
  });

  it("applies the range filter by position and says when it is malformed or past the end", () => {
    const ranged = buildPlan({ prompts: PROMPTS, matrix: MATRIX, range: "2-3", limits: NO_LIMITS });
    expect(ranged.prompts.map((prompt) => prompt.prompt)).toEqual(["sushi on slate", "tacos al pastor"]);
    expect(ranged.promptTotal).toBe(3);
    expect(ranged.summary!.jobs).toBe(10);
    const bad = buildPlan({ prompts: PROMPTS, matrix: MATRIX, range: "three", limits: NO_LIMITS });
    expect(bad.problems).toEqual([{ file: "range", line: null, message: 'Range "three" is not FROM-TO, e.g. 3-10' }]);
    expect(bad.summary).toBeNull();
    const past = buildPlan({ prompts: PROMPTS, matrix: MATRIX, range: "7-9", limits: NO_LIMITS });
    expect(past.problems[0].message).toContain("starts after the last of 3 prompts");
  });

  it("names a matrix error's line, and still shows the prompts", () => {
    const built = buildPlan({
      prompts: PROMPTS,
      matrix: { name: "matrix.yaml", text: "version: 1\nmatrix:\n  - provider: mock\n    size: [256x256]\n" },
      range: "",
      limits: NO_LIMITS,
    });
    expect(built.problems).toHaveLength(1);
    expect(built.problems[0]).toMatchObject({ file: "matrix", line: 3 });
    expect(built.problems[0].message).toContain("has no model");
    expect(built.prompts).toHaveLength(3);
    expect(built.summary).toBeNull();
  });

  it("names a CSV prompt error's row as its line", () => {
    const built = buildPlan({
      prompts: { name: "prompts.csv", text: 'id,prompt,metadata\na,ramen,"{""x"": 1}"\nb,sushi,not json\n' },
      matrix: MATRIX,
      range: "",
      limits: NO_LIMITS,
    });
    expect(built.problems).toHaveLength(1);
    expect(built.problems[0]).toMatchObject({ file: "prompts", line: 3 });
    expect(built.problems[0].message).toContain('prompts.csv, row 3, key "metadata": not valid JSON');
  });

  it("shows the combinations and warnings before any prompt is loaded", () => {
    const built = buildPlan({ prompts: null, matrix: MATRIX, range: "", limits: NO_LIMITS });
    expect(built.combinations).toHaveLength(5);
    expect(built.summary).toBeNull();
    expect(built.problems).toEqual([]);
  });

  it("takes the person's limits over the matrix's, and refuses malformed ones", () => {
    const built = buildPlan({
      prompts: PROMPTS,
      matrix: MATRIX,
      range: "",
      limits: { concurrency: "5", providerConcurrency: "mock=2, openai=1", budgetUsd: "0.05", budgetMode: "strict" },
    });
    expect(built.limits).toEqual({ concurrency: 5, providerConcurrency: { mock: 2, openai: 1 }, budgetUsd: 0.05, budgetMode: "strict" });
    // strict skips the 3 flux jobs of unknown price; the budget stops the openai highs.
    expect(built.summary!.skipped_unknown_price).toBe(3);
    expect(built.summary!.skipped_for_budget).toBeGreaterThan(0);
    for (const [limits, text] of [
      [{ ...NO_LIMITS, concurrency: "0" }, "Concurrency must be a whole number from 1 to 64."],
      [{ ...NO_LIMITS, concurrency: "2.5" }, "Concurrency must be a whole number from 1 to 64."],
      [{ ...NO_LIMITS, budgetUsd: "-1" }, "Budget must be an amount in USD"],
      [{ ...NO_LIMITS, providerConcurrency: "openai" }, "Provider concurrency:"],
    ] as const) {
      const refused = buildPlan({ prompts: PROMPTS, matrix: MATRIX, range: "", limits });
      expect(refused.summary).toBeNull();
      expect(refused.problems[0].file).toBe("limits");
      expect(refused.problems[0].message).toContain(text);
    }
  });

  it("refuses file names the run folder cannot hold, and names without the format's extension", () => {
    const run = buildPlan({
      prompts: { ...PROMPTS, name: "run.json" },
      matrix: { ...MATRIX, name: "../matrix.yaml" },
      range: "",
      limits: NO_LIMITS,
    });
    expect(run.problems.map((problem) => problem.file)).toEqual(["prompts", "matrix"]);
    expect(run.problems[0].message).toContain("plain file name");
    const ext = buildPlan({ prompts: { ...PROMPTS, name: "prompts.md" }, matrix: MATRIX, range: "", limits: NO_LIMITS });
    expect(ext.problems[0].message).toContain("must end in .txt or .csv");
  });

  it("says an empty prompt file is empty", () => {
    const built = buildPlan({ prompts: { name: "p.txt", text: "# only a comment\n" }, matrix: MATRIX, range: "", limits: NO_LIMITS });
    expect(built.problems[0]).toMatchObject({ file: "prompts" });
    expect(built.problems[0].message).toContain("no prompts");
  });
});

describe("small helpers", () => {
  it("reads a line or row number from a message", () => {
    expect(lineInMessage("matrix.yaml, line 12, at matrix[0]: x")).toBe(12);
    expect(lineInMessage('p.csv, row 3, key "metadata": not valid JSON')).toBe(3);
    expect(lineInMessage("p.txt: 20000 prompts")).toBeNull();
  });

  it("reads and writes provider concurrency as the CLI flag does", () => {
    expect(parseProviderConcurrency("openai=1,gemini=2")).toEqual({ openai: 1, gemini: 2 });
    expect(parseProviderConcurrency(" ")).toEqual({});
    expect(() => parseProviderConcurrency("openai=0")).toThrow("N from 1 to 64");
    expect(() => parseProviderConcurrency("openai=65")).toThrow();
    expect(formatProviderConcurrency({ openai: 1, gemini: 2 })).toBe("openai=1,gemini=2");
  });

  it("previews the first and last prompts with how many are between", () => {
    const list = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(promptPreview(list)).toEqual({ first: [1, 2, 3], last: [8, 9, 10], hidden: 4 });
    expect(promptPreview([1, 2, 3, 4, 5, 6])).toEqual({ first: [1, 2, 3, 4, 5, 6], last: [], hidden: 0 });
  });

  it("formats elapsed time and throughput for the summary panel", () => {
    expect(formatElapsed(0)).toBe("–");
    expect(formatElapsed(0.42)).toBe("0.4 s");
    expect(formatElapsed(12.7)).toBe("12 s");
    expect(formatElapsed(185)).toBe("3 min 05 s");
    expect(formatElapsed(3720)).toBe("1 h 02 min");
    expect(formatThroughput(null)).toBe("–");
    expect(formatThroughput(0.5)).toBe("0.5 jobs/min");
    expect(formatThroughput(12.4)).toBe("12 jobs/min");
  });
});
