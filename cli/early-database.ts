import { existsSync } from "node:fs";
import path from "node:path";
import { readFolderLock } from "@/lib/db/data-folder-lock";
import type { Database } from "@/lib/db/database";
import { databaseConfigFromEnv, defaultDataDir, openDatabase, pgliteFolder } from "@/lib/db/open-database";

/** The commands that run work on the data folder when no server holds it (bin/launch.mjs has the same list). */
const databaseCommands = new Set(["run", "eval", "matrix", "batch-run"]);

let early: { dataDir: string; opening: Promise<Database>; taken: boolean } | null = null;

/**
 * Starts opening the embedded database as the process starts, when the command line will surely
 * open it: PGlite boots on its own thread (lib/db/pglite-in-thread.ts) while this thread loads the
 * command's code and reads its files, instead of after them. Only for a folder that already holds
 * a database and that no process holds: a new folder's first open (creating the database) and
 * a command that goes to a server are left to the command, as before.
 */
export function openDatabaseEarly(argv: string[], env: NodeJS.ProcessEnv = process.env): void {
  const args = argv.slice(2);
  const [command, subcommand] = args;
  if (!databaseCommands.has(command) || subcommand === "validate") return;
  if (args.some((arg) => arg === "--help" || arg === "-h" || arg === "--server" || arg.startsWith("--server="))) return;
  const config = databaseConfigFromEnv(env);
  if (config.databaseUrl) return;
  const dataDir = config.dataDir ?? defaultDataDir;
  const folder = pgliteFolder(dataDir);
  if (!existsSync(path.join(folder, "PG_VERSION")) || readFolderLock(folder) !== null) return;
  const opening = openDatabase({ dataDir });
  // A failure is the command's to report, when it opens the database.
  opening.catch(() => {});
  early = { dataDir, opening, taken: false };
}

/** The database opened early for dataDir, for the command to use as its own; null if none was. */
export function takeEarlyDatabase(dataDir: string): Promise<Database> | null {
  if (!early || early.taken || early.dataDir !== dataDir) return null;
  early.taken = true;
  return early.opening;
}

/** Closes a database opened early that the command did not use (a usage error, a dry run's answer from a server). */
export async function closeUntakenDatabase(): Promise<void> {
  if (!early || early.taken) return;
  early.taken = true;
  const db = await early.opening.catch(() => null);
  await db?.close();
}
