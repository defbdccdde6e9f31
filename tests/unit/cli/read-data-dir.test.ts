import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CliError, exitCodes } from "@/cli/cli-error";
import { readDataDir } from "@/cli/matrix/read-data-dir";
import { planMatrix } from "@/lib/core/matrix/plan-matrix";
import { resolveMatrixModel } from "@/lib/core/matrix/model-aliases";

let root: string;
let dataDir: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "matrix-data-"));
  dataDir = path.join(root, "data", "evals");
  mkdirSync(dataDir, { recursive: true });
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(relative: string, text: string): void {
  const file = path.join(dataDir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The CliError readDataDir throws, checked to be a usage error. */
function failure(providerIds?: string[]): string {
  try {
    readDataDir(dataDir, { providerIds });
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(exitCodes.usage);
    return (error as Error).message;
  }
  throw new Error("readDataDir did not fail");
}

const providers = ["groq", "openai", "anthropic"];

describe("readDataDir", () => {
  it("reads prompt versions, inputs from inputs/ and transcripts/, and models.txt into the plan's inputs", () => {
    write("prompts/v1.txt", "Summarize:\n{{input}}");
    write("prompts/v10.md", "# {{input_id}}\n{{transcript}}");
    write("prompts/v2.yaml", "name: summary\nsystem: Be brief.\ntemplate: 'Sum {input_id}: {input}'\n");
    write("prompts/.gitkeep", "");
    write("inputs/tech-talk-01.md", "\uFEFF# Example Tech Talk\n\nSlides.");
    write("transcripts/interview-02.txt", "Q and A");
    write("models.txt", "# Groq\nllama-3.3-70b\n\n  mixtral  \nmock/echo\n");

    const data = readDataDir(dataDir, { providerIds: providers });
    expect(data.prompts.map((prompt) => [prompt.version, prompt.format, prompt.name, prompt.fileName])).toEqual([
      ["v1", "txt", null, "v1.txt"],
      ["v2", "yaml", "summary", "v2.yaml"],
      ["v10", "md", null, "v10.md"],
    ]);
    expect(data.prompts[1]).toMatchObject({ text: "Sum {input_id}: {input}", system: "Be brief." });
    expect(data.prompts[1].fileText).toContain("name: summary");
    expect(data.inputs).toEqual([
      { id: "interview-02", text: "Q and A", fileName: path.join("transcripts", "interview-02.txt") },
      { id: "tech-talk-01", text: "# Example Tech Talk\n\nSlides.", fileName: path.join("inputs", "tech-talk-01.md") },
    ]);
    expect(data.models).toEqual(["llama-3.3-70b", "mixtral", "mock/echo"]);
    expect(data.warnings).toEqual([]);

    const models = data.models!.map((name) => {
      const resolved = resolveMatrixModel(name, providers);
      if (!resolved.ok) throw new Error(resolved.error);
      return resolved.model;
    });
    const plan = planMatrix({ prompts: data.prompts, models, inputs: data.inputs, prices: {} });
    if (!plan.ok) throw new Error(plan.errors.join("\n"));
    expect(plan.tasks).toHaveLength(18);
    expect(plan.tasks[6]).toMatchObject({
      promptVersion: "v2",
      inputId: "interview-02",
      prompt: "Sum interview-02: Q and A",
      inputTitle: "interview-02",
    });
    expect(plan.tasks.find((task) => task.inputId === "tech-talk-01")?.inputTitle).toBe("Example Tech Talk");
  });

  it("answers null models without models.txt, so --models is required", () => {
    write("prompts/v1.txt", "{{input}}");
    write("inputs/a.txt", "a");
    const data = readDataDir(dataDir);
    expect(data.models).toBeNull();
    expect(data.modelsFile).toBe(path.join(dataDir, "models.txt"));
  });

  it("names a missing data folder with what to do", () => {
    rmSync(dataDir, { recursive: true });
    expect(failure()).toBe(
      `Data folder not found: ${dataDir} (${path.resolve(dataDir)}). Create it with prompts/ and inputs/ in it, or give another with --data-dir.`,
    );
  });

  it("names missing or empty prompts and inputs folders, all at once", () => {
    expect(failure().split("\n")).toEqual([
      `No prompts folder: ${path.join(dataDir, "prompts")}. Put one file per prompt version in it: v1.txt or v1.md with {{input}}, or v1.yaml with {input}.`,
      `No inputs folder: ${path.join(dataDir, "inputs")} or ${path.join(dataDir, "transcripts")}. Put one .txt or .md file per input in it; its name is the input id.`,
    ]);
    mkdirSync(path.join(dataDir, "prompts"));
    mkdirSync(path.join(dataDir, "transcripts"));
    write("transcripts/notes.pdf", "%PDF");
    expect(failure().split("\n")).toEqual([
      `No prompt versions in ${path.join(dataDir, "prompts")}: add one file per version (v1.txt, v2.md or v3.yaml).`,
      `No inputs in ${path.join(dataDir, "inputs")} or ${path.join(dataDir, "transcripts")}: add one .txt or .md file per input; its name is the input id.`,
    ]);
  });

  it("names two files of one version or one input id, and a name that cannot be part of a file name", () => {
    write("prompts/v1.txt", "{{input}}");
    write("prompts/v1.md", "{{input}}");
    write("prompts/bad name.txt", "{{input}}");
    write("inputs/a.txt", "a");
    write("transcripts/a.md", "a");
    const message = failure();
    expect(message).toContain(
      `${path.join(dataDir, "prompts", "v1.txt")}: version v1 is also ${path.join(dataDir, "prompts", "v1.md")}; keep one file per version`,
    );
    expect(message).toContain(
      `${path.join(dataDir, "transcripts", "a.md")}: input a is also ${path.join(dataDir, "inputs", "a.txt")}; keep one file per input id`,
    );
    expect(message).toContain(`${path.join(dataDir, "prompts", "bad name.txt")}: the prompt version "bad name" may hold only letters`);
  });

  it("names a YAML prompt's problem with its file and line", () => {
    write("prompts/v1.yaml", "name: summary\ntemplate: 'a } b'\n");
    write("inputs/a.txt", "a");
    expect(failure()).toBe(`${path.join(dataDir, "prompts", "v1.yaml")}, line 2: template: Single '}' encountered in format string`);
  });

  it("names models.txt's wrong lines with their numbers", () => {
    write("prompts/v1.txt", "{{input}}");
    write("inputs/a.txt", "a");
    write("models.txt", "llama-3.3-70b\nllama3\nllama-3.3-70b\ngpt 4\n");
    const file = path.join(dataDir, "models.txt");
    expect(failure(providers).split("\n")).toEqual([
      `${file}, line 2: Model "llama3" has no provider: a bare model name must start with claude- (anthropic), gpt- or o<digit> (openai) or gemini- (gemini); write any other model as provider/model, e.g. mock/echo or ollama/llama3`,
      `${file}, line 3: llama-3.3-70b is already on line 1; name each model once`,
      `${file}, line 4: "gpt 4" has white space in it; write one model per line`,
    ]);
    write("models.txt", "# nothing yet\n\n");
    expect(failure()).toBe(
      `${file} names no model: write one model per line (llama-3.3-70b, mock/echo, claude-sonnet-4-20250514), or delete it and use --models.`,
    );
  });

  it("skips other files with a warning naming them", () => {
    write("prompts/v1.txt", "{{input}}");
    write("prompts/notes.docx", "");
    mkdirSync(path.join(dataDir, "prompts", "old"));
    write("inputs/a.txt", "a");
    write("inputs/a.json", "{}");
    expect(readDataDir(dataDir).warnings).toEqual([
      `Skipped ${path.join(dataDir, "prompts", "notes.docx")}: a prompt version is a .txt, .md or .yaml file`,
      `Skipped ${path.join(dataDir, "prompts", "old")}: a prompt version is a .txt, .md or .yaml file`,
      `Skipped ${path.join(dataDir, "inputs", "a.json")}: an input is a .txt or .md file`,
    ]);
  });
});
