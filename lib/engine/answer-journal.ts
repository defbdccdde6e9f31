import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import type { CellResult } from "@/lib/db/cells/save-cell-results";

/**
 * Answers the worker holds that the database does not have yet, kept in a file of the data folder.
 *
 * A worker that claims ahead starts a held cell the moment a call ends, before that call's answer
 * is saved (the save follows a few milliseconds later). A process killed in between would lose an
 * answer already paid for, and the next run would pay for it again. So each answer is appended here
 * first, synchronously, as one JSON line; once saved, its cell is named on a "saved" line; the file
 * is emptied whenever nothing in it is waiting, and rewritten with only what is waiting when it
 * grows past a few MB. The worker that next starts on the folder saves what a dead one left
 * (lib/engine/worker.ts). Like the embedded database's own writes, the lines survive the process,
 * not a power cut.
 */
export interface AnswerJournal {
  /** Keeps result until saved(result) says the database has it. */
  append(result: CellResult): void;
  /** The database has these results. */
  saved(results: CellResult[]): void;
  /** Empties the journal, whatever is in it (after the worker has saved what it read). */
  clear(): void;
  /** Closes its file; what still waits in it stays there for the next start. */
  close(): void;
}

/** Where a data folder keeps the journal of its worker; none for a database in memory, which a crash loses whole. */
export function answerJournalFolder(dataDir: string): string | undefined {
  return dataDir.startsWith("memory://") ? undefined : path.join(dataDir, "unsaved-answers");
}

const fileName = "answers.jsonl";

/**
 * Opens the journal in folder (made if missing), appending to what is there; its file must be this
 * process's alone, as the data folder is. compactAtBytes: the size past which it is rewritten.
 */
export function openAnswerJournal(folder: string, { compactAtBytes = 8 << 20 }: { compactAtBytes?: number } = {}): AnswerJournal {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = path.join(folder, fileName);
  // A compaction the process was killed in the middle of left this; the journal itself is whole.
  const compacting = `${file}.tmp`;
  rmSync(compacting, { force: true });
  let fd = openSync(file, "a", 0o600);
  let bytes = 0;
  const waiting = new Set<CellResult>();
  const write = (line: string) => {
    bytes += writeSync(fd, line);
  };

  return {
    append(result) {
      write(`${JSON.stringify(result)}\n`);
      waiting.add(result);
    },
    saved(results) {
      const done = results.filter((result) => waiting.delete(result));
      if (done.length === 0) return;
      // Tidying is best effort: a line left behind is an answer the next start finds saved already.
      try {
        if (waiting.size === 0) {
          ftruncateSync(fd, 0);
          bytes = 0;
        } else if (bytes >= compactAtBytes) {
          const lines = [...waiting].map((result) => `${JSON.stringify(result)}\n`).join("");
          const nextFd = openSync(compacting, "w", 0o600);
          writeSync(nextFd, lines);
          renameSync(compacting, file);
          closeSync(fd);
          fd = nextFd;
          bytes = Buffer.byteLength(lines);
        } else {
          // The answers stay in the file: name them saved, so that a later answer of the same cell
          // (a re-run) is the one the next start sees, and an earlier one is never restored.
          write(`${JSON.stringify({ saved: done.map((result) => result.id) })}\n`);
        }
      } catch {
        // see above
      }
    },
    clear() {
      ftruncateSync(fd, 0);
      bytes = 0;
      waiting.clear();
    },
    close() {
      closeSync(fd);
    },
  };
}

/**
 * The answers a process left in folder's journal and never saw saved: the last line for each cell
 * after its "saved" lines. A line cut short by the kill is skipped (its answer is lost, as it would
 * have been without the journal).
 */
export function readLeftAnswers(folder: string): CellResult[] {
  let text: string;
  try {
    text = readFileSync(path.join(folder, fileName), "utf8");
  } catch {
    return [];
  }
  const byCell = new Map<string, CellResult>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      // the line the process was writing when it died
      continue;
    }
    if (typeof entry !== "object" || entry === null) continue;
    const { saved } = entry as { saved?: unknown };
    if (Array.isArray(saved)) {
      for (const id of saved) byCell.delete(String(id));
      continue;
    }
    const result = entry as CellResult;
    if (typeof result.id === "string" && typeof result.runId === "string") byCell.set(result.id, result);
  }
  return [...byCell.values()];
}
