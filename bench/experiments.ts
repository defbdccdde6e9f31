/**
 * `parallaxr run`'s speed, as a person meets it (issue 11): the real command started as a
 * subprocess from a temporary directory outside the repository, its `openai-compatible` provider
 * pointed (by that directory's .env) at a local OpenAI-compatible server in this process that
 * answers every call after a fixed latency.
 *
 *   npm run bench:experiments [-- --rows 1000 --sequential-rows 100 --sequential-repeats 3 --latency 200 --starts 5 --launcher bundle|tsx --via-server --against DIR]
 *
 * Three measurements, each beside a baseline measured in the same run: a plain Node script that
 * makes the same calls with fetch at the same concurrency, started the same way (so process
 * start-up, the machine's load and the server's own time are in both).
 *
 * - concurrency 16: wall time of the whole process for --rows rows, against the ideal
 *   (rows x latency / 16); target >= 90% of it.
 * - sequential (the default): (wall - time to the first call) / rows - latency, the overhead per
 *   row; target <= 5 ms. Fewer rows (--sequential-rows), as 1,000 would take 200 s; the median of
 *   --sequential-repeats runs of each program, alternated (one run moves by +-0.5 ms).
 * - start-up: process start to the first call on an existing data folder, median of --starts
 *   one-row runs; target < 1 s. The first open of a new data folder (migrations) is reported apart.
 * - with --via-server (needs `npm run build`): the same start-up with the app's production server
 *   holding the data folder, so the command sends the run there instead of opening PGlite.
 * - with --against DIR (another Parallaxr folder with its packages installed, e.g. a `git worktree`
 *   of an earlier commit with node_modules linked): each measurement is also made with DIR's
 *   command, alternated run by run with this one's on the same data folder, so a before and after
 *   share the machine's drift. DIR must not have migrations this checkout lacks.
 *
 * Prints a table and writes bench/results/experiments-<date>.json (git-ignored). Exits 1 when a
 * run loses or repeats a row (the server counts each row's calls) or exits non-zero; a missed
 * speed target is marked in the table, never fatal. Bad flags exit 2.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { CsvRecordReader } from "@/lib/formats/parse-csv";
import { startProductServer } from "./product/server";
import { describeMachine, engineFingerprint, readUptime } from "./throughput/machine";

const repo = path.resolve(import.meta.dirname, "..");
const bin = path.join(repo, "bin", "parallaxr.mjs");
const model = "bench-model";

interface Call {
  row: number;
  startedAt: number;
  endedAt: number | null;
}

/** An OpenAI-compatible /v1/chat/completions that answers after latencyMs, counting each row's calls. */
async function startServer(latencyMs: number) {
  let calls: Call[] = [];
  let inFlight = 0;
  let peak = 0;
  const answer = (request: IncomingMessage, response: ServerResponse, body: string) => {
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
      return;
    }
    const parsed = JSON.parse(body) as { stream?: boolean; messages: Array<{ content: string }> };
    const prompt = parsed.messages.at(-1)?.content ?? "";
    const call: Call = { row: Number(/Row (\d+):/.exec(prompt)?.[1] ?? -1), startedAt: performance.now(), endedAt: null };
    calls.push(call);
    inFlight++;
    peak = Math.max(peak, inFlight);
    setTimeout(() => {
      const text = `Answer to row ${call.row}.`;
      const usage = { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: 5, total_tokens: Math.ceil(prompt.length / 4) + 5 };
      const base = { id: `chatcmpl-${call.row}`, created: Math.floor(Date.now() / 1000), model };
      if (parsed.stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`);
        chunk({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: text } }] });
        chunk({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage });
        response.end("data: [DONE]\n\n");
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            ...base,
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            usage,
          }),
        );
      }
      inFlight--;
      call.endedAt = performance.now();
    }, latencyMs);
  };
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => answer(request, response, body));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    /** The calls since the last take, and the peak in flight among them. */
    take() {
      const taken = { calls, peak };
      calls = [];
      peak = inFlight;
      return taken;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The baseline: the same calls made by the least a Node program can do, started as a process too.
const baselineScript = `
const [url, rows, concurrency] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
let next = 1;
async function lane() {
  while (next <= rows) {
    const row = next++;
    const response = await fetch(url + "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "${model}", messages: [{ role: "user", content: "Row " + row + ": text of row " + row }] }),
    });
    await response.json();
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

interface Measured {
  what: string;
  program: "parallaxr" | "baseline" | "against";
  rows: number;
  concurrency: number;
  wallMs: number;
  firstCallMs: number | null;
  /** Sequential runs: median time from an answer's end to the next call, at the server. */
  gapMs: number | null;
  /** From the last answer's end to the process's exit. */
  exitMs: number | null;
  peak: number;
  exitCode: number;
  problems: string[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rows: { type: "string", default: "1000" },
      "sequential-rows": { type: "string", default: "100" },
      "sequential-repeats": { type: "string", default: "3" },
      latency: { type: "string", default: "200" },
      starts: { type: "string", default: "5" },
      concurrency: { type: "string", default: "16" },
      launcher: { type: "string", default: "bundle" },
      "via-server": { type: "boolean", default: false },
      against: { type: "string" },
    },
  });
  const [rows, sequentialRows, sequentialRepeats, latencyMs, starts, concurrency] = [
    values.rows,
    values["sequential-rows"],
    values["sequential-repeats"],
    values.latency,
    values.starts,
    values.concurrency,
  ].map(Number);
  if (
    ![rows, sequentialRows, sequentialRepeats, starts, concurrency].every((value) => Number.isInteger(value) && value >= 1) ||
    !(latencyMs >= 0)
  ) {
    console.error(
      "usage: npm run bench:experiments -- [--rows N] [--sequential-rows N] [--sequential-repeats N] [--latency MS] [--starts N] [--concurrency N] [--launcher bundle|tsx] [--via-server] [--against DIR]",
    );
    process.exit(2);
  }
  if (values.launcher !== "bundle" && values.launcher !== "tsx") {
    console.error("--launcher is bundle (the prebuilt CLI, as people run it) or tsx (the sources through tsx, for comparison)");
    process.exit(2);
  }
  const againstBin = values.against ? path.join(path.resolve(values.against), "bin", "parallaxr.mjs") : null;
  if (againstBin && !existsSync(againstBin)) {
    console.error(`--against: no ${againstBin}; give the folder of another Parallaxr checkout`);
    process.exit(2);
  }
  // bin/launch.mjs runs the prebuilt bundle unless PARALLAXR_CLI_TSX=1.
  const launcherEnv = values.launcher === "tsx" ? { PARALLAXR_CLI_TSX: "1" } : {};
  // Parallaxr's own settings (PARALLAXR_*) reach the command, for before-and-after runs of one of them.
  const settingsToPass = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith("PARALLAXR_") && name !== "PARALLAXR_DATA_DIR"),
  );

  const machine = describeMachine();
  const engine = engineFingerprint();
  console.log(
    `parallaxr run: ${rows} rows at concurrency ${concurrency}, ${sequentialRows} sequential (x${sequentialRepeats}), ${starts} starts; ${latencyMs} ms per call; launcher ${values.launcher}`,
  );
  console.log(
    `${machine.cpus} x ${machine.cpuModel}, node ${machine.node}; ${machine.uptimeBefore}; commit ${engine.commit}${engine.dirty ? " (lib/ changed)" : ""}`,
  );

  const server = await startServer(latencyMs);
  const workDir = mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-run-"));
  const dataDir = path.join(workDir, "data");
  writeFileSync(path.join(workDir, ".env"), `OPENAI_COMPATIBLE_BASE_URL=${server.url}\n`);
  writeFileSync(path.join(workDir, "prompt.txt"), "Row {{id}}: {{text}}\n");
  writeFileSync(path.join(workDir, "baseline.mjs"), baselineScript);
  const csvOf = (count: number) => {
    const name = `experiments-${count}.csv`;
    const lines = ["provider,model,id,text"];
    for (let row = 1; row <= count; row++) lines.push(`openai-compatible,${model},${row},text of row ${row}`);
    writeFileSync(path.join(workDir, name), `${lines.join("\n")}\n`);
    return name;
  };
  let outputs = 0;

  async function measure(what: string, program: Measured["program"], count: number, lanes: number, folder = dataDir): Promise<Measured> {
    const args =
      program === "baseline"
        ? [path.join(workDir, "baseline.mjs"), server.url, String(count), String(lanes)]
        : [
            program === "against" ? againstBin! : bin,
            "run",
            "-p",
            "prompt.txt",
            "-e",
            csvOf(count),
            "-o",
            `out-${++outputs}.csv`,
            ...(lanes > 1 ? ["--concurrency", String(lanes)] : []),
          ];
    server.take();
    const startedAt = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: workDir,
      env: {
        ...settingsToPass,
        PATH: process.env.PATH ?? "",
        HOME: workDir,
        PARALLAXR_DATA_DIR: folder,
        ...launcherEnv,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exitCode = await new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
    const wallMs = performance.now() - startedAt;
    const { calls, peak } = server.take();
    const problems: string[] = [];
    if (exitCode !== 0) problems.push(`exit ${exitCode}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`);
    const perRow = new Map<number, number>();
    for (const call of calls) perRow.set(call.row, (perRow.get(call.row) ?? 0) + 1);
    const repeated = [...perRow].filter(([, times]) => times > 1).length;
    if (perRow.size !== count || repeated > 0) problems.push(`${perRow.size} of ${count} rows called, ${repeated} more than once`);
    if (peak > lanes) problems.push(`${peak} calls in flight at concurrency ${lanes}`);
    if (program !== "baseline" && exitCode === 0) {
      const text = readFileSync(path.join(workDir, `out-${outputs}.csv`), "utf8");
      const reader = new CsvRecordReader(text, "out.csv", ",");
      let written = -1;
      for (let record = reader.next(); record !== null; record = reader.next()) {
        if (written >= 0 && record[4] === "error") problems.push(`row ${record[2]}: ${record[9]}`);
        written++;
      }
      if (written !== count) problems.push(`${written} of ${count} rows in the output`);
    }
    const firstCallMs = calls.length > 0 ? Math.min(...calls.map((call) => call.startedAt)) - startedAt : null;
    // Where the rest goes: from an answer to the next call (sequential runs), and from the last answer to the exit.
    const ordered = [...calls].sort((a, b) => a.startedAt - b.startedAt);
    const gaps = ordered.slice(1).map((call, index) => call.startedAt - (ordered[index].endedAt ?? call.startedAt));
    const gapMs = lanes === 1 && gaps.length > 0 ? median(gaps) : null;
    const lastAnswer = Math.max(...calls.map((call) => call.endedAt ?? 0));
    const exitMs = calls.length > 0 ? wallMs - (lastAnswer - startedAt) : null;
    const result = { what, program, rows: count, concurrency: lanes, wallMs, firstCallMs, gapMs, exitMs, peak, exitCode, problems };
    console.log(
      `  ${what.padEnd(22)} ${program.padEnd(9)} wall ${formatMs(wallMs).padStart(9)}  first call ${firstCallMs === null ? "-" : formatMs(firstCallMs)}` +
        `${gapMs === null ? "" : `  answer to next call ${gapMs.toFixed(1)} ms (median)`}${exitMs === null ? "" : `  last answer to exit ${formatMs(exitMs)}`}` +
        `${problems.length > 0 ? `  PROBLEMS: ${problems.join("; ")}` : ""}`,
    );
    return result;
  }

  const results: Measured[] = [];
  try {
    // The first open of a new data folder (it creates the database and runs every migration).
    results.push(await measure("new data folder", "parallaxr", 1, 1));
    // The other checkout's command first in every other round: neither always follows the baseline.
    const programs = (round: number): Array<Measured["program"]> =>
      againstBin
        ? round % 2 === 0
          ? ["baseline", "parallaxr", "against"]
          : ["baseline", "against", "parallaxr"]
        : ["baseline", "parallaxr"];
    for (let start = 0; start < starts; start++) {
      for (const program of programs(start)) results.push(await measure("start-up", program, 1, 1));
    }
    for (let repeat = 0; repeat < sequentialRepeats; repeat++) {
      for (const program of programs(repeat)) results.push(await measure("sequential", program, sequentialRows, 1));
    }
    for (const program of programs(1)) results.push(await measure(`concurrency ${concurrency}`, program, rows, concurrency));
    if (values["via-server"]) {
      // The app's server holds its data folder and calls the fake with its own settings.
      process.env.OPENAI_COMPATIBLE_BASE_URL = server.url;
      const app = await startProductServer({ root: repo, backend: "pglite", port: 3951 });
      try {
        for (let start = 0; start < starts; start++) {
          results.push(await measure("start-up via server", "parallaxr", 1, 1, path.join(app.dataDir, "data")));
        }
      } finally {
        await app.stop();
        await app.dispose();
      }
    }
  } finally {
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  }

  const pick = (what: string, program: Measured["program"]) => results.filter((entry) => entry.what === what && entry.program === program);
  const ideal = (rows * latencyMs) / concurrency;
  const overheadPerRow = (entry: Measured) => (entry.wallMs - (entry.firstCallMs ?? 0)) / entry.rows - latencyMs;
  const startup = (program: Measured["program"]) => median(pick("start-up", program).map((entry) => entry.firstCallMs ?? Number.NaN));
  const againstEntry = (what: string) => pick(what, "against")[0];
  const [parallel, parallelBase] = [pick(`concurrency ${concurrency}`, "parallaxr")[0], pick(`concurrency ${concurrency}`, "baseline")[0]];
  const parallelAgainst = againstBin ? againstEntry(`concurrency ${concurrency}`) : null;
  // The run with the median overhead of each program's sequential repeats.
  const medianRun = (entries: Measured[]) =>
    [...entries].sort((a, b) => overheadPerRow(a) - overheadPerRow(b))[Math.floor((entries.length - 1) / 2)];
  const [sequential, sequentialBase] = [medianRun(pick("sequential", "parallaxr")), medianRun(pick("sequential", "baseline"))];
  const overheads = (program: Measured["program"]) =>
    pick("sequential", program)
      .map((entry) => overheadPerRow(entry).toFixed(1))
      .join(", ");
  const fresh = pick("new data folder", "parallaxr")[0];
  const viaServer = pick("start-up via server", "parallaxr");
  const rowsOfTable = [
    {
      measure: `${rows} rows, --concurrency ${concurrency}: wall (% of ideal ${formatMs(ideal)})`,
      parallaxr: `${formatMs(parallel.wallMs)} (${percent(ideal / parallel.wallMs)})`,
      baseline: `${formatMs(parallelBase.wallMs)} (${percent(ideal / parallelBase.wallMs)})`,
      ratio: (parallel.wallMs / parallelBase.wallMs).toFixed(2),
      target: ideal / parallel.wallMs >= 0.9 ? "met (>= 90%)" : "missed (>= 90%)",
      against: parallelAgainst ? `${formatMs(parallelAgainst.wallMs)} (${percent(ideal / parallelAgainst.wallMs)})` : undefined,
    },
    {
      measure: `${sequentialRows} rows, sequential: overhead per row beyond ${latencyMs} ms (median of ${sequentialRepeats})`,
      parallaxr: `${overheadPerRow(sequential).toFixed(1)} ms (${overheads("parallaxr")})`,
      baseline: `${overheadPerRow(sequentialBase).toFixed(1)} ms (${overheads("baseline")})`,
      ratio: `+${(overheadPerRow(sequential) - overheadPerRow(sequentialBase)).toFixed(1)} ms`,
      target: overheadPerRow(sequential) <= 5 ? "met (<= 5 ms)" : "missed (<= 5 ms)",
      against: againstBin
        ? `${overheadPerRow(medianRun(pick("sequential", "against"))).toFixed(1)} ms (${overheads("against")})`
        : undefined,
    },
    {
      measure: `start to first call, existing folder (median of ${starts})`,
      parallaxr: formatMs(startup("parallaxr")),
      baseline: formatMs(startup("baseline")),
      ratio: (startup("parallaxr") / startup("baseline")).toFixed(2),
      target: startup("parallaxr") < 1000 ? "met (< 1 s)" : "missed (< 1 s)",
      against: againstBin ? formatMs(startup("against")) : undefined,
    },
    {
      measure: "start to first call, new data folder (once)",
      parallaxr: formatMs(fresh.firstCallMs ?? Number.NaN),
      baseline: "-",
      ratio: "-",
      target: "reported",
    },
    ...(viaServer.length > 0
      ? [
          {
            measure: `start to first call, the app's server holding the folder (median of ${viaServer.length})`,
            parallaxr: formatMs(median(viaServer.map((entry) => entry.firstCallMs ?? Number.NaN))),
            baseline: formatMs(startup("baseline")),
            ratio: (median(viaServer.map((entry) => entry.firstCallMs ?? Number.NaN)) / startup("baseline")).toFixed(2),
            target: median(viaServer.map((entry) => entry.firstCallMs ?? Number.NaN)) < 1000 ? "met (< 1 s)" : "missed (< 1 s)",
          },
        ]
      : []),
  ];
  const againstHeader = againstBin ? ` ${path.basename(values.against!)}'s run (alternated) |` : "";
  console.log(
    `\n| measure | parallaxr run | baseline (plain fetch) | ratio | target |${againstHeader}\n|---|---|---|---|---|${againstBin ? "---|" : ""}`,
  );
  for (const row of rowsOfTable) {
    const against = againstBin ? ` ${"against" in row && row.against ? row.against : "-"} |` : "";
    console.log(`| ${row.measure} | ${row.parallaxr} | ${row.baseline} | ${row.ratio} | ${row.target} |${against}`);
  }
  const uptimeAfter = readUptime();
  console.log(`\n${uptimeAfter}`);

  const folder = path.join(repo, "bench", "results");
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `experiments-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify({ machine, engine, uptimeAfter, latencyMs, results, table: rowsOfTable }, null, 2)}\n`);
  console.log(`written to ${path.relative(repo, file)}`);
  if (results.some((entry) => entry.problems.length > 0)) process.exitCode = 1;
}

function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms).toLocaleString("en-US")} ms`;
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

await main();
