import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { MAX_FILE_CHARS } from "@/lib/api/experiments";
import { withoutByteOrderMark, type ExperimentFile } from "@/lib/core/experiment-document";
import { CliError, exitCodes } from "../cli-error";

/**
 * Reads one input file of `parallaxr run` as UTF-8 (a BOM removed, newlines untouched), named by
 * its base name as the spec's document wrapper shows it. A file that cannot be read is a usage
 * error naming it and what to do: nothing has been sent yet.
 */
export function readInputFile(file: string, role: "prompt" | "context" | "experiments"): ExperimentFile {
  const where = path.resolve(file);
  let size: number;
  try {
    const stats = statSync(where);
    if (stats.isDirectory()) throw new CliError(`The ${role} file ${file} is a directory: give the path of a file.`, exitCodes.usage);
    size = stats.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "there is no such file" : code === "EACCES" ? "permission denied" : (error as Error).message;
    throw new CliError(
      `Cannot read the ${role} file ${file} (${where}): ${why}. Check the path; it is relative to ${process.cwd()}.`,
      exitCodes.usage,
    );
  }
  // UTF-8 takes at least one byte per character: a file over 4x the limit in bytes cannot fit.
  if (size > MAX_FILE_CHARS * 4) {
    throw new CliError(`The ${role} file ${file} is ${size} bytes; a file may hold at most ${MAX_FILE_CHARS} characters.`, exitCodes.usage);
  }
  let text: string;
  try {
    text = readFileSync(where, "utf8");
  } catch (error) {
    throw new CliError(`Cannot read the ${role} file ${file}: ${(error as Error).message}.`, exitCodes.usage);
  }
  return { name: path.basename(file), text: withoutByteOrderMark(text) };
}
