import { describe, expect, it } from "vitest";
import { describeRunProblem, findRunProblem } from "@/lib/core/find-run-problem";

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

describe("describeRunProblem", () => {
  it("names each missing variable, and what to do, as the API's 400 says it", () => {
    expect(describeRunProblem(findRunProblem(["topic", "tone", "audience"], { headers: ["topic", "extra"] })!, ["topic", "extra"])).toBe(
      "The prompt uses {{tone}} and {{audience}}, which are not columns of the dataset. Its columns are: topic, extra. Rename a column or the variable so they match.",
    );
    expect(describeRunProblem(findRunProblem(["topic"], null)!, [])).toBe(
      "The prompt uses {{topic}}, but the run has no dataset or rows. Give a dataset (or rows) with a column for each, or remove them from the prompt.",
    );
    const grader = findRunProblem([], { headers: [] }, { name: "Clarity", variables: ["output", "rubric", "a", "b"] })!;
    expect(describeRunProblem(grader, [])).toBe(
      'The grader "Clarity" uses {{rubric}}, {{a}} and {{b}}, which are neither columns of the dataset nor {{output}}. Its columns are: (none). Rename a column or the variable so they match.',
    );
  });
});
