import { describe, expect, it } from "vitest";
import type { ExperimentRow } from "@/lib/api/experiments";
import { experimentOutputHeader, experimentOutputPrefix, experimentOutputRecord } from "@/lib/formats/experiment-output";
import { ExperimentFileError } from "@/lib/formats/experiment-file-error";
import { readExperimentsCsv } from "@/lib/formats/read-experiments-csv";

function row(overrides: Partial<ExperimentRow>): ExperimentRow {
  return {
    number: 1,
    values: [],
    status: "ok",
    inputTokens: 0,
    contextWindow: null,
    outputTokens: 0,
    output: "",
    errorMessage: "",
    warnings: [],
    ...overrides,
  };
}

function fileError(run: () => unknown): ExperimentFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof ExperimentFileError) return error;
    throw error;
  }
  throw new Error("expected an ExperimentFileError");
}

describe("readExperimentsCsv", () => {
  it("reads the spec's example: columns in order, provider and model apart, the rest as variables", () => {
    const table = readExperimentsCsv(
      "provider,model,source,topic\nmock,mock,Wikipedia,AI\nopenrouter,anthropic/claude-sonnet-4,Encyclopedia,ML\n",
      "experiments.csv",
    );
    expect(table.columns).toEqual(["provider", "model", "source", "topic"]);
    expect(table.rows.map((entry) => [entry.number, entry.line, entry.provider, entry.model])).toEqual([
      [1, 2, "mock", "mock"],
      [2, 3, "openrouter", "anthropic/claude-sonnet-4"],
    ]);
    expect(table.rows[1].variables).toEqual({ source: "Encyclopedia", topic: "ML" });
    expect(Object.keys(table.rows[0].variables)).toEqual(["source", "topic"]);
  });

  it("gives a blank cell and a short row no value, but keeps them as empty output values", () => {
    const table = readExperimentsCsv("provider,model,source,topic\nmock,mock,,AI\nmock,mock,Wiki\n", "e.csv");
    expect(table.rows[0].variables).toEqual({ topic: "AI" });
    expect(table.rows[0].allVariables).toEqual({ source: "", topic: "AI" });
    expect(table.rows[1].variables).toEqual({ source: "Wiki" });
    expect(table.rows[1].values).toEqual(["mock", "mock", "Wiki", ""]);
  });

  it("counts rows from 1 but names physical lines, past quoted line breaks and blank lines", () => {
    const table = readExperimentsCsv('provider,model,note\nmock,mock,"two\nlines"\n\nmock,mock,x\n', "e.csv");
    expect(table.rows.map((entry) => [entry.number, entry.line])).toEqual([
      [1, 2],
      [2, 5],
    ]);
    expect(table.rows[0].variables.note).toBe("two\nlines");
  });

  it("refuses a missing required column, naming the file, line 1 and what the header has", () => {
    const error = fileError(() => readExperimentsCsv("provider,source\nmock,x\n", "runs/e.csv"));
    expect(error.message).toBe(
      'runs/e.csv, line 1: the header has no "model" column (it has "provider", "source"). Every experiments CSV needs the columns provider and model, e.g. `provider,model,source`.',
    );
  });

  it("names line and column of a row with too many fields and of an unclosed quote", () => {
    const extra = fileError(() => readExperimentsCsv("provider,model\nmock,mock\nmock,mock,extra\n", "e.csv"));
    expect([extra.line, extra.column]).toEqual([3, 3]);
    expect(extra.message).toMatch(/^e\.csv, line 3, column 3: the line has 3 fields but the header has 2\./);
    const unclosed = fileError(() => readExperimentsCsv('provider,model,note\nmock,mock,"never closed\n', "e.csv"));
    expect([unclosed.line, unclosed.column]).toEqual([2, 3]);
    expect(unclosed.message).toContain("a quoted value is never closed");
  });

  it("refuses an empty file, a nameless column and a column named twice", () => {
    expect(fileError(() => readExperimentsCsv("", "e.csv")).message).toMatch(/^e\.csv: the file is empty\./);
    const nameless = fileError(() => readExperimentsCsv("provider,model,\nmock,mock,x\n", "e.csv"));
    expect([nameless.line, nameless.column]).toEqual([1, 3]);
    const twice = fileError(() => readExperimentsCsv("provider,model,model\n", "e.csv"));
    expect(twice.message).toContain('the column "model" appears twice (columns 2 and 3)');
  });

  it("keeps a __proto__ column a plain variable", () => {
    const table = readExperimentsCsv("provider,model,__proto__\nmock,mock,x\n", "e.csv");
    expect(Object.getOwnPropertyDescriptor(table.rows[0].variables, "__proto__")?.value).toBe("x");
    expect(Object.getPrototypeOf(table.rows[0].variables)).toBe(Object.prototype);
  });
});

describe("experiment output", () => {
  // Written by Python 3's csv.writer for the same records (excel dialect, QUOTE_MINIMAL, CRLF).
  const python =
    "provider,model,source,status,input_tokens,context_window,output_tokens,output,error_message\r\n" +
    'mock,mock,"Wiki, pedia",ok,45,,50,"MOCK RESPONSE\nsaid ""hi""\r\nend",\r\n' +
    "ollama,llama3.2,,warning,3,8192,0,,Variable {{source}} in template has no value in experiment row 2; x\r\n" +
    "a,b, lead,error,0,,0,=1+1,tab\there\r\n";

  it("writes byte for byte what Python's csv module writes, formulas untouched", () => {
    const text =
      experimentOutputHeader(["provider", "model", "source"]) +
      experimentOutputRecord(
        row({ values: ["mock", "mock", "Wiki, pedia"], inputTokens: 45, outputTokens: 50, output: 'MOCK RESPONSE\nsaid "hi"\r\nend' }),
      ) +
      experimentOutputRecord(
        row({
          values: ["ollama", "llama3.2", ""],
          status: "warning",
          inputTokens: 3,
          contextWindow: 8192,
          errorMessage: "Variable {{source}} in template has no value in experiment row 2; x",
        }),
      ) +
      experimentOutputRecord(row({ values: ["a", "b", " lead"], status: "error", output: "=1+1", errorMessage: "tab\there" }));
    expect(text).toBe(python);
  });

  it("writes the finished prefix only: rows after a pending one wait", () => {
    const rows = [
      row({ number: 1, values: ["mock", "mock"] }),
      row({ number: 2, status: "pending" }),
      row({ number: 3, values: ["x", "y"] }),
    ];
    const prefix = experimentOutputPrefix(["provider", "model"], rows);
    expect(prefix.rows).toBe(1);
    expect(prefix.text).toBe(
      "provider,model,status,input_tokens,context_window,output_tokens,output,error_message\r\nmock,mock,ok,0,,0,,\r\n",
    );
    expect(() => experimentOutputRecord(rows[1])).toThrow(/has not finished/);
  });
});
