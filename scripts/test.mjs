#!/usr/bin/env node
// The one test command (npm test): the typecheck and the linter, unit and integration tests
// (vitest), then a production build and the browser tests (Playwright in Debian's Chromium). Ends with one line for all suites:
// "N passed, N failed" (", N skipped" when some were).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const results = "test-results";
mkdirSync(results, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const totals = { passed: 0, failed: 0, skipped: 0 };
let broken = false;

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

// 0. typecheck, lint and format check (`npm run format` fixes it): each counts as one check in the
// last line, passed or failed
for (const [label, command, args] of [
  ["typecheck", "npx", ["tsc", "--noEmit"]],
  ["lint", "npx", ["eslint", "."]],
  ["format check", "npx", ["prettier", "--check", "--log-level=warn", "."]],
]) {
  if (run(label, command, args) === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    console.log(`The ${label} failed (see above); it counts as one failure.`);
  }
}

// 1. vitest
rmSync(`${results}/vitest.json`, { force: true });
const vitestStatus = run("unit and integration tests", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile=${results}/vitest.json`,
]);
const vitest = readJson(`${results}/vitest.json`);
if (vitest) {
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests;
  totals.skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
  if (vitestStatus !== 0 && vitest.numFailedTests === 0) broken = true; // a suite failed to load
} else {
  broken = true;
}

// 2. production build, then Playwright against it
if (process.env.PARALLAXR_SKIP_E2E === "1") {
  console.log("\nPARALLAXR_SKIP_E2E=1: browser tests skipped.");
} else {
  const buildStatus =
    process.env.PARALLAXR_SKIP_BUILD === "1" && existsSync(".next/BUILD_ID") ? 0 : run("production build", "npx", ["next", "build"]);
  if (buildStatus !== 0) {
    console.log("The production build failed: the browser tests cannot run.");
    broken = true;
  } else {
    rmSync(`${results}/e2e.json`, { force: true });
    const e2eStatus = run("browser tests", "npx", ["playwright", "test"]);
    const e2e = readJson(`${results}/e2e.json`);
    if (e2e?.stats) {
      totals.passed += e2e.stats.expected + e2e.stats.flaky;
      totals.failed += e2e.stats.unexpected;
      totals.skipped += e2e.stats.skipped;
      if (e2eStatus !== 0 && e2e.stats.unexpected === 0) broken = true;
    } else {
      broken = true;
    }
  }
}

if (broken) {
  // a suite that could not run counts as one failure, so the line never reads all-green
  totals.failed += 1;
  console.log("\nA suite could not run or report (see above); it counts as one failure.");
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : "";
console.log(`\n${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 ? 1 : 0);
