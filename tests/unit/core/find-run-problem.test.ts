import { describe, expect, it } from "vitest";
import { findRunProblem } from "@/lib/client/find-run-problem";

describe("findRunProblem", () => {
  it("lets a prompt without variables run without a dataset", () => {
    expect(findRunProblem([], null)).toBeNull();
  });

  it("asks for a dataset when the prompt has variables and none is loaded", () => {
    expect(findRunProblem(["topic"], null)).toEqual({ noDataset: true, generator: ["topic"], grader: null });
  });

  it("lists each prompt variable that is not a header, and allows extra columns", () => {
    expect(findRunProblem(["topic", "tone"], { headers: ["topic", "extra"] })).toEqual({
      noDataset: false,
      generator: ["tone"],
      grader: null,
    });
    expect(findRunProblem(["topic"], { headers: ["topic", "extra", "more"] })).toBeNull();
  });

  it("accepts {{output}} and headers in a grader, and names the grader's other variables", () => {
    const dataset = { headers: ["topic", "audience"] };
    expect(findRunProblem(["topic"], dataset, { name: "Clarity", variables: ["output", "audience"] })).toBeNull();
    expect(findRunProblem(["topic"], dataset, { name: "Clarity", variables: ["output", "rubric", "answer"] })).toEqual({
      noDataset: false,
      generator: [],
      grader: { name: "Clarity", names: ["rubric", "answer"] },
    });
  });

  it("does not accept {{output}} in the generator prompt itself", () => {
    expect(findRunProblem(["output"], { headers: ["topic"] })?.generator).toEqual(["output"]);
  });
});
