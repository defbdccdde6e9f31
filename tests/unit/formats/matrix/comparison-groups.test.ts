import { describe, expect, it } from "vitest";
import { comparisonGroups } from "@/lib/formats/matrix/comparison-groups";
import { matrix, models, record } from "./records";

const at = { batchTimestamp: "20251227_143500", timestamp: "2025-12-27T14:35:00Z" };

describe("comparisonGroups", () => {
  it("makes a prompt comparison per input and model and a model comparison per input and prompt", () => {
    const runs = matrix(["v1", "v2"], [models.llama, models.mixtral], ["tech-talk-01", "interview-02"]);
    const groups = comparisonGroups({ runs, ...at });
    expect(groups.map((group) => group.folder)).toEqual([
      "20251227_143500_prompt_interview-02_llama-3.3-70b",
      "20251227_143500_prompt_interview-02_mixtral",
      "20251227_143500_prompt_tech-talk-01_llama-3.3-70b",
      "20251227_143500_prompt_tech-talk-01_mixtral",
      "20251227_143500_model_interview-02_v1",
      "20251227_143500_model_interview-02_v2",
      "20251227_143500_model_tech-talk-01_v1",
      "20251227_143500_model_tech-talk-01_v2",
    ]);
    for (const group of groups) {
      expect(group.runs).toHaveLength(2);
      if (group.type === "prompt_comparison") {
        expect(new Set(group.runs.map((run) => `${run.input.id}|${run.model.name}`)).size).toBe(1);
        expect(group.runs.map((run) => run.prompt.version)).toEqual(["v1", "v2"]);
        expect(group.model?.name).toBe(group.runs[0].model.name);
      } else {
        expect(new Set(group.runs.map((run) => `${run.input.id}|${run.prompt.version}`)).size).toBe(1);
        expect(group.runs.map((run) => run.model.name)).toEqual(["llama-3.3-70b", "mixtral"]);
        expect(group.prompt?.version).toBe(group.runs[0].prompt.version);
      }
    }
    // Every eval is in one prompt comparison and one model comparison.
    const prompts = groups.filter((group) => group.type === "prompt_comparison").flatMap((group) => group.runs.map((run) => run.runId));
    const modelGroups = groups.filter((group) => group.type === "model_comparison").flatMap((group) => group.runs.map((run) => run.runId));
    expect(prompts.sort()).toEqual(runs.map((run) => run.runId).sort());
    expect(modelGroups.sort()).toEqual(runs.map((run) => run.runId).sort());
  });

  it("makes no comparison of one", () => {
    expect(comparisonGroups({ runs: matrix(["v1"], [models.llama], ["a", "b"]), ...at })).toEqual([]);
    const onlyPrompts = comparisonGroups({ runs: matrix(["v1", "v2", "v10"], [models.llama], ["a"]), ...at });
    expect(onlyPrompts.map((group) => group.type)).toEqual(["prompt_comparison"]);
    expect(onlyPrompts[0].runs.map((run) => run.prompt.version)).toEqual(["v1", "v2", "v10"]);
  });

  it("handles an empty batch", () => {
    expect(comparisonGroups({ runs: [], ...at })).toEqual([]);
  });

  it("keeps a failed eval in its groups", () => {
    const runs = [record({ version: "v1" }), record({ version: "v2", output: null, error: "timeout" })];
    expect(comparisonGroups({ runs, ...at })[0].runs.map((run) => run.error)).toEqual([null, "timeout"]);
  });

  it("gives two groups that would meet on one folder name different folders", () => {
    const slashed = { name: "groq/x", provider: "groq", model: "x", label: "groq/x" };
    const dashed = { name: "groq-x", provider: "openrouter", model: "groq-x", label: "groq-x" };
    const runs = [
      ...matrix(["v1", "v2"], [slashed, dashed], ["t"]),
      // input a_b with model c, and input a with model b_c: both "..._prompt_a_b_c".
      ...matrix(["v1", "v2"], [{ name: "c", provider: "mock", model: "c", label: "c" }], ["a_b"]),
      ...matrix(["v1", "v2"], [{ name: "b_c", provider: "mock", model: "b_c", label: "b_c" }], ["a"]),
    ];
    const folders = comparisonGroups({ runs, ...at }).map((group) => group.folder);
    expect(new Set(folders).size).toBe(folders.length);
    expect(folders).toContain("20251227_143500_prompt_t_groq-x");
    expect(folders).toContain("20251227_143500_prompt_t_groq-x-2");
    expect(folders).toContain("20251227_143500_prompt_a_b_c");
    expect(folders).toContain("20251227_143500_prompt_a_b_c-2");
  });
});
