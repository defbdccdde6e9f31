import { describe, expect, it } from "vitest";
import { createExperimentSchema, type CreateExperimentInput } from "@/lib/api/experiments";
import * as say from "@/lib/core/experiment-messages";
import { renderTemplate } from "@/lib/core/template";
import { checkExperiment, experimentInputHash } from "@/lib/engine/create-experiment";
import { InvalidInputError } from "@/lib/engine/errors";
import { defaultRunLimits } from "@/lib/engine/run-limits";
import { experimentOutputHeader, experimentOutputRecord } from "@/lib/formats/experiment-output";

// The experiment modules' pure parts (the spec's testing strategy: template present, missing and
// malformed; CSV escaping; invalid CSV; every fixed message), without a database.

function input(experiments: string, extra: Record<string, unknown> = {}): CreateExperimentInput {
  return createExperimentSchema.parse({
    prompt: { name: "prompt.txt", text: "Summarize {{source}} on {{topic}}.\n" },
    experiments: { name: "experiments.csv", text: experiments },
    ...extra,
  });
}

function refusal(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("checkExperiment", () => {
  it("reads the files into the document, the rows and one target per distinct provider/model", () => {
    const checked = checkExperiment(input("provider,model,source,topic\nmock,mock,a,b\nmock,fast,c,d\nmock,mock,e,f\n"));
    expect(checked.document).toBe("## Document: prompt.txt\n\nSummarize {{source}} on {{topic}}.\n\n\n---\n\n");
    expect(checked.targets).toEqual([
      { provider: "mock", model: "mock" },
      { provider: "mock", model: "fast" },
    ]);
    expect(checked.columnOfRow).toEqual([0, 1, 0]);
    expect(checked.config).toMatchObject({ promptFile: "prompt.txt", experimentsFile: "experiments.csv", fromRow: 1 });
  });

  it("refuses a CSV it cannot read, one with no rows, a first row past the end and too many rows, naming the file", () => {
    expect(refusal(() => checkExperiment(input("provider,model\nmock,mock,extra\n"))).message).toMatch(
      /^experiments\.csv, line 2, column 3: /,
    );
    expect(refusal(() => checkExperiment(input("provider,model\n"))).message).toBe(
      "experiments.csv: the file has a header but no experiments. Add one line per experiment below the header.",
    );
    expect(refusal(() => checkExperiment(input("provider,model\nmock,mock\n", { fromRow: 3 }))).message).toBe(
      "experiments.csv has 1 experiments; there is no row 3 to start from.",
    );
    const many = `provider,model\n${"mock,mock\n".repeat(100_001)}`;
    expect(refusal(() => checkExperiment(input(many))).message).toBe(
      "experiments.csv: 100001 experiments; at most 100000 run at once. Split the file.",
    );
    const tight = { ...defaultRunLimits, maxCellsPerRun: 2 };
    expect(() => checkExperiment(input("provider,model\nmock,mock\nmock,mock\nmock,mock\n"), tight)).toThrow(
      "This run would have 3 cells (3 rows x 1 models x 1 trials); the limit is 2 cells per run",
    );
  });

  it("hashes what changes the answers, not the concurrency or the first row", () => {
    const csv = "provider,model\nmock,mock\nmock,mock\n";
    const hash = experimentInputHash(input(csv));
    expect(experimentInputHash(input(csv, { concurrency: 8, fromRow: 2 }))).toBe(hash);
    expect(experimentInputHash(input(csv, { timeoutSeconds: 5 }))).not.toBe(hash);
    expect(experimentInputHash(input(csv, { params: { temperature: 0 } }))).not.toBe(hash);
  });
});

describe("templates of an experiment (present, missing, malformed)", () => {
  it("fills present variables, leaves missing ones with the spec's warning, and leaves malformed braces alone", () => {
    const text = "{{source}} / {{ topic }} / {{missing}} / {{1st}} / {{}} / {source} / {{source / {{{source}}}";
    const rendered = renderTemplate(text, { source: "Wikipedia", topic: "AI" });
    expect(rendered.text).toBe("Wikipedia / AI / {{missing}} / {{1st}} / {{}} / {source} / {{source / {Wikipedia}");
    expect(rendered.missing).toEqual(["missing"]);
    expect(say.missingVariableWarning("missing", 4)).toBe("Variable {{missing}} in template has no value in experiment row 4");
  });
});

describe("the output CSV's escaping (Python's csv module: QUOTE_MINIMAL, \\r\\n between records)", () => {
  it("quotes fields with a comma, a quote or a line break, doubling quotes, and leaves the rest bare", () => {
    expect(experimentOutputHeader(["provider", "model", "a,b"])).toBe(
      'provider,model,"a,b",status,input_tokens,context_window,output_tokens,output,error_message\r\n',
    );
    const line = experimentOutputRecord({
      number: 1,
      values: ["mock", "mock", 'say "hi"'],
      status: "warning",
      inputTokens: 12,
      contextWindow: null,
      outputTokens: 3,
      output: "two\nlines, and \r a return",
      warnings: [],
      errorMessage: "Context window unknown for model mock",
    });
    expect(line).toBe('mock,mock,"say ""hi""",warning,12,,3,"two\nlines, and \r a return",Context window unknown for model mock\r\n');
  });
});

describe("the fixed messages of an experiment row", () => {
  it("words each one as the README's table lists it", () => {
    expect(say.contextWindowUnknown("m")).toBe("Context window unknown for model m");
    expect(say.modelNotFound("m")).toBe("Model m not found or unavailable");
    expect(say.contextOverflow(5000, 4096, "m")).toBe("Input tokens 5000 exceed context window 4096 for model m");
    expect(say.rateLimited("openrouter", "slow down", 7000)).toBe("Rate limited by openrouter: slow down (retry after 7 s)");
    expect(say.rateLimited("openrouter", "slow down", 1500)).toBe("Rate limited by openrouter: slow down (retry after 1.5 s)");
    expect(say.rateLimited("ollama", "busy", null)).toBe("Rate limited by ollama: busy (no retry time given)");
    expect(say.authenticationFailed("openrouter", "OPENROUTER_API_KEY")).toBe(
      "Authentication failed for openrouter: check OPENROUTER_API_KEY in .env or the key saved in Settings -> Keys",
    );
    expect(say.authenticationFailed("ollama", null)).toBe(
      "Authentication failed for ollama: check the provider's base URL and credentials",
    );
    expect(say.missingKey("openrouter", "OPENROUTER_API_KEY")).toBe(
      "Missing API key for openrouter: set OPENROUTER_API_KEY in .env or save one in Settings -> Keys",
    );
    expect(say.missingKey("x", null)).toBe("Missing API key for x: set its key in .env or save one in Settings -> Keys");
    expect(say.timedOut(300)).toBe("Request timed out after 300 seconds");
    expect(say.timedOut(0.25)).toBe("Request timed out after 0.25 seconds");
    expect(say.unknownProvider("nowhere", ["mock", "ollama"])).toBe("Unknown provider nowhere: use one of mock, ollama");
    expect(say.unknownProvider("", ["mock"])).toBe("No provider in this row: use one of mock");
    expect(say.missingModel()).toBe("No model in this row: give the model's identifier in the model column");
    expect(say.apiError("ollama", "connection refused")).toBe("API error from ollama: connection refused");
    expect(say.joinMessages(["a", "b"])).toBe("a; b");
  });
});
