import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { announceServerInLock, folderLockPath, readFolderLock } from "@/lib/db/data-folder-lock";
import { openDatabase, pgliteFolder } from "@/lib/db/open-database";

const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "parallaxr-modes-")), "data");

afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

function everyEntry(folder: string): Array<{ file: string; mode: number; directory: boolean }> {
  return readdirSync(folder, { recursive: true, withFileTypes: true }).map((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return { file, mode: statSync(file).mode & 0o777, directory: entry.isDirectory() };
  });
}

describe("the data folder of the embedded database", () => {
  it("is its owner's alone: folders 0700 and files 0600, also the files written while it runs", async () => {
    const db = await openDatabase({ dataDir });
    try {
      // a table and rows written after the open: new relation files must be private too
      await db.exec(
        "create table mode_probe (id int, body text); insert into mode_probe select i, repeat('x', 500) from generate_series(1, 20000) i; checkpoint;",
      );
      const open = everyEntry(dataDir);
      expect(open.length).toBeGreaterThan(50);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(open.filter((entry) => entry.directory && entry.mode !== 0o700).map((entry) => entry.file)).toEqual([]);
      expect(
        open.filter((entry) => !entry.directory && entry.mode !== 0o600).map((entry) => `${entry.file} ${entry.mode.toString(8)}`),
      ).toEqual([]);
      expect(statSync(folderLockPath(pgliteFolder(dataDir))).mode & 0o777).toBe(0o600);
    } finally {
      await db.close();
    }
    expect(everyEntry(dataDir).filter((entry) => entry.mode !== (entry.directory ? 0o700 : 0o600))).toEqual([]);
  }, 120_000);

  it("an existing folder's files left readable by an earlier process are made private again as it opens", async () => {
    await (await openDatabase({ dataDir })).close();
    const loosened = everyEntry(dataDir)
      .filter((entry) => !entry.directory)
      .slice(0, 40);
    for (const entry of loosened) chmodSync(entry.file, 0o644);
    chmodSync(path.join(pgliteFolder(dataDir), "base"), 0o755);
    const db = await openDatabase({ dataDir });
    try {
      expect(loosened.filter((entry) => (statSync(entry.file).mode & 0o777) !== 0o600).map((entry) => entry.file)).toEqual([]);
      expect(statSync(path.join(pgliteFolder(dataDir), "base")).mode & 0o777).toBe(0o700);
    } finally {
      await db.close();
    }
  }, 120_000);

  it("a second opener is refused while the folder is held, and the lock names the server for the CLI", async () => {
    const db = await openDatabase({ dataDir });
    try {
      announceServerInLock(pgliteFolder(dataDir), { url: "http://127.0.0.1:3999", controlToken: "pxr_secret" });
      expect(readFolderLock(pgliteFolder(dataDir))).toEqual({ pid: process.pid, url: "http://127.0.0.1:3999", controlToken: "pxr_secret" });
      expect(JSON.parse(readFileSync(folderLockPath(pgliteFolder(dataDir)), "utf8")).pid).toBe(process.pid);
    } finally {
      await db.close();
    }
    expect(readFolderLock(pgliteFolder(dataDir))).toBeNull();
  }, 120_000);
});
