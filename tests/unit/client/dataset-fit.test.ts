import { describe, it, expect } from "vitest";
import { datasetFit, graderFit } from "@/lib/client/dataset-fit";

describe("datasetFit", () => {
  it("lists variables no column provides and columns no variable uses", () => {
    expect(datasetFit(["topic", "tone", "audience"], ["audience", "id", "topic", "notes"])).toEqual({
      missing: ["tone"],
      unused: ["id", "notes"],
    });
  });

  it("says nothing when no dataset is loaded", () => {
    expect(datasetFit(["topic"], null)).toEqual({ missing: [], unused: [] });
  });

  it("treats an empty header list as a dataset that provides nothing", () => {
    expect(datasetFit(["topic"], [])).toEqual({ missing: ["topic"], unused: [] });
  });

  it("compares names exactly, case included", () => {
    expect(datasetFit(["Topic"], ["topic"])).toEqual({ missing: ["Topic"], unused: ["topic"] });
  });

  it("lists a repeated variable once", () => {
    expect(datasetFit(["a", "a", "b"], ["b"]).missing).toEqual(["a"]);
  });

  it("marks every column unused when the prompt has no variables", () => {
    expect(datasetFit([], ["x", "y"])).toEqual({ missing: [], unused: ["x", "y"] });
  });
});

describe("graderFit", () => {
  it("counts {{output}} as provided by the generator", () => {
    expect(graderFit(["output", "expected", "rubric"], ["expected", "question"])).toEqual({
      missing: ["rubric"],
      unused: ["question"],
    });
  });

  it("takes another name for the generator's output", () => {
    expect(graderFit(["answer", "output"], ["expected"], "answer")).toEqual({
      missing: ["output"],
      unused: ["expected"],
    });
  });

  it("says nothing when no dataset is loaded", () => {
    expect(graderFit(["expected"], null)).toEqual({ missing: [], unused: [] });
  });
});
