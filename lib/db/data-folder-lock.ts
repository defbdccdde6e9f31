import { FolderInUseError } from "./errors";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * What the lock file of a PGlite folder says: the process that holds the folder and, for a
 * server, the loopback address and control token by which this machine's CLI reaches it.
 * The file is the owner's alone (0600): the control token acts as the local user.
 */
export interface FolderLock {
  pid: number;
  /** The holding server's own address (http://127.0.0.1:3000); absent for the CLI or a worker. */
  url?: string;
  /** A secret the holding server accepts as its local user, so the CLI can act through it. */
  controlToken?: string;
}

/** The lock file of a PGlite folder: `<folder>.pid` beside it. */
export function folderLockPath(pgliteFolder: string): string {
  return `${path.resolve(pgliteFolder)}.pid`;
}

/** The live holder of a PGlite folder, or null when none (a file left by an ended process counts as none). */
export function readFolderLock(pgliteFolder: string): FolderLock | null {
  let text: string;
  try {
    text = readFileSync(folderLockPath(pgliteFolder), "utf8").trim();
  } catch {
    return null;
  }
  let lock: FolderLock | null = null;
  if (/^\d+$/.test(text))
    lock = { pid: Number(text) }; // the format before addresses were recorded
  else {
    try {
      const parsed = JSON.parse(text) as FolderLock;
      if (Number.isInteger(parsed?.pid)) lock = parsed;
    } catch {
      lock = null;
    }
  }
  return lock && processIsAlive(lock.pid) ? lock : null;
}

/**
 * Claims a PGlite folder for this process, or throws a FolderInUseError naming the live process
 * that holds it: two processes on one PGlite folder silently lose writes.
 */
export function takeFolderLock(pgliteFolder: string): void {
  const holder = readFolderLock(pgliteFolder);
  if (holder && holder.pid !== process.pid) throw new FolderInUseError(pgliteFolder, holder);
  writeLock(pgliteFolder, { pid: process.pid });
}

/** Records in this process's lock where its server listens and its control token. */
export function announceServerInLock(pgliteFolder: string, server: { url: string; controlToken: string }): void {
  writeLock(pgliteFolder, { pid: process.pid, ...server });
}

/** Gives the folder up, if this process holds it. */
export function releaseFolderLock(pgliteFolder: string): void {
  const holder = readFolderLock(pgliteFolder);
  if (!holder || holder.pid === process.pid) rmSync(folderLockPath(pgliteFolder), { force: true });
}

function writeLock(pgliteFolder: string, lock: FolderLock): void {
  const file = folderLockPath(pgliteFolder);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(lock), { mode: 0o600 });
  chmodSync(file, 0o600); // writeFileSync's mode applies only when it creates the file
}

/** Whether process pid is running (another user's process counts: it cannot be signalled, but it lives). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
