/**
 * run.json on disk: written atomically (a temp file in the same folder, fsync, rename over the
 * old one, then the folder fsynced where the platform allows) so a reader sees the old manifest or
 * the new one, never half of one; read back with its paths resolved against the folder it is in.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { randomBytes } from "node:crypto";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";

export const MANIFEST_NAME = "run.json";
/** Largest run.json read back (a 50,000-job run is well under it). */
export const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

export function writeRunManifest(runDir: string, manifest: RunManifest): string {
  const target = join(runDir, MANIFEST_NAME);
  const temp = join(runDir, `.${MANIFEST_NAME}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8");
  const fd = openSync(temp, "wx", 0o644);
  try {
    let written = 0;
    while (written < body.length) written += writeSync(fd, body, written, body.length - written);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
  syncFolder(runDir);
  return target;
}

function syncFolder(dir: string) {
  let fd: number | null = null;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Windows cannot open a folder for fsync; the rename is still atomic there.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** Reads run.json from a run folder; names the file and what to do when it is not a v1 manifest. */
export function readRunManifest(runDir: string): RunManifest {
  const file = join(runDir, MANIFEST_NAME);
  const text = readFileSync(file, "utf8");
  if (text.length > MAX_MANIFEST_BYTES) throw new Error(`${file}: larger than ${MAX_MANIFEST_BYTES} bytes`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file}: not valid JSON; restore it or start a new run in another folder`);
  }
  const m = parsed as Partial<RunManifest>;
  if (!m || typeof m !== "object" || m.schema_version !== 1 || !Array.isArray(m.jobs)) {
    throw new Error(`${file}: not a run.json of schema version 1`);
  }
  return m as RunManifest;
}

/** The absolute path of a manifest path, refused if it resolves outside the run folder. */
export function resolveRunPath(runDir: string, relativePath: string): string {
  const root = resolve(runDir);
  const full = resolve(root, relativePath);
  if (full !== root && !full.startsWith(root + sep)) throw new Error(`"${relativePath}" leaves the run folder`);
  return full;
}
