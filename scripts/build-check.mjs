// Whether the production build in .next was built from the sources as they are now, and a build
// when it was not: `npm start` (scripts/serve.mjs) and the e2e server share it. next.config.mjs
// makes the build's id (.next/BUILD_ID) the hash of its sources, so every build records it, also
// one made by hand with `npx next build`.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The folders whose every file goes into the build. */
const SOURCE_FOLDERS = ["app", "components", "lib", "public"];
/** The files at the root that shape the build: its config, the proxy, the hooks, the dependencies. */
const SOURCE_FILES = [
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "scripts/build-check.mjs",
];
/** Settings next.config.mjs reads while building: the proxy's body buffer and the headers are fixed then. */
const BUILD_SETTINGS = ["PARALLAXR_MAX_BODY_MB", "PARALLAXR_MAX_UPLOAD_MB", "NEXT_PUBLIC_SUPABASE_URL"];

/**
 * A hash of everything a production build is made from, under root: each source file's path and
 * bytes, in a fixed order, and the build-time settings from env. 32 hex characters.
 */
export function sourceHash({ root, env = process.env }) {
  const hash = createHash("sha256");
  const files = [
    ...SOURCE_FOLDERS.flatMap((folder) => filesUnder(root, folder)),
    ...SOURCE_FILES.filter((file) => existsSync(path.join(root, file))),
  ];
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  for (const name of BUILD_SETTINGS) hash.update(`${name}=${env[name] ?? ""}\0`);
  return hash.digest("hex").slice(0, 32);
}

/**
 * "missing" (no complete build), "stale" (built from other sources, or by a build that did not
 * record its hash) or "current".
 */
export function buildState({ root, env = process.env }) {
  const idFile = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(idFile)) return { state: "missing" };
  const built = readFileSync(idFile, "utf8").trim();
  const current = sourceHash({ root, env });
  return { state: built === current ? "current" : "stale", built, current };
}

/** Runs `next build` under root unless the build there is current; exits the process when the build fails. */
export function ensureBuild({ root, env = process.env, log = console.error }) {
  const { state } = buildState({ root, env });
  if (state === "current") return { built: false };
  log(
    state === "missing"
      ? "No production build yet: building it once (a few minutes; later starts reuse it)."
      : "The sources changed since the last production build: building again.",
  );
  const next = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const result = spawnSync(process.execPath, [next, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) {
    log("The production build failed (see above).");
    process.exit(result.status ?? 1);
  }
  return { built: true };
}

// A walk of its own: readdirSync's recursive option lacks parentPath before Node 20.12.
function filesUnder(root, folder) {
  const start = path.join(root, folder);
  if (!existsSync(start)) return [];
  return readdirSync(start, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(root, relative);
    return entry.isFile() ? [relative] : [];
  });
}
