import { describe, expect, it } from "vitest";
import { draftRunInput } from "@/lib/client/draft-run-input";
import type { DraftColumn } from "@/lib/client/draft-store";

const column = (provider: string, model: string, id = `${provider}/${model}`): DraftColumn => ({
  id,
  provider,
  model,
  runColumn: null,
  params: {},
});
const columns = [column("mock", "fast"), column("judge", "strict")];
const base = { dataset: null, variableCount: 0, columns };

describe("draftRunInput's grading model", () => {
  it("sends the grading model picked on the grader pill with the grader", () => {
    const input = draftRunInput({ ...base, graderId: "g", graderModel: { provider: "judge", model: "strict" } });
    expect(input).toMatchObject({ graderPromptId: "g", graderModel: { provider: "judge", model: "strict" } });
  });

  it("leaves it to the server's default (the first column's model) when none is picked, no column has it, or there is no grader", () => {
    expect(draftRunInput({ ...base, graderId: "g" })).not.toHaveProperty("graderModel");
    expect(draftRunInput({ ...base, graderId: "g", graderModel: { provider: "gone", model: "x" } })).not.toHaveProperty("graderModel");
    expect(draftRunInput({ ...base, graderId: null, graderModel: { provider: "judge", model: "strict" } })).not.toHaveProperty(
      "graderModel",
    );
  });
});
