import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { headlessArguments, headlessCommandLine, parseProviderConcurrency, shellQuote, type BatchRunOptions } from "@/cli/batch/options";

/** The words a real POSIX shell splits `line` into (after the command's own two words). */
function shellWords(line: string): string[] {
  const script = `set -- ${line}; shift 2; for a in "$@"; do printf '%s\\0' "$a"; done`;
  const result = spawnSync("sh", ["-c", script], { encoding: "utf8" });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split("\0").slice(0, -1);
}

const base: BatchRunOptions = {
  promptsPath: "prompts.txt",
  matrixPath: "matrix.yaml",
  out: "runs/food_glam_v1",
  dryRun: false,
  resume: false,
};

describe("headlessCommandLine", () => {
  it("writes the spec's primary command as the spec writes it", () => {
    expect(headlessCommandLine(base)).toBe("parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/food_glam_v1");
    expect(headlessCommandLine(base, "param-forge batch-run")).toBe(
      "param-forge batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/food_glam_v1",
    );
  });

  it("writes every limit the builder can set, in the spec's flag order", () => {
    const line = headlessCommandLine({
      ...base,
      concurrency: 4,
      providerConcurrency: { openai: 1, gemini: 2 },
      budgetUsd: 12.5,
      budgetMode: "strict",
      promptRange: "3-10",
      dryRun: true,
    });
    expect(line).toBe(
      "parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/food_glam_v1 --concurrency 4 " +
        "--provider-concurrency openai=1,gemini=2 --budget 12.5 --budget-mode strict --prompt-range 3-10 --dry-run",
    );
  });

  it("leaves out limits the builder left unset, so the matrix's limits apply", () => {
    const line = headlessCommandLine({ ...base, providerConcurrency: {} });
    expect(line).not.toContain("--concurrency");
    expect(line).not.toContain("--provider-concurrency");
    expect(line).not.toContain("--budget");
  });

  it("a resumed run needs only its folder", () => {
    expect(headlessCommandLine({ ...base, resume: true, concurrency: 9 })).toBe("parallaxr batch-run --out runs/food_glam_v1 --resume");
  });

  it("quotes paths so a POSIX shell hands back exactly the same arguments", () => {
    const options: BatchRunOptions = {
      ...base,
      promptsPath: "my prompts/it's $HOME `x`.txt",
      matrixPath: 'm "a"\\b;rm -rf *.yaml',
      out: "",
      budgetUsd: 0.5,
    };
    const line = headlessCommandLine(options);
    expect(shellWords(line)).toEqual(headlessArguments(options));
    expect(shellWords(line)).toEqual([
      "--prompts",
      "my prompts/it's $HOME `x`.txt",
      "--matrix",
      'm "a"\\b;rm -rf *.yaml',
      "--out",
      "",
      "--budget",
      "0.5",
    ]);
  });

  it("shellQuote leaves plain words alone and quotes the rest", () => {
    expect(shellQuote("runs/v1.2_a-b")).toBe("runs/v1.2_a-b");
    expect(shellQuote("a b")).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("")).toBe("''");
  });
});

describe("parseProviderConcurrency", () => {
  it("reads provider=N pairs and round-trips through the command line", () => {
    expect(parseProviderConcurrency("openai=1,gemini=2")).toEqual({ openai: 1, gemini: 2 });
    expect(parseProviderConcurrency(" flux = 3 ")).toEqual({ flux: 3 });
    const args = headlessArguments({ ...base, providerConcurrency: { openai: 1, mock: 8 } });
    expect(parseProviderConcurrency(args[args.indexOf("--provider-concurrency") + 1])).toEqual({ openai: 1, mock: 8 });
  });

  it.each([
    ["openai", '"openai" is not provider=N'],
    ["openai=0", '"openai=0" is not provider=N with N from 1 to 64'],
    ["openai=65", "from 1 to 64"],
    ["openai=1,", '"" is not provider=N'],
    ["openai=1.5", "is not provider=N"],
    ["openai=1,openai=2", "openai is given twice"],
  ])("refuses %j and says why", (text, message) => {
    expect(() => parseProviderConcurrency(text)).toThrow(message);
  });
});
