/**
 * The data folder of `parallaxr matrix` (specs/matrix-comparisons.md; default `data/evals/`,
 * relative to the current directory):
 *
 *   prompts/      one file per prompt version, its name the version: v1.txt and v2.md are
 *                 templates with {{input}}, v3.yaml a prompt of the eval spec with {input}
 *   inputs/       one .txt or .md file per input, its name the id (tech-talk-01.md)
 *   transcripts/  the same, the spec's name for inputs; both folders are read
 *   models.txt    every model, one per line (blank lines and lines starting with # skipped)
 *
 * Problems name their file (and line, for models.txt and a .yaml prompt) and say what to do;
 * all of them are reported at once, as a usage error (exit 2), before anything is planned.
 * Files of other kinds are skipped with a warning naming them (dotfiles such as .gitkeep
 * silently), never read as something they are not.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { MATRIX_NAME_PATTERN, MAX_MATRIX_FILE_CHARS, MAX_MATRIX_INPUTS, MAX_MATRIX_PROMPTS } from "@/lib/api/matrix";
import { formatConfigProblem } from "@/lib/core/eval/config";
import { parsePromptFile } from "@/lib/core/eval/prompt-file";
import { withoutByteOrderMark } from "@/lib/core/experiment-document";
import { resolveMatrixModel } from "@/lib/core/matrix/model-aliases";
import type { MatrixInput, MatrixPromptVersion, PromptFormat } from "@/lib/core/matrix/plan-matrix";
import { compareNames } from "@/lib/formats/matrix/comparison-groups";
import { CliError, exitCodes } from "../cli-error";

/** The default data folder, relative to the current directory. */
export const DEFAULT_DATA_DIR = path.join("data", "evals");

/** A prompt version read from prompts/: what the plan needs, and the file as it is (for a server). */
export interface PromptVersionFile extends MatrixPromptVersion {
  /** The file's name (v1.txt). */
  fileName: string;
  /** The file's whole text (a .yaml prompt's YAML, not only its template). */
  fileText: string;
}

/** An input read from inputs/ or transcripts/. */
export interface InputFile extends MatrixInput {
  /** The file's path relative to the data folder (inputs/tech-talk-01.md). */
  fileName: string;
}

/** What the data folder holds. */
export interface MatrixDataDir {
  /** The data folder as given. */
  dataDir: string;
  /** Sorted by version, numbers as numbers (v2 before v10). */
  prompts: PromptVersionFile[];
  /** Sorted by id, numbers as numbers. */
  inputs: InputFile[];
  /** models.txt's models in the file's order; null when there is no models.txt (then --models is required). */
  models: string[] | null;
  /** models.txt's path, for the message that --models is required. */
  modelsFile: string;
  /** Files skipped, each naming the file and why. */
  warnings: string[];
}

const PROMPT_FORMATS: Record<string, PromptFormat> = { ".txt": "txt", ".md": "md", ".yaml": "yaml", ".yml": "yaml" };
const INPUT_EXTENSIONS = new Set([".txt", ".md"]);

/**
 * Reads the data folder. providerIds, when given, checks each model of models.txt as the matrix
 * will route it, so a wrong line is named with its line number before anything runs. With
 * promptsOptional (every prompt version asked for is one saved in the app, name@vN), a data
 * folder without prompts/ is no problem.
 */
export function readDataDir(
  dataDir: string,
  { providerIds, promptsOptional = false }: { providerIds?: readonly string[]; promptsOptional?: boolean } = {},
): MatrixDataDir {
  const problems: string[] = [];
  const warnings: string[] = [];
  if (!isDirectory(dataDir)) {
    throw new CliError(
      `Data folder not found: ${dataDir} (${path.resolve(dataDir)}). Create it with prompts/ and inputs/ in it, or give another with --data-dir.`,
      exitCodes.usage,
    );
  }
  const prompts = promptsOptional && !isDirectory(path.join(dataDir, "prompts")) ? [] : readPrompts(dataDir, problems, warnings);
  const inputs = readInputs(dataDir, problems, warnings);
  const modelsFile = path.join(dataDir, "models.txt");
  const models = readModels(modelsFile, providerIds, problems);
  if (problems.length > 0) throw new CliError(problems.join("\n"), exitCodes.usage);
  return { dataDir, prompts, inputs, models, modelsFile, warnings };
}

function readPrompts(dataDir: string, problems: string[], warnings: string[]): PromptVersionFile[] {
  const folder = path.join(dataDir, "prompts");
  const entries = listFolder(folder, problems);
  if (entries === null) {
    problems.push(
      `No prompts folder: ${folder}. Put one file per prompt version in it: v1.txt or v1.md with {{input}}, or v1.yaml with {input}.`,
    );
    return [];
  }
  const prompts: PromptVersionFile[] = [];
  const byVersion = new Map<string, string>();
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    const extension = path.extname(entry.name).toLowerCase();
    const format = PROMPT_FORMATS[extension];
    if (!entry.isFile() || !format) {
      warnings.push(`Skipped ${file}: a prompt version is a .txt, .md or .yaml file`);
      continue;
    }
    const version = entry.name.slice(0, -extension.length);
    if (!checkName(version, file, "prompt version", problems)) continue;
    const earlier = byVersion.get(version);
    if (earlier) {
      problems.push(`${file}: version ${version} is also ${earlier}; keep one file per version`);
      continue;
    }
    byVersion.set(version, file);
    const fileText = readText(file, problems);
    if (fileText === null) continue;
    if (format !== "yaml") {
      prompts.push({ version, name: null, format, text: fileText, system: null, fileName: entry.name, fileText });
      continue;
    }
    const parsed = parsePromptFile(fileText, { fileName: entry.name });
    warnings.push(...parsed.warnings.map((problem) => formatConfigProblem(problem, file)));
    if (!parsed.ok) {
      problems.push(...parsed.errors.map((problem) => formatConfigProblem(problem, file)));
      continue;
    }
    const { prompt } = parsed;
    prompts.push({ version, name: prompt.name, format, text: prompt.template, system: prompt.system, fileName: entry.name, fileText });
  }
  if (byVersion.size === 0 && !problems.some((problem) => problem.startsWith(folder))) {
    problems.push(`No prompt versions in ${folder}: add one file per version (v1.txt, v2.md or v3.yaml).`);
  }
  if (prompts.length > MAX_MATRIX_PROMPTS) {
    problems.push(
      `${folder} holds ${prompts.length} prompt versions; a matrix may have at most ${MAX_MATRIX_PROMPTS}. Move some elsewhere.`,
    );
  }
  return prompts.sort((a, b) => compareNames(a.version, b.version));
}

function readInputs(dataDir: string, problems: string[], warnings: string[]): InputFile[] {
  const inputs: InputFile[] = [];
  const byId = new Map<string, string>();
  let foldersFound = 0;
  for (const folderName of ["inputs", "transcripts"]) {
    const folder = path.join(dataDir, folderName);
    const entries = listFolder(folder, problems);
    if (entries === null) continue;
    foldersFound += 1;
    for (const entry of entries) {
      const file = path.join(folder, entry.name);
      const extension = path.extname(entry.name).toLowerCase();
      if (!entry.isFile() || !INPUT_EXTENSIONS.has(extension)) {
        warnings.push(`Skipped ${file}: an input is a .txt or .md file`);
        continue;
      }
      const id = entry.name.slice(0, -extension.length);
      if (!checkName(id, file, "input id", problems)) continue;
      const earlier = byId.get(id);
      if (earlier) {
        problems.push(`${file}: input ${id} is also ${earlier}; keep one file per input id`);
        continue;
      }
      byId.set(id, file);
      const text = readText(file, problems);
      if (text !== null) inputs.push({ id, text, fileName: path.join(folderName, entry.name) });
    }
  }
  const folders = `${path.join(dataDir, "inputs")} or ${path.join(dataDir, "transcripts")}`;
  if (foldersFound === 0)
    problems.push(`No inputs folder: ${folders}. Put one .txt or .md file per input in it; its name is the input id.`);
  else if (byId.size === 0) problems.push(`No inputs in ${folders}: add one .txt or .md file per input; its name is the input id.`);
  if (inputs.length > MAX_MATRIX_INPUTS) {
    problems.push(`${folders} hold ${inputs.length} inputs; a matrix may have at most ${MAX_MATRIX_INPUTS}. Move some elsewhere.`);
  }
  return inputs.sort((a, b) => compareNames(a.id, b.id));
}

function readModels(file: string, providerIds: readonly string[] | undefined, problems: string[]): string[] | null {
  try {
    if (statSync(file).isDirectory()) {
      problems.push(`${file} is a folder: models.txt is a file with one model per line.`);
      return null;
    }
  } catch (error) {
    if (isMissing(error)) return null;
    problems.push(`Cannot read ${file}: ${(error as Error).message}.`);
    return null;
  }
  const text = readText(file, problems);
  if (text === null) return null;
  const models: string[] = [];
  const lineOf = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const name = raw.trim();
    if (name === "" || name.startsWith("#")) return;
    const where = `${file}, line ${line}`;
    if (/\s/.test(name)) {
      problems.push(`${where}: "${name}" has white space in it; write one model per line`);
      return;
    }
    const earlier = lineOf.get(name);
    if (earlier !== undefined) {
      problems.push(`${where}: ${name} is already on line ${earlier}; name each model once`);
      return;
    }
    if (providerIds) {
      const resolved = resolveMatrixModel(name, providerIds);
      if (!resolved.ok) {
        problems.push(`${where}: ${resolved.error}`);
        return;
      }
    }
    lineOf.set(name, line);
    models.push(name);
  });
  if (models.length === 0 && !problems.some((problem) => problem.startsWith(file))) {
    problems.push(
      `${file} names no model: write one model per line (llama-3.3-70b, mock/echo, claude-sonnet-4-20250514), or delete it and use --models.`,
    );
  }
  return models;
}

/** The folder's entries sorted by name, hidden ones left out; null when there is no such folder. */
function listFolder(folder: string, problems: string[]): Dirent[] | null {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith("."))
      .sort((a, b) => compareNames(a.name, b.name));
  } catch (error) {
    if (isMissing(error)) return null;
    const code = (error as NodeJS.ErrnoException).code;
    problems.push(
      code === "ENOTDIR" ? `${folder} is a file; it should be a folder.` : `Cannot read ${folder}: ${(error as Error).message}.`,
    );
    return null;
  }
}

function checkName(name: string, file: string, what: string, problems: string[]): boolean {
  if (MATRIX_NAME_PATTERN.test(name) && name.length <= 200) return true;
  problems.push(
    `${file}: the ${what} "${name}" may hold only letters, digits, ".", "_", "-" and "@", starting with a letter or digit (it becomes part of file names); rename the file`,
  );
  return false;
}

/** A file's text as UTF-8 without a BOM, or null after naming the problem. */
function readText(file: string, problems: string[]): string | null {
  try {
    // UTF-8 takes at least one byte per character: a file over 4x the limit in bytes cannot fit.
    const { size } = statSync(file);
    if (size > MAX_MATRIX_FILE_CHARS * 4) {
      problems.push(`${file} is ${size} bytes; a prompt or input file may hold at most ${MAX_MATRIX_FILE_CHARS} characters.`);
      return null;
    }
    const text = withoutByteOrderMark(readFileSync(file, "utf8"));
    if (text.length > MAX_MATRIX_FILE_CHARS) {
      problems.push(`${file} holds ${text.length} characters; a prompt or input file may hold at most ${MAX_MATRIX_FILE_CHARS}.`);
      return null;
    }
    return text;
  } catch (error) {
    problems.push(`Cannot read ${file}: ${(error as Error).message}.`);
    return null;
  }
}

function isDirectory(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT";
}
