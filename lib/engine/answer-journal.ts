import { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { CellResult } from "@/lib/db/cells/save-cell-results";

/**
 * Answers the worker holds that the database does not have yet, kept in files of the data folder.
 *
 * A worker that claims ahead starts a held cell the moment a call ends, before that call's answer
 * is saved (the save follows a few milliseconds later). A process killed in between would lose an
 * answer already paid for, and the next run would pay for it again. So each answer is appended here
 * first, synchronously, as one JSON line; a file is removed once every answer in it is saved; and
 * the worker that next starts on the folder saves what a dead one left (lib/engine/worker.ts).
 * Like the embedded database's own writes, the lines survive the process, not a power cut.
 */
export interface AnswerJournal {
  /** Keeps result until saved(result) says the database has it. */
  append(result: CellResult): void;
  /** The database has these results: files all of whose answers are saved are removed. */
  saved(results: CellResult[]): void;
  /** Removes every file, whatever is in it (after the worker has saved what it read). */
  clear(): void;
}

/** Where a data folder keeps the journal of its worker; none for a database in memory, which a crash loses whole. */
export function answerJournalFolder(dataDir: string): string | undefined {
  return dataDir.startsWith("memory://") ? undefined : path.join(dataDir, "unsaved-answers");
}

/** A file is closed for new answers past this size, so that saved answers do not pile up in one. */
const rotateAtBytes = 1 << 20;

const fileName = (generation: number) => `answers-${String(generation).padStart(6, "0")}.jsonl`;

/** Opens the journal in folder (made if missing); its files must be this process's alone, as the data folder is. */
export function openAnswerJournal(folder: string): AnswerJournal {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  let generation = nextGeneration(folder);
  let fd: number | null = null;
  let bytes = 0;
  // Answers not yet saved, per file; and which file each answer went to.
  const unsaved = new Map<number, number>();
  const fileOf = new WeakMap<CellResult, number>();

  const remove = (which: number) => {
    unsaved.delete(which);
    rmSync(path.join(folder, fileName(which)), { force: true });
  };

  return {
    append(result) {
      if (fd === null || bytes >= rotateAtBytes) {
        if (fd !== null) {
          closeSync(fd);
          // Everything in the file just closed may already be saved.
          if ((unsaved.get(generation) ?? 0) === 0) remove(generation);
          generation++;
        }
        fd = openSync(path.join(folder, fileName(generation)), "a", 0o600);
        bytes = 0;
      }
      const line = `${JSON.stringify(result)}\n`;
      bytes += writeSync(fd, line);
      unsaved.set(generation, (unsaved.get(generation) ?? 0) + 1);
      fileOf.set(result, generation);
    },
    saved(results) {
      for (const result of results) {
        const which = fileOf.get(result);
        if (which === undefined) continue;
        fileOf.delete(result);
        const left = (unsaved.get(which) ?? 1) - 1;
        unsaved.set(which, left);
        if (left === 0 && which !== generation) remove(which);
      }
      // The open file is emptied rather than removed when all it holds is saved.
      if (fd !== null && (unsaved.get(generation) ?? 0) === 0 && bytes > 0) {
        ftruncateSync(fd, 0);
        bytes = 0;
      }
    },
    clear() {
      if (fd !== null) closeSync(fd);
      fd = null;
      for (const name of journalFiles(folder)) rmSync(path.join(folder, name), { force: true });
      unsaved.clear();
    },
  };
}

/**
 * The answers a process left in folder's journal: the last line written for each cell. A line cut
 * short by the kill is skipped (its answer is lost, as it would have been without the journal).
 */
export function readLeftAnswers(folder: string): CellResult[] {
  const byCell = new Map<string, CellResult>();
  for (const name of journalFiles(folder)) {
    let text: string;
    try {
      text = readFileSync(path.join(folder, name), "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n")) {
      if (line === "") continue;
      try {
        const result = JSON.parse(line) as CellResult;
        if (typeof result.id === "string" && typeof result.runId === "string") byCell.set(result.id, result);
      } catch {
        // the line the process was writing when it died
      }
    }
  }
  return [...byCell.values()];
}

function journalFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => /^answers-\d+\.jsonl$/.test(name))
      .sort();
  } catch {
    return [];
  }
}

function nextGeneration(folder: string): number {
  const last = journalFiles(folder).at(-1);
  return last ? Number(/\d+/.exec(last)![0]) + 1 : 0;
}
