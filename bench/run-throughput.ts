/**
 * Throughput of the engine: a 1,000-cell run (4 mock models x 250 rows) through the real worker,
 * on PGlite and on the Postgres server, at 200 ms and 0 ms of mock latency and at concurrency 16
 * and 64. Prints a table and writes bench/results/throughput-<date>.json.
 *
 *   npm run bench -- [--backend pglite|postgres|both] [--repeat N] [--quick]
 *
 * Exits 1 when a run lost or duplicated a cell or had more cells in flight than its concurrency;
 * speed targets are only marked, never fatal. See bench/README.md for how to read the numbers.
 *
 * This file reads the arguments, takes the scenarios in turns and writes the results; the parts are
 * in bench/throughput/: settings.ts (rows, models, targets), open-backend.ts (PGlite or a fresh
 * Postgres database), measure-run.ts (one run through the real worker, checked),
 * statement-counter.ts, machine.ts (what it ran on, how busy) and report.ts (summaries, tables).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { describeMachine, engineFingerprint, hashFiles, readUptime } from "./throughput/machine";
import { measureRun, type RunRecord } from "./throughput/measure-run";
import { openBackend } from "./throughput/open-backend";
import { printProgress, printStatements, printTable, summarize } from "./throughput/report";
import {
  type BackendName,
  cellCount,
  cellsPerSecondTarget,
  mockModelNames,
  pollMs,
  poolSize,
  referenceCellsPerSecond,
  rowCount,
  type Scenario,
  shareOfIdealTarget,
  workerMaxInFlight,
} from "./throughput/settings";

async function main(): Promise<void> {
  const { values } = readArguments();
  if (values.help) {
    console.log(usage);
    return;
  }
  const backends: BackendName[] =
    values.backend === "both"
      ? ["pglite", "postgres"]
      : values.backend === "pglite" || values.backend === "postgres"
        ? [values.backend]
        : [];
  if (backends.length === 0) throw new UsageError(`--backend must be pglite, postgres or both, not "${values.backend}"`);
  const repeat = values.quick ? 1 : Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) throw new UsageError(`--repeat must be a whole number >= 1, not "${values.repeat}"`);
  const concurrencies = values.quick ? [16] : [16, 64];
  const scenarios: Scenario[] = [200, 0].flatMap((latencyMs) => concurrencies.map((concurrency) => ({ latencyMs, concurrency })));

  const machine = describeMachine();
  const engineAtStart = engineFingerprint();
  console.log(`Parallaxr throughput: ${cellCount} cells (${mockModelNames.length} mock models x ${rowCount} rows), repeat ${repeat}`);
  console.log(`${machine.cpus} x ${machine.cpuModel}, node ${process.version}; ${machine.uptimeBefore}`);
  console.log(
    `engine: commit ${engineAtStart.commit}${engineAtStart.dirty ? ` + uncommitted changes (lib/supabase ${engineAtStart.sourceHash})` : ""}`,
  );

  const records: RunRecord[] = [];
  let migrationsChanged = false;
  const backendDetails: Record<string, string> = {};
  for (const name of backends) {
    const backend = await openBackend(name);
    backendDetails[name] = backend.detail;
    // lib/ is loaded once at start, but migrations are read when a database opens: a change in
    // between would measure two schemas.
    if (hashFiles([path.join("supabase", "migrations")]) !== engineAtStart.migrationsHash) {
      migrationsChanged = true;
      console.warn(`WARNING: supabase/migrations changed since the bench started; ${name} has a different schema than the first backend`);
    }
    console.log(`\n[${name}] ${backend.detail}`);
    try {
      // Warm-up: JIT, PGlite's caches, the pool's connections. Checked, not counted.
      const warmUp = await measureRun(backend, { latencyMs: 0, concurrency: 64 }, { repeat: 0, warmUp: true, sequence: 0 });
      records.push(warmUp);
      printProgress(warmUp);
      let sequence = 1;
      // Configurations take turns (a round of each, then the next round) so that a burst of load
      // from other processes, or the database growing by 1,000 cells a run, spreads over all of
      // them instead of landing on one.
      for (let round = 1; round <= repeat; round++) {
        for (const scenario of scenarios) {
          const record = await measureRun(backend, scenario, { repeat: round, warmUp: false, sequence: sequence++ });
          records.push(record);
          printProgress(record);
        }
      }
    } finally {
      await backend.close();
    }
  }

  const summaries = summarize(records.filter((record) => !record.warmUp));
  const uptimeAfter = readUptime();
  console.log(`\n${uptimeAfter}\n`);
  printTable(summaries);
  printStatements(records.filter((record) => !record.warmUp));

  const failures = records.filter((record) => record.problems.length > 0);
  const resultsDir = path.join(process.cwd(), "bench", "results");
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, "-").replace(/\..*$/, "");
  const file = path.join(resultsDir, `throughput-${stamp}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { ...machine, uptimeAfter },
        engine: { ...engineAtStart, migrationsChangedDuringBench: migrationsChanged },
        settings: {
          cells: cellCount,
          rows: rowCount,
          models: mockModelNames,
          repeat,
          quick: values.quick,
          pollMs,
          workerMaxInFlight,
          postgresPoolSize: poolSize,
          backends: backendDetails,
          targets: { shareOfIdeal: shareOfIdealTarget, cellsPerSecondAtZeroMs: cellsPerSecondTarget, referenceCellsPerSecond },
        },
        summaries,
        runs: records,
        failures: failures.map((record) => ({
          backend: record.backend,
          latencyMs: record.latencyMs,
          concurrency: record.concurrency,
          repeat: record.repeat,
          problems: record.problems,
        })),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nWrote ${path.relative(process.cwd(), file)}`);

  if (failures.length > 0) {
    console.error(`\nFAILED: ${failures.length} run(s) lost or duplicated a cell or exceeded their concurrency:`);
    for (const record of failures) {
      console.error(`  ${record.backend} ${record.latencyMs} ms c=${record.concurrency} #${record.repeat}: ${record.problems.join("; ")}`);
    }
    process.exitCode = 1;
  }
}

const usage = "Usage: npm run bench -- [--backend pglite|postgres|both] [--repeat N] [--quick]";

function readArguments() {
  try {
    return parseArgs({
      options: {
        backend: { type: "string", default: "both" },
        repeat: { type: "string", default: "3" },
        quick: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

class UsageError extends Error {}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
