#!/usr/bin/env node
// The `parallaxr` command. Runs the TypeScript sources in cli/ through tsx, from whichever
// directory it is called: the Parallaxr folder is found from this file's own place, so the CLI
// and the app read the same .env and the same data folder.
import { realpathSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(realpathSync(new URL(import.meta.url).pathname)), "..");
const { default: nextEnv } = await import("@next/env");
const { loadEnvConfig } = nextEnv;
// The app's settings (.env, .env.local, ...) as `npm start` reads them, without printing which.
loadEnvConfig(root, false, { info: () => {}, error: (...args) => console.error(...args) });
// One rule for the app and the CLI: PARALLAXR_DATA_DIR, else .data in the Parallaxr folder
// (lib/project-root.ts); migrations and models/ are found there too.
process.env.PARALLAXR_ROOT ||= root;

const { register } = await import("tsx/esm/api");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(pathToFileURL(path.join(root, "cli", "parallaxr.ts")).href);
process.exitCode = await main(process.argv);
