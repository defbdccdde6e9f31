import { describe, expect, it } from "vitest";
import { invalidSubsetMessage, modelsRequiredMessage, selectSubset } from "@/lib/core/matrix/select-subset";

const versions = ["v1", "v2", "v3"];

describe("selectSubset", () => {
  it("selects every one available when the flag is not given", () => {
    expect(selectSubset({ flag: "--prompts", value: undefined, available: versions })).toEqual({ ok: true, names: versions });
  });

  it("selects the named ones in the order given", () => {
    expect(selectSubset({ flag: "--prompts", value: "v3,v1", available: versions })).toEqual({ ok: true, names: ["v3", "v1"] });
    expect(selectSubset({ flag: "--prompts", value: " v1 , v2 ", available: versions })).toEqual({ ok: true, names: ["v1", "v2"] });
  });

  it("gives the spec's message for a malformed --prompts, with what is wrong", () => {
    expect(invalidSubsetMessage("--prompts")).toBe("--prompts must be comma-separated versions (e.g., v1,v2,v3)");
    for (const value of ["", "v1,,v2", "v1,", "v1 v2", "v1,v1"]) {
      const result = selectSubset({ flag: "--prompts", value, available: versions });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.startsWith("--prompts must be comma-separated versions (e.g., v1,v2,v3): ")).toBe(true);
    }
    const empty = selectSubset({ flag: "--prompts", value: "v1,,v2", available: versions });
    expect(empty).toEqual({ ok: false, error: '--prompts must be comma-separated versions (e.g., v1,v2,v3): item 2 of "v1,,v2" is empty' });
  });

  it("gives the same form for --models, --inputs and --transcripts", () => {
    expect(invalidSubsetMessage("--models")).toBe("--models must be comma-separated models (e.g., llama-3.3-70b,mixtral)");
    expect(invalidSubsetMessage("--inputs")).toBe("--inputs must be comma-separated input ids (e.g., tech-talk-01,interview-02)");
    expect(invalidSubsetMessage("--transcripts")).toBe(
      "--transcripts must be comma-separated transcript IDs (e.g., tech-talk-01,interview-02)",
    );
    const result = selectSubset({ flag: "--inputs", value: ",", available: ["a"] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.startsWith(invalidSubsetMessage("--inputs"))).toBe(true);
  });

  it("names an unknown name and what exists", () => {
    expect(selectSubset({ flag: "--prompts", value: "v1,v9", available: versions })).toEqual({
      ok: false,
      error: '--prompts: unknown prompt version "v9"; available: v1, v2, v3',
    });
    expect(selectSubset({ flag: "--transcripts", value: "x,y", available: ["tech-talk-01"] })).toEqual({
      ok: false,
      error: '--transcripts: unknown transcripts "x", "y"; available: tech-talk-01',
    });
  });

  it("accepts a name outside the list when the caller says so (a saved prompt, a model not in models.txt)", () => {
    const savedPrompt = (name: string) => /^.+@v\d+$/.test(name);
    expect(selectSubset({ flag: "--prompts", value: "v1,summary@v3", available: versions, acceptOther: savedPrompt })).toEqual({
      ok: true,
      names: ["v1", "summary@v3"],
    });
    expect(selectSubset({ flag: "--models", value: "mock/echo", available: null, acceptOther: () => true })).toEqual({
      ok: true,
      names: ["mock/echo"],
    });
  });

  it("requires --models when there is no models.txt", () => {
    const message = modelsRequiredMessage("data/evals/models.txt");
    expect(selectSubset({ flag: "--models", value: undefined, available: null, missingListMessage: message })).toEqual({
      ok: false,
      error: message,
    });
    expect(message).toMatch(/^--models is required: there is no data\/evals\/models\.txt/);
  });
});
