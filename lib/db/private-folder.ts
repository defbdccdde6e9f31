import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * Makes folder the owner's alone: the folder and every folder in it 0700, every file 0600.
 * PGlite creates its files 0666 less the umask (0644 on most machines), and they hold every
 * prompt, dataset and answer: readable by every account on the machine otherwise.
 */
export function makeFolderPrivate(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const walk = (current: string) => {
    const stat = lstatSync(current);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      chmodSync(current, 0o700);
      for (const entry of readdirSync(current)) walk(path.join(current, entry));
    } else if ((stat.mode & 0o777) !== 0o600) {
      chmodSync(current, 0o600);
    }
  };
  walk(folder);
}

/**
 * Files this process creates from now on are its owner's alone (umask 077), so the files PGlite
 * adds while it runs (new relations, WAL segments) are 0600 too. Worker threads cannot change
 * the umask: false there, and the folder is made private again after the open and at close.
 */
export function restrictNewFiles(): boolean {
  try {
    process.umask(0o077);
    return true;
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION in a worker thread
    return false;
  }
}
