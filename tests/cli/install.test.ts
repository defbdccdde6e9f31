import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `npm install -g .` as a user does it, into a prefix of its own so nothing global changes: the
// installed `parallaxr` must work from any directory (the spec's "works from any directory when
// installed"). npm links a folder it installs, so this takes about a second, not a download.

const execFileAsync = promisify(execFile);
const repo = path.resolve(import.meta.dirname, "..", "..");
const prefix = mkdtempSync(path.join(tmpdir(), "parallaxr-prefix-"));
const elsewhere = mkdtempSync(path.join(tmpdir(), "parallaxr-elsewhere-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-install-data-"));
const installed = path.join(prefix, "bin", "parallaxr");
// The tiny GGUF model (../shared/models/README.md beside the repository), for a local model's row.
const modelPath =
  process.env.PARALLAXR_TEST_MODEL ?? path.resolve(import.meta.dirname, "..", "..", "..", "shared", "models", "stories260K.gguf");

// Only what a shell of someone else would have: the installed bin first on PATH, no repository
// settings inherited from the test runner's environment.
const env = {
  PATH: `${path.join(prefix, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  HOME: elsewhere,
  npm_config_cache: path.join(elsewhere, ".npm"),
  npm_config_update_notifier: "false",
  PARALLAXR_DATA_DIR: dataDir,
  PARALLAXR_MODELS_DIR: path.dirname(modelPath),
  PARALLAXR_LLAMA_THREADS: "1",
} as unknown as NodeJS.ProcessEnv;

function shell(command: string, args: string[]) {
  return execFileAsync(command, args, { cwd: elsewhere, env, timeout: 120_000, maxBuffer: 10 * 1024 * 1024 });
}

beforeAll(async () => {
  // No npm on PATH is a failure here, not a skip: the README tells people to install with it.
  await shell("npm", ["install", "--global", repo, "--prefix", prefix, "--no-audit", "--no-fund", "--offline"]);
});

afterAll(() => {
  for (const folder of [prefix, elsewhere, dataDir]) rmSync(folder, { recursive: true, force: true });
});

describe("npm install -g . (into a temporary prefix)", () => {
  it("puts package.json's bin on PATH, pointing at the launcher of this checkout", () => {
    const manifest = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(Object.keys(manifest.bin)).toEqual(["parallaxr", "prompt-eval", "pidcast-eval", "param-forge"]);
    expect(existsSync(installed)).toBe(true);
    expect(realpathSync(installed)).toBe(path.join(realpathSync(repo), manifest.bin.parallaxr));
  });

  it("answers `parallaxr run --help` from a directory outside the repository", async () => {
    const { stdout, stderr } = await shell("parallaxr", ["run", "--help"]);

    expect(stdout).toMatch(/^Usage: parallaxr run \[options\] \[files\.\.\.\]/);
    for (const flag of ["--prompt", "--experiments", "--output", "--context", "--verbose", "--timeout"]) expect(stdout).toContain(flag);
    expect(stderr).toBe("");
  });

  it("runs an experiment there, writing the output in that directory, a local model's context window from its file", async () => {
    writeFileSync(path.join(elsewhere, "prompt.txt"), "Say hello to {{name}}.\n");
    const model = path.basename(modelPath, ".gguf");
    writeFileSync(path.join(elsewhere, "experiments.csv"), `provider,model,name\nmock,mock,Ada\nllama-cpp,${model},Ada\n`);

    const { stdout, stderr } = await shell("parallaxr", ["run", "-p", "prompt.txt", "-e", "experiments.csv", "-o", "out.csv"]);

    expect(stdout).toBe("");
    // no warning or error of ours (llama.cpp prints its own load notes there)
    expect(stderr).not.toMatch(/^\[(WARNING|ERROR)\]/m);
    const output = readFileSync(path.join(elsewhere, "out.csv"), "utf8");
    expect(output).toMatch(
      /^provider,model,name,status,input_tokens,context_window,output_tokens,output,error_message\r\nmock,mock,Ada,ok,\d+,,\d+,"MOCK RESPONSE\n/,
    );
    expect(output).toContain("Say hello to Ada.");
    // stories260K.gguf declares a context length of 2048 (llama.context_length)
    expect(output).toMatch(new RegExp(`\\r\\nllama-cpp,${model},Ada,ok,\\d+,2048,\\d+,`));
  });
});
