#!/usr/bin/env node
// The `pidcast-eval` command of specs/matrix-comparisons.md: `pidcast-eval <args>` is
// `parallaxr matrix <args>` (`pidcast-eval --run-matrix --prompts v1,v2 --models llama-3.3-70b
// --transcripts tech-talk-01` runs as the spec writes it). Like bin/parallaxr.mjs it runs the
// TypeScript sources in cli/ through tsx from whichever directory it is called, the Parallaxr
// folder found from this file's own place.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(realpathSync(new URL(import.meta.url).pathname)), "..");
const { default: nextEnv } = await import("@next/env");
const { loadEnvConfig } = nextEnv;
// The app's settings (.env, .env.local, ...) as `npm start` reads them, without printing which.
loadEnvConfig(root, false, { info: () => {}, error: (...args) => console.error(...args) });
// One rule for the app and the CLI: PARALLAXR_DATA_DIR, else .data in the Parallaxr folder.
process.env.PARALLAXR_ROOT ||= root;

const { register } = await import("tsx/esm/api");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(pathToFileURL(path.join(root, "cli", "parallaxr.ts")).href);
process.exitCode = await main([process.argv[0], process.argv[1], "matrix", ...process.argv.slice(2)]);
