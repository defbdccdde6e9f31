import { describe, expect, it } from "vitest";
import { parseRunFile, runFileJson, runFileName } from "@/lib/formats/matrix/run-file";
import { models, record } from "./records";

describe("run file", () => {
  it("writes prompt, model, input, output, tokens, cost, duration and error", () => {
    const run = record({ version: "v2", promptName: "summary", durationSeconds: 4.2004 });
    expect(runFileName(run.runId)).toBe("20251227_143500_v2_llama-3.3-70b_tech-talk-01.json");
    expect(JSON.parse(runFileJson(run))).toEqual({
      run_id: "20251227_143500_v2_llama-3.3-70b_tech-talk-01",
      batch_id: "20251227_143500_matrix",
      timestamp: "2025-12-27T14:35:00Z",
      prompt: { version: "v2", name: "summary" },
      model: { name: "llama-3.3-70b", provider: "groq", model: "llama-3.3-70b-versatile" },
      input: { id: "tech-talk-01", title: "Example Tech Talk" },
      output: "Output of v2 by llama-3.3-70b on tech-talk-01",
      tokens: { input: 1000, output: 100 },
      cost_usd: 0.001,
      duration_seconds: 4.2,
      error: null,
    });
    expect(runFileJson(run).endsWith("}\n")).toBe(true);
  });

  it("keeps an unpriced cost and a failed eval's output null", () => {
    const failed = record({
      model: models.echo,
      output: null,
      error: "429 rate limited",
      costUsd: null,
      tokens: { input: null, output: null },
    });
    const json = JSON.parse(runFileJson(failed));
    expect(json).toMatchObject({ output: null, error: "429 rate limited", cost_usd: null, tokens: { input: null, output: null } });
  });

  it("reads a run file back as it was written", () => {
    const run = record({ model: models.mixtral, promptName: "summary" });
    expect(
      parseRunFile(runFileJson(run), "runs/x.json", (model) => (model.name === "mixtral" ? "mixtral-8x7b-32768" : model.name)),
    ).toEqual({
      ok: true,
      record: run,
    });
  });

  it("names the file and the key when a run file is broken", () => {
    expect(parseRunFile("{", "runs/a.json")).toMatchObject({ ok: false, error: expect.stringMatching(/^runs\/a\.json: not JSON/) });
    const broken = JSON.parse(runFileJson(record({})));
    broken.cost_usd = "free";
    delete broken.model;
    expect(parseRunFile(JSON.stringify(broken), "runs/b.json")).toEqual({
      ok: false,
      error:
        'runs/b.json: "model" must be an object; "name" must be a string; "provider" must be a string; "model" must be a string; "cost_usd" must be a number of at least 0, or null; delete it to run this eval again',
    });
  });
});
