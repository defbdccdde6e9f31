/**
 * Large runs: how long creating a 100,000-cell and a 200,000-cell run takes, how long cancelling
 * the 200,000-cell run takes, and how long a concurrent `select 1` (what GET /api/v1/health
 * sends) waits meanwhile, on PGlite (on disk, as the embedded default) and on the Postgres server.
 *
 *   npx tsx bench/run-size.ts [--backend pglite|postgres|both] [--repeat N]
 *
 * No worker runs: the numbers are the planner's and the cancel's alone. Prints a table and writes
 * bench/results/run-size-<date>.json. Exits 1 when a run does not end up with every cell
 * inserted, or a cancel leaves a cell queued.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Database } from "@/lib/db/database";
import { createServerTestDatabase } from "../tests/helpers/databases";
import { openDatabase } from "@/lib/db/open-database";
import { createRun } from "@/lib/engine/create-run";
import { changeRunStatus } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";

const models = ["fast", "echo", "slow", "mock"];
// 25,000 and 50,000 rows x 4 models: the sizes of the cap (200,000) and of half of it.
const sizes = [100_000, 200_000];
// How often the probe asks; a wait is measured from when it meant to ask to when it got the answer.
const probeEveryMs = 10;

type BackendName = "pglite" | "postgres";

/** One measured operation. */
interface Measurement {
  backend: BackendName;
  operation: string;
  cells: number;
  repeat: number;
  wallMs: number;
  /** Longest wait of a concurrent `select 1`, from when it was due to its answer. */
  longestProbeMs: number;
  probes: number;
  problems: string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { backend: { type: "string", default: "both" }, repeat: { type: "string", default: "1" } },
  });
  const backends: BackendName[] = values.backend === "both" ? ["pglite", "postgres"] : [values.backend as BackendName];
  const repeat = Number(values.repeat);
  if (!backends.every((name) => name === "pglite" || name === "postgres") || !Number.isInteger(repeat) || repeat < 1) {
    console.error("usage: npx tsx bench/run-size.ts [--backend pglite|postgres|both] [--repeat N]");
    process.exit(2);
  }
  console.log(
    `Parallaxr run sizes: create ${sizes.join(" and ")} cells (${models.length} mock models), cancel the largest; repeat ${repeat}`,
  );
  console.log(`${os.cpus().length} x ${os.cpus()[0]?.model}, node ${process.version}; ${readUptime()}; commit ${commitOf()}`);
  const providers = createProviderRegistry([createMockProvider()]);
  const measurements: Measurement[] = [];
  for (const name of backends) {
    const backend = await openBackend(name);
    try {
      // Warm-up: the JIT, PGlite's caches and the pool's connections.
      const warmUser = randomUUID();
      const warm = await createRun({ db: backend.db, providers }, { userId: warmUser, input: input(1_000) });
      await changeRunStatus({ db: backend.db }, { userId: warmUser, runId: warm.id, action: "cancel" });
      for (let round = 1; round <= repeat; round++) {
        // A user of its own per round, so the per-user queue never holds this round back.
        const userId = randomUUID();
        for (const cells of sizes) {
          let runId = "";
          const created = await measure(backend, `create`, cells, round, async () => {
            runId = (await createRun({ db: backend.db, providers }, { userId, input: input(cells) })).id;
          });
          const inserted = await countCells(backend.db, runId);
          if (inserted.total !== cells) created.problems.push(`${inserted.total} cells inserted, not ${cells}`);
          measurements.push(created);
          print(created);
          const cancelled = await measure(backend, "cancel", cells, round, async () => {
            await changeRunStatus({ db: backend.db }, { userId, runId, action: "cancel" });
          });
          const after = await countCells(backend.db, runId);
          if (after.open !== 0) cancelled.problems.push(`${after.open} cells still queued or running after the cancel`);
          measurements.push(cancelled);
          print(cancelled);
        }
      }
    } finally {
      await backend.close();
    }
  }
  console.log(`\n${readUptime()}\n`);
  console.log("| backend | operation | cells | wall (median, min-max) | longest select 1 wait (max) |");
  console.log("|---|---|---|---|---|");
  for (const name of backends) {
    for (const cells of sizes) {
      for (const operation of ["create", "cancel"]) {
        const group = measurements.filter((m) => m.backend === name && m.cells === cells && m.operation === operation);
        if (group.length === 0) continue;
        const walls = group.map((m) => m.wallMs).sort((a, b) => a - b);
        console.log(
          `| ${name} | ${operation} | ${cells.toLocaleString("en")} | ${ms(walls[Math.floor(walls.length / 2)])} (${ms(walls[0])}-${ms(walls.at(-1)!)}) | ${ms(Math.max(...group.map((m) => m.longestProbeMs)))} |`,
        );
      }
    }
  }
  const resultsDir = path.join(process.cwd(), "bench", "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `run-size-${new Date().toISOString().replace(/:/g, "-").replace(/\..*$/, "")}.json`);
  writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), commit: commitOf(), measurements }, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), file)}`);
  const problems = measurements.flatMap((m) => m.problems.map((problem) => `${m.backend} ${m.operation} ${m.cells}: ${problem}`));
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
}

/** A run request of `cells` cells: cells / 4 short rows x the four mock models. */
function input(cells: number) {
  return {
    prompt: "Summarise item {{id}}: {{text}}",
    rows: Array.from({ length: cells / models.length }, (_, index) => ({ id: String(index), text: `row ${index} of a large run` })),
    models: models.map((model) => ({ provider: "mock", model, params: { latencyMs: 0, jitterMs: 0 } })),
  };
}

/** Times operation while a probe sends `select 1` every probeEveryMs and keeps its longest wait. */
async function measure(
  backend: { name: BackendName; db: Database },
  operation: string,
  cells: number,
  repeat: number,
  run: () => Promise<void>,
): Promise<Measurement> {
  let stopped = false;
  let longestProbeMs = 0;
  let probes = 0;
  const probe = (async () => {
    let due = performance.now();
    // The probe that is due when the operation ends still asks and counts: on PGlite a statement
    // blocks this thread, so the timer of a waiting probe fires only when the operation is over.
    for (;;) {
      await backend.db.query("select 1");
      const answered = performance.now();
      longestProbeMs = Math.max(longestProbeMs, answered - due);
      probes++;
      if (stopped) break;
      due = answered + probeEveryMs;
      await new Promise((resolve) => setTimeout(resolve, probeEveryMs));
    }
  })();
  const start = performance.now();
  const problems: string[] = [];
  try {
    await run();
  } catch (error) {
    problems.push(`failed: ${(error as Error).message}`);
  }
  const wallMs = performance.now() - start;
  stopped = true;
  await probe;
  return { backend: backend.name, operation, cells, repeat, wallMs, longestProbeMs, probes, problems };
}

async function countCells(db: Database, runId: string): Promise<{ total: number; open: number }> {
  if (!runId) return { total: 0, open: 0 };
  const { rows } = await db.query<{ total: number; open: number }>(
    "select count(*)::int as total, (count(*) filter (where status in ('queued', 'running')))::int as open from run_cells where run_id = $1",
    [runId],
  );
  return rows[0];
}

async function openBackend(name: BackendName): Promise<{ name: BackendName; db: Database; close(): Promise<void> }> {
  if (name === "pglite") {
    const folder = mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-size-"));
    const db = await openDatabase({ dataDir: folder });
    return {
      name,
      db,
      close: async () => {
        await db.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const server = await createServerTestDatabase();
  return { name, db: server.db, close: () => server.drop() };
}

function print(m: Measurement): void {
  console.log(
    `[${m.backend}] ${m.operation} ${m.cells.toLocaleString("en")} cells: ${ms(m.wallMs)}, longest select 1 wait ${ms(m.longestProbeMs)} over ${m.probes} probes${m.problems.length ? ` PROBLEMS: ${m.problems.join("; ")}` : ""}`,
  );
}

const ms = (value: number) => (value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value).toLocaleString("en")} ms`);

function readUptime(): string {
  return execFileSync("uptime", { encoding: "utf8" }).trim();
}

function commitOf(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "lib", "supabase"], { encoding: "utf8" }).trim() !== "";
    return dirty ? `${commit}+changes` : commit;
  } catch {
    return "unknown";
  }
}

await main();
