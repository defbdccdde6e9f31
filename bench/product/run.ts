/**
 * The product path, measured: a production server of this checkout's build (`next start`, its own
 * port, a fresh data folder or a fresh Postgres database), a local OpenAI-compatible server with a
 * fixed latency, runs of 4 models x ROWS rows created with POST /api/v1/runs and followed on their
 * events stream to the end, as the page does. Prints a markdown table to stdout (logs to stderr):
 * share of ideal, cells/s, the server's event-loop stall, RSS of every server process, disk per
 * cell, and cell-to-paint latency in Chromium. See bench/README.md, "Product path".
 *
 *   npm run build            # once; this script builds nothing
 *   npm run bench:product    # knobs in the environment: BACKEND, ROWS, LATENCY_MS, CONCURRENCY, REPS, PAINT, REST_S, PORT
 *
 * Exit codes: 0 measured; 1 a run lost, duplicated or failed a cell; 2 bad knobs, no current build, or the
 * server would not start.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Browser } from "@playwright/test";
import { checkRun, configureProvider, createRun, followEvents, makeRows, benchModels } from "./drive";
import { startFakeOpenAi, type FakeOpenAi } from "./fake-openai";
import { launchBrowser, measurePaintRun, readFinishTimes, type PaintRun } from "./paint";
import { SetupError, startProductServer, type BackendName, type ProductServer } from "./server";

const usage = `npm run bench:product   (after npm run build)

Environment knobs:
  BACKEND=pglite|postgres|both   default pglite; postgres makes a fresh database on
                                 BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) and drops it
  ROWS=250                       rows per run (x 4 models = cells), 1..25000
  LATENCY_MS=200                 the fake provider's latency for the share-of-ideal runs (0..10000)
  CONCURRENCY=16,64              run concurrencies; each is also run at 0 ms for cells/s
  REPS=3                         rounds; configurations alternate within a round, medians reported
  PAINT=0                        1 adds the Chromium cell-to-paint run (one per round, at the largest concurrency)
  REST_S=40                      seconds the server is left alone after the runs before its RSS at rest is read
                                 (0..600; V8 gives back what the runs' garbage took some 20-30 s after they end)
  PORT=3950                      the server's port (not 3100: the e2e tests use it)
  ANSWER_CHARS=0                 0: each answer is a short echo (~80 characters); more pads it with prose to about
                                 that many characters (the issue's disk target is for ~1,500)
  ANSWER_TEXT=prose              what pads a long answer: prose (a 200-word vocabulary; deflate takes it to a third)
                                 or docs (passages of the project's docs/*.md; deflate takes them to about half)
  CACHE=0                        1 runs with the response cache on; every measured run then has prompts of its own,
                                 so each answer is stored in the cache and none is a hit
  STATEMENTS=0                   1 also times PGlite's work on the server's thread and counts statements
                                 by kind (a probe wraps PGlite; it costs time, so compare runs with the same setting)
  CHROMIUM=/usr/bin/chromium     the browser Playwright drives
  KEEP=0                         1 keeps the data folder (PGlite) or the database (Postgres) afterwards, to look
                                 into (where each relation's bytes go); the server's line above names them
Writes every run to bench/results/product-<date>.json (git-ignored).
Exit codes: 0 measured; 1 a run lost, duplicated or failed a cell; 2 bad knobs, no current build (none, or older than the sources), server would not start.`;

class UsageError extends Error {}

interface Knobs {
  backends: BackendName[];
  rows: number;
  latencyMs: number;
  concurrencies: number[];
  reps: number;
  paint: boolean;
  port: number;
  statements: boolean;
  answerChars: number;
  answerText: "prose" | "docs";
  cache: boolean;
  restSeconds: number;
}

function readKnobs(env: NodeJS.ProcessEnv): Knobs {
  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const text = env[name]?.trim() || String(fallback);
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < min || value > max)
      throw new UsageError(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
    return value;
  };
  const backend = env.BACKEND?.trim() || "pglite";
  if (!["pglite", "postgres", "both"].includes(backend)) throw new UsageError(`BACKEND must be pglite, postgres or both, not "${backend}"`);
  const concurrencies = (env.CONCURRENCY?.trim() || "16,64").split(",").map((part) => {
    const value = Number(part.trim());
    if (!/^\d+$/.test(part.trim()) || value < 1 || value > 1024)
      throw new UsageError(`CONCURRENCY must list whole numbers from 1 to 1024, like 16,64; not "${env.CONCURRENCY}"`);
    return value;
  });
  const paint = env.PAINT?.trim() || "0";
  if (paint !== "0" && paint !== "1") throw new UsageError(`PAINT must be 0 or 1, not "${paint}"`);
  const statements = env.STATEMENTS?.trim() || "0";
  if (statements !== "0" && statements !== "1") throw new UsageError(`STATEMENTS must be 0 or 1, not "${statements}"`);
  const cache = env.CACHE?.trim() || "0";
  if (cache !== "0" && cache !== "1") throw new UsageError(`CACHE must be 0 or 1, not "${cache}"`);
  const answerText = env.ANSWER_TEXT?.trim() || "prose";
  if (answerText !== "prose" && answerText !== "docs") throw new UsageError(`ANSWER_TEXT must be prose or docs, not "${answerText}"`);
  const port = whole("PORT", 3950, 1024, 65535);
  if (port === 3100) throw new UsageError("PORT 3100 is the e2e tests' port: pick another");
  return {
    backends: backend === "both" ? ["pglite", "postgres"] : [backend as BackendName],
    rows: whole("ROWS", 250, 1, 25_000),
    latencyMs: whole("LATENCY_MS", 200, 0, 10_000),
    concurrencies,
    reps: whole("REPS", 3, 1, 50),
    paint: paint === "1",
    port,
    statements: statements === "1",
    answerChars: whole("ANSWER_CHARS", 0, 0, 20_000),
    answerText,
    cache: cache === "1",
    restSeconds: whole("REST_S", 40, 0, 600),
  };
}

interface Scenario {
  latencyMs: number;
  concurrency: number;
}

interface RunRecord extends Scenario {
  backend: BackendName;
  rep: number;
  runId: string;
  cells: number;
  wallMs: number;
  idealMs: number;
  shareOfIdeal: number | null;
  cellsPerSecond: number;
  cellUpdates: number;
  peakInFlight: number;
  loopMaxMs: number;
  loopP99Ms: number;
  peakRssMb: number;
  /** Growth of the stored data over the run, write-ahead log excluded. */
  storageDeltaBytes: number;
  /** Growth of PGlite's write-ahead log over the run (0 on the server: pg_database_size has none). */
  walDeltaBytes: number;
  pgliteMs: number | null;
  statements: { kind: string; count: number; ms: number }[];
  problems: string[];
}

/** The server after its runs: memory, and storage over every cell written. */
interface Idle {
  backend: BackendName;
  afterStartMb: number;
  afterRunsMb: number;
  /** After restSeconds more with nothing asked of the server. */
  atRestMb: number;
  finalStorageBytes: number;
  finalWalBytes: number;
  totalCells: number;
  /** Postgres only: the cells' tables and indexes at the end. */
  relations: { name: string; bytes: number }[] | null;
}

interface PaintRecord {
  backend: BackendName;
  rep: number;
  runId: string;
  painted: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** From finished_at to a Node client of the events stream, over every cell of the run. */
  streamP50Ms: number;
  streamP95Ms: number;
  /** The same cells timed after the frame following their paint (this bench's cell-to-paint until 2026-11-29). */
  nextFrameP95Ms: number;
  /** The cells painted, split: finished_at to the page's own events stream, and from there to the paint. */
  toPageP95Ms: number;
  pageToPaintP95Ms: number;
  /** While the run went: CPU of every browser process, and the page's main thread busy, per second of wall time. */
  browserCpuShare: number | null;
  mainThreadShare: number;
  problems: string[];
}

const log = (message: string) => process.stderr.write(`${message}\n`);

async function main(): Promise<number> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(usage);
    return 0;
  }
  const knobs = readKnobs(process.env);
  const root = path.resolve(import.meta.dirname, "..", "..");
  const rows = makeRows(knobs.rows);
  const cells = rows.length * benchModels.length;
  const latencies = knobs.latencyMs === 0 ? [0] : [knobs.latencyMs, 0];
  const scenarios: Scenario[] = latencies.flatMap((latencyMs) => knobs.concurrencies.map((concurrency) => ({ latencyMs, concurrency })));
  const paintConcurrency = Math.max(...knobs.concurrencies);
  log(`bench:product: ${cells} cells a run (4 models x ${rows.length} rows), ${knobs.reps} rounds, backends ${knobs.backends.join(", ")}`);
  log(
    `machine: ${os.cpus().length} cpus, load ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}; other work on it makes these numbers noisy`,
  );

  const fake = await startFakeOpenAi({ answerText: knobs.answerText });
  let browser: Browser | null = null;
  const records: RunRecord[] = [];
  const paints: PaintRecord[] = [];
  const idle: Idle[] = [];
  try {
    if (knobs.paint) browser = await launchBrowser();
    for (const backend of knobs.backends) {
      const server = await startProductServer({ root, backend, port: knobs.port, countStatements: knobs.statements });
      log(
        `${backend}: server at ${server.url}, data in ${server.databaseUrl ? `${server.databaseUrl} and ` : ""}${path.dirname(server.dataDir)} (log: ${server.log})`,
      );
      const paintRuns: (PaintRun & { rep: number })[] = [];
      let totalCells = 0;
      try {
        await delay(1_000);
        const afterStartMb = server.rssMb();
        await configureProvider(server.url, fake.baseUrl);
        // Warm-up: loads the routes and the provider; checked, not counted.
        fake.reset({ latencyMs: 0, answerChars: knobs.answerChars });
        const warm = await createRun(server.url, rows, paintConcurrency);
        await followEvents(server.url, warm, 300_000);
        const warmProblems = await checkRun(server.url, warm.id, rows);
        if (warmProblems.length > 0) throw new Error(`warm-up run: ${warmProblems.join("; ")}`);
        totalCells += cells;
        for (let rep = 1; rep <= knobs.reps; rep++) {
          for (const scenario of scenarios) {
            const runRows = knobs.cache
              ? makeRows(knobs.rows, `${backend} round ${rep}, ${scenario.latencyMs} ms c${scenario.concurrency}`)
              : rows;
            const record = await measureRun({ backend, server, fake, rows: runRows, scenario, rep, knobs });
            records.push(record);
            totalCells += cells;
            log(
              `${backend} round ${rep}: ${scenario.latencyMs} ms c${scenario.concurrency}: ${(record.wallMs / 1000).toFixed(2)} s` +
                (record.shareOfIdeal !== null ? `, ${(record.shareOfIdeal * 100).toFixed(1)}% of ideal` : "") +
                `, ${record.cellsPerSecond.toFixed(0)} cells/s, loop max ${record.loopMaxMs} ms p99 ${record.loopP99Ms} ms, RSS ${record.peakRssMb.toFixed(0)} MB` +
                (record.problems.length ? `; PROBLEMS: ${record.problems.join("; ")}` : ""),
            );
          }
          if (browser) {
            const paintRun = await measurePaintRun({
              browser,
              server,
              fake,
              rows,
              latencyMs: knobs.latencyMs,
              concurrency: paintConcurrency,
              answerChars: knobs.answerChars,
            });
            paintRuns.push({ rep, ...paintRun });
            totalCells += cells;
            log(
              `${backend} round ${rep}: paint run ${paintRun.runId} painted ${[...paintRun.paints.values()].filter((at) => at > 0).length} cells`,
            );
          }
        }
        await delay(1_000);
        const afterRunsMb = server.rssMb();
        if (knobs.restSeconds > 0) log(`${backend}: leaving the server alone for ${knobs.restSeconds} s to read its RSS at rest`);
        await delay(knobs.restSeconds * 1_000);
        const atRestMb = server.rssMb();
        await server.stop();
        const finalStorageBytes = await server.storageBytes();
        idle.push({
          backend,
          afterStartMb,
          afterRunsMb,
          atRestMb,
          finalStorageBytes,
          finalWalBytes: server.walBytes(),
          totalCells,
          relations: await server.relationBytes(),
        });
        if (paintRuns.length > 0) {
          const finishes = await readFinishTimes(
            server,
            paintRuns.map((run) => run.runId),
          );
          for (const run of paintRuns) {
            const finished = finishes.get(run.runId) ?? new Map<string, number>();
            const latencies = sinceFinished(finished, run.paints);
            const toNextFrame = sinceFinished(finished, run.nextFrames);
            const streamLatencies = sinceFinished(finished, run.streamed);
            // The cells painted, split: from finished_at to the page's stream, and from there to the paint.
            const toPage: number[] = [];
            const pageToPaint: number[] = [];
            for (const [key, paintedAt] of run.paints) {
              const finishedAt = finished.get(key);
              const arrivedAt = run.arrivals.get(key);
              if (paintedAt <= 0 || finishedAt === undefined || arrivedAt === undefined) continue;
              toPage.push(arrivedAt - finishedAt);
              pageToPaint.push(paintedAt - arrivedAt);
            }
            const { wallMs, cpuMs, mainThreadMs } = run.browserUse;
            const browserCpuShare = cpuMs === null ? null : cpuMs / wallMs;
            const mainThreadShare = mainThreadMs / wallMs;
            const problems = [...run.problems];
            // Only the cells on screen are painted (the grid is virtualised); each must match its finish.
            const painted = [...run.paints.values()].filter((at) => at > 0).length;
            if (painted === 0 || latencies.length !== painted)
              problems.push(`run ${run.runId}: ${latencies.length} of the ${painted} cells painted matched a finish time`);
            paints.push({
              backend,
              rep: run.rep,
              runId: run.runId,
              painted: latencies.length,
              p50Ms: quantile(latencies, 0.5),
              p95Ms: quantile(latencies, 0.95),
              maxMs: Math.max(...latencies),
              streamP50Ms: quantile(streamLatencies, 0.5),
              streamP95Ms: quantile(streamLatencies, 0.95),
              nextFrameP95Ms: quantile(toNextFrame, 0.95),
              toPageP95Ms: quantile(toPage, 0.95),
              pageToPaintP95Ms: quantile(pageToPaint, 0.95),
              browserCpuShare,
              mainThreadShare,
              problems,
            });
            log(
              `${backend} round ${run.rep}: cell-to-paint p50 ${quantile(latencies, 0.5).toFixed(0)} ms, p95 ${quantile(latencies, 0.95).toFixed(0)} ms (${latencies.length} cells on screen); ` +
                `(to the frame after: p50 ${quantile(toNextFrame, 0.5).toFixed(0)} ms, p95 ${quantile(toNextFrame, 0.95).toFixed(0)} ms); ` +
                `browser CPU ${browserCpuShare === null ? "-" : (browserCpuShare * 100).toFixed(0) + "%"}, ` +
                `its main thread busy ${(mainThreadShare * 100).toFixed(0)}%; ` +
                `those cells to the page's events stream p50 ${quantile(toPage, 0.5).toFixed(0)} ms, p95 ${quantile(toPage, 0.95).toFixed(0)} ms, ` +
                `from there to the paint p50 ${quantile(pageToPaint, 0.5).toFixed(0)} ms, p95 ${quantile(pageToPaint, 0.95).toFixed(0)} ms; ` +
                `to a Node client's events stream p50 ${quantile(streamLatencies, 0.5).toFixed(0)} ms, p95 ${quantile(streamLatencies, 0.95).toFixed(0)} ms (${streamLatencies.length} cells)`,
            );
          }
        }
      } finally {
        await server.dispose();
      }
    }
  } finally {
    await browser?.close();
    await fake.close();
  }

  printReport({ knobs, cells, scenarios, records, paints, idle, paintConcurrency });
  const resultsDir = path.join(root, "bench", "results");
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `product-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify({ knobs, cells, load: os.loadavg(), records, paints, idle }, null, 2));
  log(`every run: ${file}`);
  const problems = [...records.flatMap((record) => record.problems), ...paints.flatMap((paint) => paint.problems)];
  for (const problem of problems) log(`PROBLEM: ${problem}`);
  return problems.length > 0 ? 1 : 0;
}

async function measureRun(input: {
  backend: BackendName;
  server: ProductServer;
  fake: FakeOpenAi;
  rows: ReturnType<typeof makeRows>;
  scenario: Scenario;
  rep: number;
  knobs: Knobs;
}): Promise<RunRecord> {
  const { backend, server, fake, rows, scenario, rep, knobs } = input;
  const cells = rows.length * benchModels.length;
  fake.reset({ latencyMs: scenario.latencyMs, answerChars: knobs.answerChars });
  const storageBefore = await server.storageBytes();
  const walBefore = server.walBytes();
  await server.loopStats(); // starts the server's loop histograms over
  let peakRssMb = server.rssMb();
  const sampler = setInterval(() => (peakRssMb = Math.max(peakRssMb, server.rssMb())), 100);
  const started = performance.now();
  let runId = "";
  let cellUpdates = 0;
  try {
    const run = await createRun(server.url, rows, scenario.concurrency, knobs.cache);
    runId = run.id;
    cellUpdates = await followEvents(server.url, run, 300_000);
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - started;
  const loops = await server.loopStats();
  for (const loop of loops)
    if (loop.memoryMb) process.stderr.write(`  memory of ${loop.pid}'s main thread after the run (MB): ${JSON.stringify(loop.memoryMb)}\n`);
  const problems = await checkRun(server.url, runId, rows);
  const { calls, peakInFlight } = fake.stats();
  if (calls !== cells) problems.push(`run ${runId}: the provider answered ${calls} calls for ${cells} cells`);
  if (peakInFlight > scenario.concurrency)
    problems.push(`run ${runId}: ${peakInFlight} calls in flight at once, over the concurrency ${scenario.concurrency}`);
  const storageAfter = await server.storageBytes();
  const walAfter = server.walBytes();
  const idealMs = (cells * scenario.latencyMs) / scenario.concurrency;
  return {
    backend,
    rep,
    ...scenario,
    runId,
    cells,
    wallMs,
    idealMs,
    shareOfIdeal: scenario.latencyMs > 0 ? idealMs / wallMs : null,
    cellsPerSecond: cells / (wallMs / 1000),
    cellUpdates,
    peakInFlight,
    loopMaxMs: Math.max(0, ...loops.map((loop) => loop.maxMs)),
    loopP99Ms: Math.max(0, ...loops.map((loop) => loop.p99Ms)),
    peakRssMb,
    storageDeltaBytes: storageAfter - walAfter - (storageBefore - walBefore),
    walDeltaBytes: walAfter - walBefore,
    pgliteMs: loops.some((loop) => loop.pgliteMs !== undefined) ? loops.reduce((sum, loop) => sum + (loop.pgliteMs ?? 0), 0) : null,
    statements: loops.flatMap((loop) => loop.statements ?? []),
    problems,
  };
}

function printReport(input: {
  knobs: Knobs;
  cells: number;
  scenarios: Scenario[];
  records: RunRecord[];
  paints: PaintRecord[];
  idle: Idle[];
  paintConcurrency: number;
}): void {
  const { knobs, cells, scenarios, records, paints, idle } = input;
  const out: string[] = [];
  out.push(
    `Product path: ${cells} cells a run (4 models x ${knobs.rows} rows), cache ${knobs.cache ? "on (no hits)" : "off"}, answers of ${
      knobs.answerChars > 0 ? `${knobs.answerChars} (${knobs.answerText})` : "~80"
    } characters, medians (min-max) of ${knobs.reps} rounds; load ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")} at the end`,
  );
  out.push("");
  out.push(
    "| backend | latency | conc | wall | % of ideal | cells/s | loop stall max | loop p99 | peak RSS (all processes) | disk/cell | WAL/cell |",
  );
  out.push("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const backend of knobs.backends) {
    for (const scenario of scenarios) {
      const rs = records.filter(
        (record) => record.backend === backend && record.latencyMs === scenario.latencyMs && record.concurrency === scenario.concurrency,
      );
      if (rs.length === 0) continue;
      const share = rs.filter((record) => record.shareOfIdeal !== null).map((record) => record.shareOfIdeal! * 100);
      out.push(
        `| ${backend === "pglite" ? "PGlite" : "Postgres"} | ${scenario.latencyMs} ms | ${scenario.concurrency} | ${spread(
          rs.map((record) => record.wallMs / 1000),
          2,
          " s",
        )} | ` +
          `${share.length ? spread(share, 1, "%") : "-"} | ${spread(
            rs.map((record) => record.cellsPerSecond),
            0,
          )} | ${spread(
            rs.map((record) => record.loopMaxMs),
            0,
            " ms",
          )} | ` +
          `${spread(
            rs.map((record) => record.loopP99Ms),
            0,
            " ms",
          )} | ${spread(
            rs.map((record) => record.peakRssMb),
            0,
            " MB",
          )} | ` +
          `${spread(
            rs.map((record) => record.storageDeltaBytes / record.cells / 1024),
            1,
            " KB",
          )} | ${
            backend === "pglite"
              ? spread(
                  rs.map((record) => record.walDeltaBytes / record.cells / 1024),
                  1,
                  " KB",
                )
              : "-"
          } |`,
      );
    }
  }
  out.push("");
  out.push(
    `| backend | RSS after start | RSS after the runs | RSS at rest (${knobs.restSeconds} s later) | storage at the end / cells | cell-to-paint p50 | p95 | max | cell-to-stream p50 | p95 |`,
  );
  out.push("|---|---|---|---|---|---|---|---|---|---|");
  for (const backend of knobs.backends) {
    const at = idle.find((entry) => entry.backend === backend);
    const ps = paints.filter((paint) => paint.backend === backend);
    out.push(
      `| ${backend === "pglite" ? "PGlite" : "Postgres"} | ${at ? at.afterStartMb.toFixed(0) + " MB" : "-"} | ${at ? at.afterRunsMb.toFixed(0) + " MB" : "-"} | ${at ? at.atRestMb.toFixed(0) + " MB" : "-"} | ` +
        `${
          at
            ? (at.finalStorageBytes / at.totalCells / 1024).toFixed(1) +
              ` KB (${(at.finalStorageBytes / 2 ** 20).toFixed(0)} MB / ${at.totalCells}` +
              (backend === "pglite" ? `; WAL ${(at.finalWalBytes / 2 ** 20).toFixed(0)} MB of it)` : ")")
            : "-"
        } | ` +
        `${
          ps.length
            ? spread(
                ps.map((paint) => paint.p50Ms),
                0,
                " ms",
              )
            : "-"
        } | ${
          ps.length
            ? spread(
                ps.map((paint) => paint.p95Ms),
                0,
                " ms",
              )
            : "-"
        } | ${
          ps.length
            ? spread(
                ps.map((paint) => paint.maxMs),
                0,
                " ms",
              )
            : "-"
        } | ${
          ps.length
            ? spread(
                ps.map((paint) => paint.streamP50Ms),
                0,
                " ms",
              )
            : "-"
        } | ${
          ps.length
            ? spread(
                ps.map((paint) => paint.streamP95Ms),
                0,
                " ms",
              )
            : "-"
        } |`,
    );
  }
  out.push("");
  if (paints.length > 0) {
    out.push(
      "| backend | cell-to-paint p95 | to the frame after, p95 | to the page's events stream, p95 | from there to the paint, p95 | browser CPU (all processes) | page's main thread busy |",
    );
    out.push("|---|---|---|---|---|---|---|");
    for (const backend of knobs.backends) {
      const ps = paints.filter((paint) => paint.backend === backend);
      if (ps.length === 0) continue;
      const ms = (pick: (paint: PaintRecord) => number) => spread(ps.map(pick), 0, " ms");
      const cpu = ps.every((paint) => paint.browserCpuShare !== null)
        ? spread(
            ps.map((paint) => paint.browserCpuShare! * 100),
            0,
            "% of a core",
          )
        : "-";
      out.push(
        `| ${backend === "pglite" ? "PGlite" : "Postgres"} | ${ms((paint) => paint.p95Ms)} | ${ms((paint) => paint.nextFrameP95Ms)} | ` +
          `${ms((paint) => paint.toPageP95Ms)} | ${ms((paint) => paint.pageToPaintP95Ms)} | ${cpu} | ${spread(
            ps.map((paint) => paint.mainThreadShare * 100),
            0,
            "%",
          )} |`,
      );
    }
    out.push("");
  }
  for (const at of idle.filter((entry) => entry.relations)) {
    out.push(
      `Where a cell's bytes go on Postgres (${at.totalCells} cells, with TOAST): ` +
        at.relations!.map((relation) => `${relation.name} ${(relation.bytes / at.totalCells / 1024 || 0).toFixed(2)} KB`).join(", "),
    );
    out.push("");
  }
  if (knobs.statements) printStatements(out, knobs, scenarios, records);
  out.push(
    `% of ideal = cells x latency / concurrency over the wall time from POST /api/v1/runs to run-end on the events stream. Loop stall: the server's monitorEventLoopDelay (max and p99 over its processes). Cell-to-paint: ${knobs.latencyMs} ms, concurrency ${input.paintConcurrency}, from finished_at in the database to the paint of the frame that showed the cell finished (the cells on screen, in the middle of the grid; "to the frame after": to the end of the frame after that one, as this bench timed it until 2026-11-29); cell-to-stream: to a Node client of the same events stream (every cell). Browser CPU: every Chromium process, per second of the paint run.`,
  );
  console.log(out.join("\n"));
}

/** Time in PGlite on the server's thread and statements per cell, and the statements that took most of it. */
function printStatements(out: string[], knobs: Knobs, scenarios: Scenario[], records: RunRecord[]): void {
  out.push(
    "| backend | latency | conc | PGlite ms/cell | PGlite share of wall | statements/cell | most time: calls/cell, ms/cell (all rounds) |",
  );
  out.push("|---|---|---|---|---|---|---|");
  for (const backend of knobs.backends) {
    for (const scenario of scenarios) {
      const rs = records.filter(
        (record) =>
          record.backend === backend &&
          record.latencyMs === scenario.latencyMs &&
          record.concurrency === scenario.concurrency &&
          record.pgliteMs !== null,
      );
      if (rs.length === 0) continue;
      const byKind = new Map<string, { count: number; ms: number }>();
      for (const record of rs)
        for (const statement of record.statements) {
          const entry = byKind.get(statement.kind) ?? { count: 0, ms: 0 };
          entry.count += statement.count;
          entry.ms += statement.ms;
          byKind.set(statement.kind, entry);
        }
      const cells = rs.reduce((sum, record) => sum + record.cells, 0);
      const top = [...byKind]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 4)
        .map(
          ([kind, entry]) =>
            `\`${kind.replace(/[|`]/g, " ").slice(0, 40)}\` ${(entry.count / cells).toFixed(2)}, ${(entry.ms / cells).toFixed(2)}`,
        )
        .join("; ");
      out.push(
        `| ${backend === "pglite" ? "PGlite" : "Postgres"} | ${scenario.latencyMs} ms | ${scenario.concurrency} | ${spread(
          rs.map((record) => record.pgliteMs! / record.cells),
          2,
        )} | ` +
          `${spread(
            rs.map((record) => (100 * record.pgliteMs!) / record.wallMs),
            0,
            "%",
          )} | ` +
          `${spread(
            rs.map((record) => record.statements.reduce((sum, statement) => sum + statement.count, 0) / record.cells),
            2,
          )} | ${top} |`,
      );
    }
  }
  out.push("");
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = (sorted.length - 1) * q;
  const low = Math.floor(index);
  return sorted[low] + (sorted[Math.ceil(index)] - sorted[low]) * (index - low);
}

/** Each time (epoch ms, by "row/column") minus that cell's finished_at, for the cells with both; times of 0 or less are not taken (a cell noted, not yet painted). */
function sinceFinished(finished: Map<string, number>, times: Map<string, number>): number[] {
  const latencies: number[] = [];
  for (const [key, at] of times) {
    const finishedAt = finished.get(key);
    if (at > 0 && finishedAt !== undefined) latencies.push(at - finishedAt);
  }
  return latencies;
}

function spread(values: number[], digits: number, unit = ""): string {
  const format = (value: number) => value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const median = quantile(values, 0.5);
  if (values.length === 1) return `${format(median)}${unit}`;
  return `${format(median)}${unit} (${format(Math.min(...values))}-${format(Math.max(...values))})`;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof SetupError) {
      log(`bench:product: ${error.message}`);
      if (error instanceof UsageError) log("npm run bench:product -- --help lists the knobs.");
      process.exit(2);
    }
    log(`bench:product failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
