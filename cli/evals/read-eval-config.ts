import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { MAX_EVAL_FILE_CHARS } from "@/lib/api/evals";
import { formatConfigProblem, parseEvalConfig } from "@/lib/core/eval/config";
import { parsePromptFile } from "@/lib/core/eval/prompt-file";
import { withoutByteOrderMark } from "@/lib/core/experiment-document";
import { providerFactories } from "@/lib/providers/provider-factories";
import { CliError, exitCodes } from "../cli-error";

/** An eval config as `parallaxr eval` sends it: its text, its name and the prompt files it names. */
export interface EvalConfigFiles {
  /** The config's text. */
  config: string;
  /** The config's path as given on the command line (names it in every message). */
  configName: string;
  /** Each prompt file's text, keyed by the path as the config writes it. */
  files: Record<string, string>;
  /** The config's and prompt files' warnings (unknown keys and the like), each with its file and line. */
  warnings: string[];
}

/**
 * Reads an eval config and every prompt file it names, as specs/eval-config.md's loader does:
 * a missing config is an error with its path, a config or prompt file that does not parse is
 * every problem with its file and line, a prompt file that is not there is the spec's
 * "FileNotFoundError: prompts/xyz.yaml" with the hint that paths are relative to the config
 * file. Each is a usage error (exit 2): nothing has been sent yet.
 */
export function readEvalConfig(file: string, { model }: { model?: string } = {}): EvalConfigFiles {
  const configName = file.length <= 255 ? file : path.basename(file);
  const config = readText(
    file,
    () => `Config file not found: ${file} (${path.resolve(file)}). Check the path; it is relative to ${process.cwd()}.`,
  );
  const parsed = parseEvalConfig(config, { fileName: file, modelOverride: model ?? null, providerIds: Object.keys(providerFactories) });
  const warnings = parsed.warnings.map((problem) => formatConfigProblem(problem, configName));
  if (!parsed.ok) throw new CliError(parsed.errors.map((problem) => formatConfigProblem(problem, configName)).join("\n"), exitCodes.usage);

  const directory = path.dirname(file);
  const files: Record<string, string> = {};
  for (const source of parsed.config.prompts) {
    if (source.kind !== "file" || Object.hasOwn(files, source.path)) continue;
    // Relative to the config file's directory; an absolute path stays itself, as Python's Path / does.
    const where = path.isAbsolute(source.path) ? source.path : path.join(directory, source.path);
    const text = readText(where, () => {
      const place = formatConfigProblem({ message: `FileNotFoundError: ${source.path}`, path: "", line: source.line }, configName);
      return `${place}\nPrompt file paths are relative to the config file's directory (${directory}): looked for ${where}.`;
    });
    const prompt = parsePromptFile(text, { fileName: source.path });
    warnings.push(...prompt.warnings.map((problem) => formatConfigProblem(problem, where)));
    if (!prompt.ok) throw new CliError(prompt.errors.map((problem) => formatConfigProblem(problem, where)).join("\n"), exitCodes.usage);
    files[source.path] = text;
  }
  return { config, configName, files, warnings };
}

/** A file's text as UTF-8 without a BOM; notFound's message when it is not there. */
function readText(file: string, notFound: () => string): string {
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) throw new CliError(`${file} is a directory: give the path of a file.`, exitCodes.usage);
    // UTF-8 takes at least one byte per character: a file over 4x the limit in bytes cannot fit.
    if (stats.size > MAX_EVAL_FILE_CHARS * 4) {
      throw new CliError(
        `${file} is ${stats.size} bytes; a config or prompt file may hold at most ${MAX_EVAL_FILE_CHARS} characters.`,
        exitCodes.usage,
      );
    }
    return withoutByteOrderMark(readFileSync(file, "utf8"));
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new CliError(notFound(), exitCodes.usage);
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}.`, exitCodes.usage);
  }
}
