import { describe, expect, it } from "vitest";
import { validateOutput } from "@/lib/core/expected-output";
import { parseGrade } from "@/lib/core/parse-grade";
import { createMockProvider } from "@/lib/providers/mock-provider";
import type { TextGenerateRequest } from "@/lib/providers/types";

const mock = createMockProvider();
const FORM = { response: true, json: false };

async function answer(request: Partial<TextGenerateRequest> & { prompt: string }): Promise<string> {
  const result = await mock.generate({ model: "fast", params: {}, variables: {}, signal: new AbortController().signal, ...request });
  return result.text;
}

async function gradeOf(request: Partial<TextGenerateRequest> & { prompt: string }): Promise<number | null> {
  const validation = validateOutput(await answer({ purpose: "grade", ...request }), FORM);
  return validation.ok ? parseGrade(validation.parsed) : null;
}

describe("the mock as a grader", () => {
  const grader = "Grade this: {{output}}. Give a grade from 0 to 1 inside <response></response>.";

  it("fills an empty <response></response> form with a grade it says is made up", async () => {
    const text = await answer({ purpose: "grade", prompt: grader.replace("{{output}}", "tides"), variables: { output: "tides" } });
    expect(text).toMatch(/\n--- Mock grade \(made up\) ---\n<response>(0|1)\.\d<\/response>$/);
    expect(await gradeOf({ prompt: grader.replace("{{output}}", "tides"), variables: { output: "tides" } })).not.toBeNull();
  });

  it("grades the same question the same way, and different answers and models differently", async () => {
    const ask = (output: string, model = "fast") => gradeOf({ model, prompt: grader.replace("{{output}}", output), variables: { output } });
    expect(await ask("tides")).toBe(await ask("tides"));
    const outputs = ["tides", "rain", "fog", "hail", "snow", "wind", "frost", "dew"];
    const grades = await Promise.all(outputs.map((output) => ask(output)));
    expect(new Set(grades).size).toBeGreaterThan(3);
    const byModel = await Promise.all(outputs.map((output) => ask(output, "echo")));
    expect(byModel).not.toEqual(grades);
  });

  it("echoes a form the prompt fills itself, and answers a generator's empty form with the echo alone", async () => {
    expect(await gradeOf({ prompt: "Judge: fine.\n<response>0.5</response>" })).toBe(0.5);
    const generated = await answer({ prompt: "Describe fog inside <response></response>." });
    expect(generated).not.toContain("Mock grade");
    expect(validateOutput(generated, FORM)).toEqual({ ok: true, parsed: "" });
  });
});
