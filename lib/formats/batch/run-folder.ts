/**
 * The run folder of an image batch run (`--out DIR`): its run id is the folder's base name; the
 * prompt and matrix files are copied into it and recorded by those names, so `--resume --out DIR`
 * needs nothing else and a moved folder still resolves. A folder that already holds run.json is
 * refused unless the run is resumed. Nothing here runs for `--dry-run`, which writes nothing.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import Ajv from "ajv";
import runSchema from "@/schemas/run.schema.json";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { MANIFEST_NAME, readRunManifest } from "@/lib/formats/batch/write-run-manifest";

export interface NewRunFolder {
  dir: string;
  runId: string;
  /** The copies' names in the folder, as run.json records them. */
  promptsFile: string;
  matrixFile: string;
}

const RESERVED = new Set([MANIFEST_NAME]);

function copyName(source: string, what: string): string {
  const name = basename(source);
  if (RESERVED.has(name) || name.startsWith(".") || name.startsWith("receipt-")) {
    throw new Error(`${source}: a ${what} file cannot be named "${name}" in a run folder; rename it`);
  }
  return name;
}

/** Creates (or takes an empty) run folder and copies the inputs into it. */
export function prepareRunFolder(out: string, promptsPath: string, matrixPath: string): NewRunFolder {
  const dir = resolve(out);
  const runId = basename(dir);
  if (existsSync(join(dir, MANIFEST_NAME))) {
    throw new Error(`${join(dir, MANIFEST_NAME)} exists: add --resume to continue that run, or choose another --out`);
  }
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new Error(`${dir}: --out must be a folder`);
  mkdirSync(dir, { recursive: true });
  const promptsFile = copyName(promptsPath, "prompt");
  const matrixFile = copyName(matrixPath, "matrix");
  if (promptsFile === matrixFile) {
    throw new Error(`${promptsPath} and ${matrixPath} have the same name; rename one of them`);
  }
  if (resolve(promptsPath) !== join(dir, promptsFile)) copyFileSync(promptsPath, join(dir, promptsFile));
  if (resolve(matrixPath) !== join(dir, matrixFile)) copyFileSync(matrixPath, join(dir, matrixFile));
  return { dir, runId, promptsFile, matrixFile };
}

const validator = new Ajv({ allErrors: false }).compile(runSchema);

/** The problems of a run.json against schemas/run.schema.json, empty when it is valid. */
export function runManifestProblems(manifest: unknown): string[] {
  if (validator(manifest)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
}

export interface ResumedRunFolder extends NewRunFolder {
  manifest: RunManifest;
}

/** Opens a run folder for `--resume`: its run.json, checked against the schema, and its input copies. */
export function openRunFolder(out: string): ResumedRunFolder {
  const dir = resolve(out);
  const file = join(dir, MANIFEST_NAME);
  if (!existsSync(file)) throw new Error(`${file} does not exist: there is no run to resume in ${dir}`);
  const manifest = readRunManifest(dir);
  const problems = runManifestProblems(manifest);
  if (problems.length > 0) throw new Error(`${file}: not a valid run.json v1 (${problems[0]})`);
  const present = new Set(readdirSync(dir));
  for (const name of [manifest.inputs.prompts_path, manifest.inputs.matrix_path]) {
    if (!present.has(name)) throw new Error(`${join(dir, name)} is missing: run.json names it as an input copy`);
  }
  return {
    dir,
    runId: manifest.run_id,
    promptsFile: manifest.inputs.prompts_path,
    matrixFile: manifest.inputs.matrix_path,
    manifest,
  };
}
