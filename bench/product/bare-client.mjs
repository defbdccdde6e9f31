#!/usr/bin/env node
// The floor of the shared harness on this machine: what a client that does nothing but HTTP gets
// from the harness's own fake server (../shared/bench-side-by-side/fake-llm-server.mjs). It sends
// CELLS chat completions (the driver's four models, a prompt of the dataset's size) over node:http
// with keep-alive sockets, CONC at a time, and reads the fake server's span (first request to last
// answer). The harness's ideal (cells x latency / concurrency) assumes a fake server that answers
// the moment a request arrives; this says how far from it the fake server and the machine alone
// are, so a tool's span can be read against what is reachable here.
//
//   node bench/product/bare-client.mjs            # LATENCY=200 CONC="16 64" CELLS=1000 REPS=3
//
// HARNESS (default ../shared/bench-side-by-side beside the checkout) and PORT (18795) can be set.
// Prints a Markdown table: per run the client's wall, the fake server's span, and each as a share
// of the ideal. Exit codes: 0 measured; 1 a request failed; 2 no harness, or bad settings.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const harness = process.env.HARNESS ?? path.join(root, "..", "shared", "bench-side-by-side");
const latency = Number(process.env.LATENCY ?? 200);
const widths = (process.env.CONC ?? "16 64")
  .split(/[\s,]+/)
  .filter(Boolean)
  .map(Number);
const cells = Number(process.env.CELLS ?? 1000);
const reps = Number(process.env.REPS ?? 3);
const port = Number(process.env.PORT ?? 18795);
const server = path.join(harness, "fake-llm-server.mjs");
if (!existsSync(server)) {
  console.error(`no fake server at ${server}: set HARNESS to the shared harness's folder`);
  process.exit(2);
}
if (![latency, cells, reps, port, ...widths].every((n) => Number.isInteger(n) && n >= 0) || widths.length === 0 || cells < 1) {
  console.error("LATENCY, CONC, CELLS, REPS and PORT take whole numbers (CONC one or more, CELLS at least 1)");
  process.exit(2);
}

const fake = spawn(process.execPath, [server], {
  env: { ...process.env, PORT: String(port), LATENCY_MS: String(latency), QUIET: "1" },
  stdio: ["ignore", "ignore", "pipe"],
});
// Its stderr (a line of counters as it stops) is shown only when it fails.
let fakeErrors = "";
fake.stderr.on("data", (chunk) => (fakeErrors += chunk));
fake.on("exit", (code) => {
  if (code !== 0 && code !== null) console.error(`the fake server stopped (exit ${code}):\n${fakeErrors}`);
});
const agent = new http.Agent({ keepAlive: true });
const models = ["fake-a", "fake-b", "fake-c", "fake-d"];
// ~270 characters, as the harness's rendered prompts ('Topic: {{topic}}. {{text}}' over its dataset)
const prompt = (index) => `Topic: topic ${index % 250}. ${"a sentence of the row's text, ".repeat(8)}`;

function ask(method, pathname, body) {
  return new Promise((resolve, reject) => {
    const bytes = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method,
        agent,
        headers: bytes ? { "content-type": "application/json", "content-length": bytes.length } : {},
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (response.statusCode !== 200) reject(new Error(`${method} ${pathname}: ${response.statusCode} ${text.slice(0, 200)}`));
          else resolve(text ? JSON.parse(text) : null);
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(bytes ?? undefined);
  });
}

async function ready() {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      return await ask("GET", "/v1/models");
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error("the fake server did not answer");
}

async function measure(concurrency) {
  await ask("POST", "/__reset");
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < cells) {
      const index = next++;
      await ask("POST", "/v1/chat/completions", { model: models[index % 4], messages: [{ role: "user", content: prompt(index) }] });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const wallS = (performance.now() - started) / 1000;
  const stats = await ask("GET", "/__stats");
  return { wallS, spanS: stats.activeSpanMs / 1000 };
}

try {
  await ready();
  // warm-up: sockets open, code compiled
  await measure(Math.max(...widths));
  const pct = (ideal, s) => `${((100 * ideal) / s).toFixed(1)}%`;
  console.log(`bare node:http client against ${path.relative(process.cwd(), server)}, ${cells} calls, ${latency} ms latency`);
  console.log("| concurrency | rep | wall s | span s | ideal s | % of ideal (wall) | % of ideal (span) |");
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (let rep = 1; rep <= reps; rep++) {
    for (const concurrency of widths) {
      const { wallS, spanS } = await measure(concurrency);
      const ideal = (cells * latency) / 1000 / concurrency;
      console.log(
        `| ${concurrency} | ${rep} | ${wallS.toFixed(2)} | ${spanS.toFixed(2)} | ${ideal.toFixed(3)} | ${pct(ideal, wallS)} | ${pct(ideal, spanS)} |`,
      );
    }
  }
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  agent.destroy();
  fake.kill("SIGTERM");
}
