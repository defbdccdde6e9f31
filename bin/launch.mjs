// What every bin of the package shares (`parallaxr`, and the seeds' names that are thin aliases of
// one of its commands): find the Parallaxr folder from this file's own place, read the app's
// settings as `npm start` does, and run cli/parallaxr.ts's main.
//
// The CLI runs from a bundle of its TypeScript sources built ahead of time with esbuild
// (.cli-build/, git-ignored): importing ~150 modules through tsx costs 0.7-1.1 s of every start,
// the bundle a fraction of it. The packages it uses are in the bundle too, but for those with
// files or native code of their own (packagesLeftOut): Node finding, reading and linking some 600
// files of node_modules one by one took ~40 ms of every command's start. The bundle records the
// size and mtime of every source file it was built from, and of node_modules/.package-lock.json
// for the packages (npm rewrites it at every install), in inputs.json; a start that finds any of
// them changed, or no bundle, builds it again first
// (about 0.4 s, written to a temporary name and renamed, so two starts at once never read half a
// file). It is split at each command's dynamic import (cli/parallaxr.ts): a start loads only the
// code of the command it runs. Where the folder cannot be written (an install owned by another user) or esbuild fails,
// the sources run through tsx as before. PARALLAXR_CLI_TSX=1 always runs them through tsx.
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

const root = path.resolve(path.dirname(realpathSync(new URL(import.meta.url).pathname)), "..");
const buildDir = path.join(root, ".cli-build");
const bundleFile = path.join(buildDir, "parallaxr.mjs");
const inputsFile = path.join(buildDir, "inputs.json");
const entryFile = path.join(root, "cli", "parallaxr.ts");
/** Files that change how the sources bundle, beside the sources themselves. */
const configFiles = ["tsconfig.json", "package.json", "bin/launch.mjs", "node_modules/.package-lock.json"];
/**
 * Packages the bundle leaves to node_modules: those that load files of their own (PGlite's
 * WebAssembly, node-llama-cpp's and sharp's native code, esbuild's binary), pg (its optional native
 * client), and the app's (Next.js, React), which the CLI never runs.
 */
const packagesLeftOut = [
  "@electric-sql/pglite",
  "node-llama-cpp",
  "sharp",
  "esbuild",
  "tsx",
  "pg",
  "next",
  "@next/env",
  "react",
  "react-dom",
];

/** Size and mtime of a file, or null when it is gone. */
function stamp(file) {
  try {
    const stats = statSync(path.join(root, file));
    return [stats.size, stats.mtimeMs];
  } catch {
    return null;
  }
}

/** Whether the bundle was built from exactly the files as they are now. */
function bundleIsFresh() {
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(inputsFile, "utf8"));
    statSync(bundleFile);
  } catch {
    return false;
  }
  for (const [file, recorded] of Object.entries(inputs)) {
    const now = stamp(file);
    if (now === null || now[0] !== recorded[0] || now[1] !== recorded[1]) return false;
  }
  return true;
}

/**
 * Bundles cli/parallaxr.ts with its own sources inlined and every package left to node_modules,
 * split at each command's dynamic import (cli/parallaxr.ts), so a start loads only its command's
 * code: parallaxr.mjs and chunks/*.mjs, the chunks named by their content's hash.
 */
async function buildBundle() {
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: root,
    entryPoints: { parallaxr: entryFile },
    bundle: true,
    splitting: true,
    outdir: buildDir,
    entryNames: "[name]",
    chunkNames: "chunks/[name]-[hash]",
    outExtension: { ".js": ".mjs" },
    platform: "node",
    format: "esm",
    target: "node20.9",
    external: packagesLeftOut,
    tsconfig: path.join(root, "tsconfig.json"),
    metafile: true,
    write: false,
    logLevel: "silent",
    // The packages written as CommonJS call require(), which an ES module has only when it makes one.
    banner: {
      js: [
        "// Built by bin/launch.mjs from cli/parallaxr.ts; rebuilt when a source changes. Do not edit.",
        'import { createRequire as __parallaxrCreateRequire } from "node:module";',
        "const require = __parallaxrCreateRequire(import.meta.url);",
      ].join("\n"),
    },
  });
  const inputs = {};
  const sources = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("node_modules/"));
  for (const file of [...sources, ...configFiles]) {
    const now = stamp(file);
    if (now !== null) inputs[file] = now;
  }
  mkdirSync(path.join(buildDir, "chunks"), { recursive: true });
  const suffix = `.${process.pid}.tmp`;
  const place = (file, contents) => {
    writeFileSync(file + suffix, contents);
    renameSync(file + suffix, file);
  };
  // The chunks first (a name is its content, so a chunk in use is never changed), then the entry
  // that imports them, then inputs.json: a start that sees the new inputs.json finds all it names.
  const entry = result.outputFiles.find((output) => output.path === bundleFile);
  for (const output of result.outputFiles) if (output !== entry) place(output.path, output.contents);
  place(bundleFile, entry.contents);
  place(inputsFile, JSON.stringify(inputs));
  // Chunks no build has written for a week: a process started from an earlier build may still
  // import its chunks lazily (a vendor's SDK on its first call), so they are not removed at once.
  const current = new Set(result.outputFiles.map((output) => path.basename(output.path)));
  for (const name of readdirSync(path.join(buildDir, "chunks"))) {
    const file = path.join(buildDir, "chunks", name);
    if (!current.has(name) && Date.now() - statSync(file).mtimeMs > 7 * 24 * 3600_000) rmSync(file, { force: true });
  }
}

/** The module whose main runs the command: the bundle when it is (or can be made) fresh, else the sources through tsx. */
async function cliModule() {
  if (process.env.PARALLAXR_CLI_TSX !== "1") {
    if (bundleIsFresh()) return pathToFileURL(bundleFile).href;
    try {
      await buildBundle();
      return pathToFileURL(bundleFile).href;
    } catch (error) {
      rmSync(`${bundleFile}.${process.pid}.tmp`, { force: true });
      rmSync(`${inputsFile}.${process.pid}.tmp`, { force: true });
      if (process.env.PARALLAXR_CLI_DEBUG === "1") console.error("parallaxr: running through tsx:", error);
    }
  }
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  return pathToFileURL(entryFile).href;
}

/** The commands that run work on the data folder, as cli/early-database.ts has them. */
const databaseCommands = new Set(["run", "eval", "matrix", "batch-run"]);

/** Whether the command line will open the embedded database (PGlite on its thread) as far as can be told this early. */
function opensEmbeddedDatabase([command, subcommand, ...rest]) {
  if (!databaseCommands.has(command) || subcommand === "validate") return false;
  if ([subcommand, ...rest].some((arg) => arg === "--help" || arg === "-h" || arg === "--server" || arg?.startsWith("--server=")))
    return false;
  return !process.env.DATABASE_URL && process.env.PARALLAXR_PGLITE_THREAD !== "0";
}

/**
 * Starts the embedded database's thread (lib/db/pglite-thread.mjs) now, before the command's code
 * loads: a thread takes ~0.1 s to start and PGlite's module as long again to load, and the thread
 * waits, unreferenced, for the command to tell it which folder to open (lib/db/pglite-in-thread.ts
 * takes it). A command that never opens the database exits without waiting for it.
 */
function prestartDatabaseThread() {
  const key = Symbol.for("parallaxr.pgliteThread");
  const worker = new Worker(path.join(root, "lib", "db", "pglite-thread.mjs"), { execArgv: [] });
  worker.unref();
  // A thread that fails before it is taken is forgotten; the command starts its own.
  const forget = () => {
    if (globalThis[key] === worker) delete globalThis[key];
  };
  worker.once("error", forget);
  worker.once("exit", forget);
  globalThis[key] = worker;
}

/**
 * Runs `parallaxr <commandPrefix...> <the process's own arguments>` and sets the exit code:
 * launch([]) is `parallaxr`, launch(["eval"]) is `prompt-eval`.
 */
export async function launch(commandPrefix) {
  // Node 22.1+ keeps V8's compiled code between starts; Node 20 has no such cache and skips it.
  module.enableCompileCache?.(path.join(buildDir, "compile-cache"));
  const { default: nextEnv } = await import("@next/env");
  // The app's settings (.env, .env.local, ...) as `npm start` reads them, without printing which.
  nextEnv.loadEnvConfig(root, false, { info: () => {}, error: (...args) => console.error(...args) });
  // One rule for the app and the CLI: PARALLAXR_DATA_DIR, else .data in the Parallaxr folder
  // (lib/project-root.ts); migrations and models/ are found there too.
  process.env.PARALLAXR_ROOT ||= root;
  const argv = [...commandPrefix, ...process.argv.slice(2)];
  if (opensEmbeddedDatabase(argv)) prestartDatabaseThread();
  const { main } = await import(await cliModule());
  process.exitCode = await main([process.argv[0], process.argv[1], ...argv]);
}
