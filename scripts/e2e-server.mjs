#!/usr/bin/env node
// Playwright's webServer: the production build on port E2E_PORT (3100) with a fresh PGlite folder.
// `npm test` builds first; a build that is missing or older than the sources is made here (the same
// check as `npm start`), so a test never runs against old code.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ensureBuild } from "./build-check.mjs";

ensureBuild({ root: path.join(import.meta.dirname, "..") });
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-e2e-"));
const port = process.env.E2E_PORT ?? "3100";
// Idle sockets are kept longer than any pause in a test: with Node's 5 s default, a request that
// reuses a socket just as the server closes it fails with ECONNRESET.
const child = spawn(
  process.execPath,
  ["node_modules/next/dist/bin/next", "start", "-p", port, "-H", "127.0.0.1", "--keepAliveTimeout", "120000"],
  {
    stdio: "inherit",
    // PARALLAXR_CHECK_RESPONSES: every JSON answer is checked against its route's output schema, as
    // in development and the vitest suites, so the e2e tests prove lib/api/responses.ts true too.
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PARALLAXR_DATA_DIR: dataDir, PARALLAXR_CHECK_RESPONSES: "1" },
  },
);
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
