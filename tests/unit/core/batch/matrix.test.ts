import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandCombinations, MatrixFileError, matchStoredJobs, parseMatrix, planJobs } from "@/lib/core/batch/matrix";

const SPEC = readFileSync(join(__dirname, "fixtures/spec-matrix.yaml"), "utf8");

/** The spec's example matrix, expanded by hand: model, size, seed, quality, moderation; the last fastest. */
function handExpanded() {
  const jobs: unknown[] = [];
  for (const model of ["gpt-image-1.5", "gpt-image-1-mini"])
    for (const size of ["1024x1024", "1024x1536"])
      for (const seed of [101, 102])
        for (const quality of ["low", "high"]) {
          if (size === "1024x1536" && quality === "low") continue; // the exclude
          jobs.push({
            provider: "openai",
            model,
            size,
            seed,
            n: 1,
            output_format: "jpeg",
            background: null,
            provider_options: { quality, moderation: "low" },
          });
        }
  jobs.push({
    provider: "gemini",
    model: "gemini-2.5-flash-image",
    size: "4:5",
    n: 1,
    output_format: "jpeg",
    background: null,
    provider_options: { image_size: "2K" },
  });
  jobs.push({
    provider: "flux",
    model: "flux-2-flex",
    size: "1024x1024",
    seed: 42,
    n: 1,
    output_format: "jpeg",
    background: null,
    provider_options: { guidance: 5 },
  });
  return jobs;
}

describe("batch matrix schema v1", () => {
  it("keeps size: [4:5] the string 4:5 under YAML 1.2", () => {
    const def = parseMatrix(SPEC, "matrix.yaml");
    expect(def.matrix[1].size).toEqual(["4:5"]);
    const m = parseMatrix("version: 1\nmatrix:\n  - provider: gemini\n    model: g\n    size: 4:5\n", "m.yaml");
    expect(m.matrix[0].size).toBe("4:5");
  });

  it("expands the spec's example exactly as computed by hand, in stable order", () => {
    const def = parseMatrix(SPEC, "matrix.yaml");
    const { combinations, excluded } = expandCombinations(def);
    expect(excluded).toBe(4);
    expect(combinations).toEqual(handExpanded());
    // key order in each job is stable too (what run.json shows)
    expect(Object.keys(combinations[0])).toEqual([
      "provider",
      "model",
      "size",
      "seed",
      "n",
      "output_format",
      "background",
      "provider_options",
    ]);
    expect(def.limits).toEqual({
      concurrency: 3,
      provider_concurrency: { openai: 1, gemini: 2 },
      budget_usd: 10,
      budget_mode: "estimate",
    });
  });

  it("reads the same matrix as JSON", () => {
    const def = parseMatrix(SPEC, "matrix.yaml");
    const fromJson = parseMatrix(JSON.stringify(def), "matrix.json");
    expect(expandCombinations(fromJson).combinations).toEqual(handExpanded());
  });

  it("plans prompt by prompt with ids j-000001... following that order", () => {
    const def = parseMatrix(SPEC, "matrix.yaml");
    const prompts = [
      { id: "p-0001", prompt: "ramen", metadata: {} },
      { id: "p-0002", prompt: "sushi", metadata: {} },
    ];
    const { jobs } = planJobs(prompts, def);
    expect(jobs).toHaveLength(28);
    expect(jobs[0].job_id).toBe("j-000001");
    expect(jobs[13]).toMatchObject({ job_id: "j-000014", prompt_id: "p-0001" });
    expect(jobs[14]).toMatchObject({ job_id: "j-000015", prompt_id: "p-0002", prompt: "sushi" });
    expect(jobs.slice(14).map((j) => j.params)).toEqual(handExpanded());
  });

  it("never excludes include entries, and drops duplicates", () => {
    const text = `version: 1
matrix:
  - provider: mock
    model: m
    seed: [1, 2]
  - provider: mock
    model: m
    seed: [2, 3]
include:
  - { provider: mock, model: m, seed: 1 }
  - { provider: mock, model: m, seed: 9 }
exclude:
  - { seed: 9 }
`;
    const { combinations, duplicates } = expandCombinations(parseMatrix(text, "m.yaml"));
    expect(combinations.map((c) => c.seed)).toEqual([1, 2, 3, 9]);
    expect(duplicates).toBe(2);
  });

  it("defaults fill every job, nested provider_options merged, the block winning", () => {
    const text = `version: 1
defaults: { n: 2, size: 1024x1024, provider_options: { quality: low, moderation: auto } }
matrix:
  - { provider: openai, model: gpt-image-1, provider_options: { quality: [high] } }
include:
  - { provider: mock, model: m, size: 64x64 }
`;
    const { combinations } = expandCombinations(parseMatrix(text, "m.yaml"));
    expect(combinations).toEqual([
      { provider: "openai", model: "gpt-image-1", n: 2, size: "1024x1024", provider_options: { quality: "high", moderation: "auto" } },
      { provider: "mock", model: "m", size: "64x64", n: 2, provider_options: { quality: "low", moderation: "auto" } },
    ]);
  });

  it("names the file, YAML path, line and what to do", () => {
    const noModel = "version: 1\nmatrix:\n  - provider: openai\n    size: [1024x1024]\n";
    expect(() => parseMatrix(noModel, "m.yaml")).toThrow(
      "m.yaml, line 3, at matrix[0]: this block has no model: every job needs a provider and a model",
    );
    const noProvider = "version: 1\nmatrix:\n  - model: x\n";
    expect(() => parseMatrix(noProvider, "m.yaml")).toThrow(/line 3, at matrix\[0\]: this block has no provider/);
    expect(() => parseMatrix("version: 2\nmatrix: []\n", "m.yaml")).toThrow(
      "m.yaml, line 1, at version: unknown schema version 2: this Parallaxr reads version 1",
    );
    expect(() => parseMatrix("matrix: []\n", "m.yaml")).toThrow(/version is missing/);
    const badLimit = "version: 1\nmatrix:\n  - { provider: mock, model: m }\nlimits:\n  budget_mode: lavish\n";
    const e = (() => {
      try {
        parseMatrix(badLimit, "m.yaml");
      } catch (err) {
        return err as MatrixFileError;
      }
    })();
    expect(e).toBeInstanceOf(MatrixFileError);
    expect(e?.line).toBe(5);
    expect(e?.yamlPath).toBe("limits.budget_mode");
    expect(() => parseMatrix("version: 1\nmatrix:\n  - { provider: mock, model: [] }\n", "m.yaml")).toThrow(
      /at matrix\[0\]\.model: an empty list/,
    );
    expect(() => parseMatrix("version: 1\nmatrixx: []\n", "m.yaml")).toThrow(/unknown key "matrixx"/);
    expect(() => parseMatrix("version: 1\nmatrix:\n  - { provider: mock, model: m, seed: {a: 1} }\n", "m.yaml")).toThrow(
      "m.yaml, line 3, at matrix[0].seed: expected a value (text, number, true/false or null) or a list of values: fix this value",
    );
    expect(() => parseMatrix("version: 1\nmatrix:\n  - { provider: mock, model: m, model: x }\n", "m.yaml")).toThrow(
      /line 3: not valid YAML or JSON \(DUPLICATE_KEY\)/,
    );
    expect(() => parseMatrix("version: 1\ndefaults: { n: 0 }\nmatrix:\n  - { provider: mock, model: m }\n", "m.yaml")).toThrow(
      "m.yaml, line 2, at defaults.n: n is the number of images a job makes: a whole number from 1 to 10",
    );
    expect(() => parseMatrix('version: 1\nmatrix:\n  - { provider: mock, model: m, n: [1, "2"] }\n', "m.yaml")).toThrow(
      /line 3, at matrix\[0\]\.n: n is the number of images/,
    );
    expect(() => parseMatrix("version: 1\ninclude:\n  - { provider: 7, model: m }\n", "m.yaml")).toThrow(
      "m.yaml, line 3, at include[0].provider: provider must be a name (text), e.g. openai",
    );
    expect(() => parseMatrix("version: 1\ndefaults: { model: x }\nmatrix:\n  - { provider: mock, model: m }\n", "m.yaml")).toThrow(
      "m.yaml, line 2, at defaults.model: model belongs in each block, not in defaults",
    );
    expect(() => parseMatrix("version: 1\nmatrix: [\n", "m.yaml")).toThrow(/m.yaml, line \d+: not valid YAML/);
  });

  it("checks the job count before expanding anything", () => {
    const huge = `version: 1\nmatrix:\n  - provider: mock\n    model: m\n    seed: [${Array.from({ length: 1000 }, (_, i) => i).join(",")}]\n    size: [${Array.from({ length: 1000 }, (_, i) => `${i}x${i}`).join(",")}]\n`;
    const def = parseMatrix(huge, "m.yaml");
    const started = Date.now();
    expect(() => planJobs([{ id: "p-0001", prompt: "x", metadata: {} }], def)).toThrow(/1000000 jobs, more than the 50000 allowed/);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("excludes by a list of values as any of them, and warns about a rule that matches nothing", () => {
    const text = `version: 1
matrix:
  - provider: mock
    model: m
    seed: [1, 2, 3]
    provider_options:
      style: [a, b]
exclude:
  - { seed: [1, 3], provider_options: { style: a } }
  - { seed: 7 }
`;
    const def = parseMatrix(text, "m.yaml");
    const { combinations } = expandCombinations(def);
    expect(combinations.map((c) => [c.seed, c.provider_options.style])).toEqual([
      [1, "b"],
      [2, "a"],
      [2, "b"],
      [3, "b"],
    ]);
    expect(planJobs([{ id: "p-0001", prompt: "x", metadata: {} }], def).warnings).toEqual(["exclude[1] matches no job"]);
  });

  it("warns about options a provider is not known to take and large plans", () => {
    const def = parseMatrix(SPEC, "matrix.yaml");
    const prompts = Array.from({ length: 100 }, (_, i) => ({ id: `p-${i}`, prompt: `x${i}`, metadata: {} }));
    const { warnings } = planJobs(prompts, def);
    expect(warnings).toContain("1400 jobs: a large run, check the estimated cost first");
    const odd = parseMatrix("version: 1\nmatrix:\n  - { provider: openai, model: x, provider_options: { qualty: [high] } }\n", "m.yaml");
    expect(planJobs([prompts[0]], odd).warnings).toEqual([
      "provider_options.qualty is not an option openai is known to take: passed through as written",
    ]);
  });

  it("matches stored jobs for --resume by id and parameters", () => {
    const def = parseMatrix(SPEC, "matrix.yaml");
    const { jobs } = planJobs([{ id: "p-0001", prompt: "ramen", metadata: {} }], def);
    const stored = jobs.map((j) => ({ ...j, status: "success" }));
    stored[1] = { ...stored[1], params: { ...stored[1].params, seed: 999 } };
    const shuffled = { ...stored[2], params: JSON.parse(JSON.stringify(stored[2].params)) };
    stored[2] = { ...shuffled, params: Object.fromEntries(Object.entries(shuffled.params).reverse()) as typeof shuffled.params };
    const match = matchStoredJobs(stored.slice(0, 13), jobs);
    expect(match.changed).toEqual(["j-000002"]);
    expect(match.matched).toContain("j-000003");
    expect(match.added).toEqual(["j-000014"]);
    expect(match.removed).toEqual([]);
  });
});
