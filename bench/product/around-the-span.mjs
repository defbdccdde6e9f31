// Where a run's wall goes around its calls, through the shared harness: a production server of
// this checkout's build (`next start`, a fresh PGlite data folder, or DATABASE_URL's database),
// the harness's run-bench.mjs with its fake OpenAI server and /usr/bin/time, and as its command
// this file in --drive mode, which sends the harness driver's requests (parallaxr-run/drive.mjs:
// PUT keys, PUT limits, POST /api/v1/runs, the events stream to run-end, GET the run) and notes
// the time after each. The fake server's span (first request to last answer) is what a tool's
// calls take; the steps are what the harness's wall adds to it.
//
//   npm run build
//   node bench/product/around-the-span.mjs       # CONC=64 LATENCY=200 REPS=5 PORT=3961
//
// HARNESS (default ../shared/bench-side-by-side beside the checkout) can be set. Prints a
// Markdown table, one row per run, to stdout; logs go to stderr. Exit codes: 0 measured; 1 a run
// failed or a cell was not answered; 2 no harness, no build, bad settings, or the server would
// not start.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { TextDecoder } from "node:util";

const self = fileURLToPath(import.meta.url);
const root = path.join(path.dirname(self), "..", "..");
const args = process.argv.slice(2);
const flag = (name) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};

if (args.includes("--drive")) await drive();
else await measure();

/** One run as the harness's driver makes it, each step timed (epoch milliseconds, as the fake server's stats). */
async function drive() {
  const server = flag("server");
  const concurrency = Number(flag("concurrency"));
  const base = process.env.FAKE_BASE_URL;
  const marks = { started: Math.round(performance.timeOrigin) };
  const call = async (method, pathname, body) => {
    const response = await fetch(server + pathname, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} -> ${response.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  const rows = parseCsv(readFileSync(flag("csv"), "utf8"));
  marks.read = Date.now();
  await call("PUT", "/api/v1/keys/openai-compatible", { baseUrl: base });
  marks.keys = Date.now();
  await call("PUT", "/api/v1/limits/openai-compatible", { maxConcurrency: null, requestsPerMinute: null, tokensPerMinute: null });
  marks.limits = Date.now();
  const models = ["fake-a", "fake-b", "fake-c", "fake-d"].map((model) => ({ provider: "openai-compatible", model }));
  const run = await call("POST", "/api/v1/runs", {
    prompt: "Topic: {{topic}}. {{text}}",
    rows,
    models,
    concurrency,
    cache: false,
    maxAttempts: 4,
  });
  marks.posted = Date.now();
  const events = await fetch(`${server}/api/v1/runs/${run.id}/events?outputChars=0&after=${run.cursor}`);
  const reader = events.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!/^event: run-end$/m.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text = (text + decoder.decode(value, { stream: true })).slice(-4096);
  }
  reader.cancel().catch(() => {});
  marks.runEnd = Date.now();
  const final = await call("GET", `/api/v1/runs/${run.id}?outputChars=200`);
  marks.got = Date.now();
  const answered = final.cells.filter((cell) => cell.status === "ok" || cell.status === "warning").length;
  console.log("AROUND_THE_SPAN " + JSON.stringify({ marks, status: final.status, answered, expected: rows.length * 4 }));
  process.exit(final.status === "completed" && answered === rows.length * 4 ? 0 : 1);
}

/** RFC 4180, as the harness's driver reads its dataset. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      field = "";
      if (row.length > 1 || row[0] !== "") rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [head, ...body] = rows;
  return body.map((values) => Object.fromEntries(head.map((name, i) => [name, values[i] ?? ""])));
}

async function measure() {
  const harness = process.env.HARNESS ?? path.join(root, "..", "shared", "bench-side-by-side");
  const concurrency = Number(process.env.CONC ?? 64);
  const latency = Number(process.env.LATENCY ?? 200);
  const reps = Number(process.env.REPS ?? 5);
  const port = Number(process.env.PORT ?? 3961);
  if (!existsSync(path.join(harness, "run-bench.mjs"))) {
    console.error(`no harness at ${harness}: set HARNESS to the shared harness's folder`);
    process.exit(2);
  }
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.error("no build: run `npm run build` first");
    process.exit(2);
  }
  if (![concurrency, latency, reps, port].every((n) => Number.isInteger(n) && n >= 0) || concurrency < 1 || reps < 1) {
    console.error("CONC, LATENCY, REPS and PORT take whole numbers (CONC and REPS at least 1)");
    process.exit(2);
  }
  const work = mkdtempSync(path.join(os.tmpdir(), "parallaxr-around-"));
  const csv = path.join(work, "dataset-250.csv");
  writeFileSync(csv, await output(process.execPath, [path.join(harness, "make-dataset.mjs"), "250"]));
  const serverUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], {
    cwd: root,
    env: { ...process.env, PARALLAXR_DATA_DIR: path.join(work, "data"), NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const stop = () => {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  process.on("exit", stop);
  if (!(await healthy(serverUrl))) {
    console.error(`the server did not answer ${serverUrl}/api/v1/health within 120 s`);
    process.exit(2);
  }
  const results = path.join(work, "results.jsonl");
  const runBench = (label, runLatency, width) =>
    output(
      process.execPath,
      [
        path.join(harness, "run-bench.mjs"),
        ...["--label", label, "--latency", String(runLatency), "--concurrency", String(width), "--cells", "1000", "--results", results],
        "--",
        ...[process.execPath, self, "--drive", "--server", serverUrl, "--csv", csv, "--concurrency", String(width)],
      ],
      { allowFailure: true },
    );
  console.error("warming up (one run at 0 ms, 16 wide)");
  await runBench("warm", 0, 16);
  const ideal = (1000 * latency) / 1000 / concurrency;
  console.log(`around the span: 1,000 cells, ${latency} ms a call, ${concurrency} wide (ideal ${ideal.toFixed(3)} s)`);
  console.log(
    "| run | wall s | span s | % of ideal (wall) | Node start to the first request | PUT keys | PUT limits | POST to the first call | last answer to run-end | GET | after the GET |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  let failed = false;
  for (let rep = 1; rep <= reps; rep++) {
    const label = `around-${rep}`;
    await runBench(label, latency, concurrency);
    const logs = path.join(work, "logs");
    const line = readFileSync(path.join(logs, `${label}.log`), "utf8").match(/AROUND_THE_SPAN (.*)/);
    const result = JSON.parse(readFileSync(results, "utf8").trim().split("\n").at(-1));
    const stats = JSON.parse(readFileSync(path.join(logs, `${label}.server.json`), "utf8"));
    if (!line || result.rc !== 0) {
      console.error(`run ${rep} failed: see ${path.join(logs, `${label}.log`)}`);
      failed = true;
      continue;
    }
    const { marks } = JSON.parse(line[1]);
    const ms = (from, to) => `${Math.round(to - from)} ms`;
    const wallMs = result.wallS * 1000;
    console.log(
      `| ${rep} | ${result.wallS.toFixed(2)} | ${result.serverActiveSpanS.toFixed(2)} | ${((100 * ideal) / result.wallS).toFixed(1)}% | ` +
        `${ms(marks.started, marks.read)} | ${ms(marks.read, marks.keys)} | ${ms(marks.keys, marks.limits)} | ` +
        `${ms(marks.limits, stats.firstRequestAt)} | ${ms(stats.lastResponseAt, marks.runEnd)} | ${ms(marks.runEnd, marks.got)} | ` +
        `${Math.round(wallMs - (marks.got - marks.started))} ms |`,
    );
  }
  console.log(
    "\nNode start to the first request: from the driver's process start (performance.timeOrigin) to its dataset read. " +
      "PUT keys includes the driver's first fetch (undici loading). After the GET: the wall (/usr/bin/time) less the driver's own clock: " +
      "its exit, and the moments before its clock starts.",
  );
  stop();
  process.exit(failed ? 1 : 0);
}

function output(command, commandArgs, { allowFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 || allowFailure ? resolve(text) : reject(new Error(`${command} exited ${code}`))));
  });
}

async function healthy(url) {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
