/**
 * Writes a batch's files into the data folder (specs/matrix-comparisons.md's layout) from the
 * zip the API downloads, so the files on disk are the API's bytes:
 *
 *   runs/{run_id}.json                   as each eval finishes
 *   batches/{batch_id}/summary.json      after the batch (and on every --resume)
 *   comparisons/{folder}/comparison.md   after the batch
 *   comparisons/index.md                 rebuilt from every comparison.md in comparisons/, so
 *                                        earlier batches stay listed; with one batch in the folder
 *                                        it is the zip's index byte for byte
 *
 * A zip from a server is not trusted for its names: only these shapes are written, each one
 * path segment per part, never a dotfile or `..`; anything else is skipped with a warning.
 */
import { processIsAlive } from "@/lib/db/data-folder-lock";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { strFromU8 } from "fflate";
import { COMPARISON_FILE_NAME } from "@/lib/formats/matrix/comparison-markdown";
import { comparisonEntryFromMarkdown, indexMarkdown, type ComparisonIndexEntry } from "@/lib/formats/matrix/index-markdown";

/** A plain file or folder name: no separator, not hidden, not `..`. */
function plainName(name: string): boolean {
  return name !== "" && !name.startsWith(".") && !/[/\\]/.test(name) && !/\p{Cc}/u.test(name);
}

/** What a zip entry is, or null when it is not one of the batch folder's files. */
export function batchEntryKind(entry: string): "run" | "summary" | "comparison" | "index" | null {
  const parts = entry.split("/");
  if (parts.length === 2 && parts[0] === "runs" && parts[1].endsWith(".json") && plainName(parts[1])) return "run";
  if (parts.length === 3 && parts[0] === "batches" && /^\d{8}_\d{6}_matrix$/.test(parts[1]) && parts[2] === "summary.json")
    return "summary";
  if (parts.length === 2 && parts[0] === "comparisons" && parts[1] === "index.md") return "index";
  if (parts.length === 3 && parts[0] === "comparisons" && plainName(parts[1]) && parts[2] === COMPARISON_FILE_NAME) return "comparison";
  return null;
}

/** Writes a file whole: to a temporary name beside it, then renamed, so a reader (or a kill) never sees half a file. */
function writeWhole(file: string, bytes: Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}

/**
 * Removes the temporary files (`.{name}.{pid}.tmp`) that a process killed between writing one and
 * renaming it left in folder: the file it was writing is written again whole, under its own name.
 */
function removeLeftoverTemporaries(folder: string): void {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)) {
    const pid = /^\..+\.(\d+)\.tmp$/.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !processIsAlive(Number(pid))) rmSync(path.join(folder, name), { force: true });
  }
}

/** The run files of the zip not written yet (by this process: names in `written`); answers the paths it wrote. */
export function writeRunFiles(dataDir: string, files: Record<string, Uint8Array>, written: Set<string>): string[] {
  removeLeftoverTemporaries(path.join(dataDir, "runs"));
  const paths: string[] = [];
  for (const [entry, bytes] of Object.entries(files)) {
    if (batchEntryKind(entry) !== "run" || written.has(entry)) continue;
    const file = path.join(dataDir, ...entry.split("/"));
    writeWhole(file, bytes);
    written.add(entry);
    paths.push(file);
  }
  return paths;
}

/** What writing the whole batch folder wrote. */
export interface BatchFolderPaths {
  summary: string | null;
  comparisons: string[];
  index: string | null;
  skipped: string[];
}

/**
 * Every file of the zip (the run files too, in case one was missed), then the index rebuilt from
 * the comparisons folder. withComparisons false (--no-comparisons, single mode) writes no
 * comparison and leaves the index alone.
 */
export function writeBatchFolder(
  dataDir: string,
  files: Record<string, Uint8Array>,
  written: Set<string>,
  { withComparisons, onWarning }: { withComparisons: boolean; onWarning: (message: string) => void },
): BatchFolderPaths {
  writeRunFiles(dataDir, files, written);
  const result: BatchFolderPaths = { summary: null, comparisons: [], index: null, skipped: [] };
  let zipIndex: string | null = null;
  for (const [entry, bytes] of Object.entries(files)) {
    const kind = batchEntryKind(entry);
    if (kind === "run") continue;
    if (kind === null) {
      onWarning(`Skipped ${JSON.stringify(entry)} of the batch's files: not a file of the batch folder.`);
      result.skipped.push(entry);
      continue;
    }
    if (kind === "index") {
      zipIndex = strFromU8(bytes);
      continue;
    }
    if (kind === "comparison" && !withComparisons) continue;
    const file = path.join(dataDir, ...entry.split("/"));
    writeWhole(file, bytes);
    if (kind === "summary") result.summary = file;
    else result.comparisons.push(file);
  }
  if (withComparisons && zipIndex !== null) {
    result.index = writeIndex(path.join(dataDir, "comparisons"), generatedAtOf(zipIndex), onWarning);
  }
  return result;
}

/** The `Generated:` time of an index, so the rebuilt one is dated as the batch's. */
function generatedAtOf(index: string): string {
  return /^Generated: (\S+)$/m.exec(index)?.[1] ?? new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** comparisons/index.md from every comparison.md under the folder (earlier batches too); answers its path. */
export function writeIndex(folder: string, generatedAt: string, onWarning: (message: string) => void): string {
  const entries: ComparisonIndexEntry[] = [];
  mkdirSync(folder, { recursive: true });
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory() || !plainName(entry.name)) continue;
    const file = path.join(folder, entry.name, COMPARISON_FILE_NAME);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue; // a folder of something else
    }
    const read = comparisonEntryFromMarkdown(entry.name, text);
    if (read) entries.push(read);
    else onWarning(`Left ${file} out of the index: it has no comparison front matter.`);
  }
  const index = path.join(folder, "index.md");
  writeWhole(index, new TextEncoder().encode(indexMarkdown({ entries, generatedAt })));
  return index;
}
