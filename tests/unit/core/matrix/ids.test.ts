import { describe, expect, it } from "vitest";
import {
  batchId,
  batchTimestampOf,
  idPart,
  idTimestamp,
  modelComparisonFolder,
  promptComparisonFolder,
  runId,
} from "@/lib/core/matrix/ids";

const at = new Date("2025-12-27T14:35:00Z");

describe("matrix ids", () => {
  it("writes the batch id of the spec from a UTC date", () => {
    expect(batchId(at)).toBe("20251227_143500_matrix");
    // Midnight UTC is the same id whatever the machine's zone: getUTC* only.
    expect(batchId(new Date("2026-01-02T00:00:09Z"))).toBe("20260102_000009_matrix");
    expect(idTimestamp(new Date("2025-03-04T05:06:07.890Z"))).toBe("20250304_050607");
  });

  it("reads the timestamp back from a batch id and refuses anything else", () => {
    expect(batchTimestampOf("20251227_143500_matrix")).toBe("20251227_143500");
    expect(batchTimestampOf("20251227_143500_v1")).toBeNull();
    expect(batchTimestampOf("../20251227_143500_matrix")).toBeNull();
  });

  it("writes the run id of the spec: start time, prompt version, model, input", () => {
    expect(runId({ startedAt: at, promptVersion: "v1", model: "llama-3.3-70b", inputId: "tech-talk-01" })).toBe(
      "20251227_143500_v1_llama-3.3-70b_tech-talk-01",
    );
    expect(
      runId({ startedAt: new Date("2025-12-27T14:35:02Z"), promptVersion: "v1", model: "llama-3.3-70b", inputId: "interview-02" }),
    ).toBe("20251227_143502_v1_llama-3.3-70b_interview-02");
  });

  it("writes a / in a model id as -", () => {
    expect(runId({ startedAt: at, promptVersion: "v2", model: "groq/llama-3.3-70b-versatile", inputId: "t" })).toBe(
      "20251227_143500_v2_groq-llama-3.3-70b-versatile_t",
    );
    expect(runId({ startedAt: at, promptVersion: "v2", model: "openrouter/meta-llama/llama-3-8b", inputId: "t" })).not.toContain("/");
    expect(idPart("a\\b/c")).toBe("a-b-c");
  });

  it("names comparison folders with both grouping keys", () => {
    expect(promptComparisonFolder({ batchTimestamp: "20251227_143500", inputId: "tech-talk-01", model: "llama-3.3-70b" })).toBe(
      "20251227_143500_prompt_tech-talk-01_llama-3.3-70b",
    );
    expect(modelComparisonFolder({ batchTimestamp: "20251227_143500", inputId: "interview-02", promptVersion: "v1" })).toBe(
      "20251227_143500_model_interview-02_v1",
    );
    expect(promptComparisonFolder({ batchTimestamp: "20251227_143500", inputId: "t", model: "mock/echo" })).toBe(
      "20251227_143500_prompt_t_mock-echo",
    );
  });
});
