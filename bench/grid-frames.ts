/**
 * Scroll smoothness of the results grid: frame times while the mouse wheel scrolls a finished
 * 10,000-row x 4-column run, against a baseline measured in the same session (the same page with
 * a 50-row run), and the longest main-thread gap while a 50 MB CSV is uploaded (parsed in the
 * worker). Needs a production build (`npx next build`); starts `next start` itself on a free port
 * with a temporary data folder, or measures a running server with --url.
 *
 *   npm run bench:grid -- [--url http://127.0.0.1:3000] [--repeat N] [--no-csv]
 *
 * Prints a table and writes bench/results/grid-frames-<date>.json (git-ignored). Exits 1 when a
 * measurement could not be made (run did not finish, page did not load); numbers are never fatal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";
import { describeFrameStats, startFrameRecorder, stopFrameRecorder, type FrameStats } from "../e2e/helpers/frame-recorder";
import { startTestServer, type TestServer } from "../e2e/helpers/server";

const { values: flags } = parseArgs({
  options: { url: { type: "string" }, repeat: { type: "string", default: "3" }, "no-csv": { type: "boolean", default: false } },
});
const repeat = Math.max(1, Number(flags.repeat) || 3);
const columns = ["fast", "mock", "echo", "slow"].map((model) => ({ provider: "mock", model, params: { latencyMs: 0, jitterMs: 0 } }));
const wheelSteps = 100;
const wheelPixels = 600;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function api<T>(base: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(base + route, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A finished run of `rowCount` rows x 4 instant mock columns, made through the API. */
async function finishedRun(base: string, rowCount: number): Promise<string> {
  await api(base, "POST", "/api/v1/seed");
  const tag = `${rowCount} ${Date.now().toString(36)}`;
  const prompt = await api<{ id: string }>(base, "POST", "/api/v1/prompts", {
    name: `bench ${tag}`,
    text: `Bench ${tag}: describe {{city}}.`,
  });
  const rows = Array.from({ length: rowCount }, (_, index) => ({ city: `city-${index + 1}` }));
  const dataset = await api<{ id: string }>(base, "POST", "/api/v1/datasets", { name: `bench-${rowCount}.csv`, rows });
  await api(base, "PATCH", "/api/v1/workbench", { activePromptId: prompt.id, datasetId: dataset.id, graderPromptId: null, columns });
  const run = await api<{ id: string }>(base, "POST", "/api/v1/runs", { promptId: prompt.id, datasetId: dataset.id, models: columns });
  const deadline = Date.now() + 300_000;
  for (;;) {
    const state = await api<{ status: string }>(base, "GET", `/api/v1/runs/${run.id}`);
    if (state.status === "completed") return run.id;
    if (!["queued", "running"].includes(state.status) || Date.now() > deadline) throw new Error(`run ${run.id} ended ${state.status}`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/** Opens the run and scrolls its grid with the wheel, a frame apart; frame stats of the scroll. */
async function scrollRun(page: Page, base: string, runId: string): Promise<FrameStats & { scrolled: number; domRows: number }> {
  await page.goto(`${base}/?run=${runId}`);
  await page.getByRole("group", { name: /^Row 1, mock \/ fast: ok/ }).waitFor({ timeout: 120_000 });
  const scroller = page.getByRole("table").locator("xpath=../..");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await startFrameRecorder(page);
  let domRows = 0;
  for (let step = 0; step < wheelSteps; step += 1) {
    await page.mouse.wheel(0, wheelPixels);
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(resolve))");
    if (step % 10 === 0) domRows = Math.max(domRows, await page.locator("tbody tr[aria-rowindex]").count());
  }
  const stats = await stopFrameRecorder(page);
  return { ...stats, scrolled: await scroller.evaluate((element) => element.scrollTop), domRows };
}

/** Uploads a ~50 MB, 100,000-row CSV through the toolbar; the longest frame gap until it is stored. */
async function uploadLargeCsv(
  page: Page,
  base: string,
  folder: string,
): Promise<{ megabytes: number; parse: FrameStats; total: FrameStats; storedMs: number }> {
  const file = path.join(folder, "bench-50mb.csv");
  const filler = "lorem ipsum dolor sit amet, ".repeat(17);
  const lines = ["id,city,text,expected_grade"];
  for (let index = 1; index <= 100_000; index += 1) lines.push(`${index},city-${index},"${index} ${filler}",0.${index % 10}`);
  writeFileSync(file, lines.join("\n") + "\n");
  const megabytes = Buffer.byteLength(lines.join("\n") + "\n") / 1e6;
  await page.goto(base);
  await page.getByLabel("Upload dataset").waitFor();
  let posted = false;
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/api/v1/datasets")) posted = true;
  });
  const startedAt = Date.now();
  await startFrameRecorder(page);
  await page.getByLabel("Upload dataset").setInputFiles(file);
  while (!posted) await new Promise((resolve) => setTimeout(resolve, 20));
  const parse = await stopFrameRecorder(page);
  await startFrameRecorder(page);
  await page.getByTestId("toast").filter({ hasText: "100,000 rows" }).waitFor({ timeout: 120_000 });
  const total = await stopFrameRecorder(page);
  return { megabytes, parse, total, storedMs: Date.now() - startedAt };
}

async function main() {
  const folder = mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-grid-"));
  let server: TestServer | null = null;
  const base = flags.url ?? (server = await startTestServer({ port: await freePort(), dataDir: path.join(folder, "data") })).url;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const results: Record<string, unknown>[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    console.log(
      `server ${base}; load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}`,
    );
    const small = await finishedRun(base, 50);
    const large = await finishedRun(base, 10_000);
    const rounds: { small: FrameStats; large: FrameStats }[] = [];
    for (let round = 0; round < repeat; round += 1) {
      // Turns: baseline, then the large grid, so a burst of load lands on both alike.
      const smallStats = await scrollRun(page, base, small);
      const largeStats = await scrollRun(page, base, large);
      rounds.push({ small: smallStats, large: largeStats });
      console.log(`round ${round + 1}: 50 rows ${describeFrameStats(smallStats)} (${smallStats.domRows} rows in DOM)`);
      console.log(
        `round ${round + 1}: 10,000 rows ${describeFrameStats(largeStats)} (${largeStats.domRows} rows in DOM, ${largeStats.scrolled} px)`,
      );
      results.push({ round, small: smallStats, large: largeStats });
    }
    const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
    const p95Small = median(rounds.map((round) => round.small.p95));
    const p95Large = median(rounds.map((round) => round.large.p95));
    const maxSmall = median(rounds.map((round) => round.small.max));
    const maxLarge = median(rounds.map((round) => round.large.max));
    console.log("\n| grid | frame p95 (median of rounds) | longest frame | ratio p95 10k / 50 |");
    console.log("|---|---|---|---|");
    console.log(`| 50 rows x 4 | ${p95Small} ms | ${maxSmall} ms | 1.00 |`);
    console.log(`| 10,000 rows x 4 | ${p95Large} ms | ${maxLarge} ms | ${(p95Large / p95Small).toFixed(2)} |`);
    if (!flags["no-csv"]) {
      const csv = await uploadLargeCsv(page, base, folder);
      console.log(
        `\n50 MB CSV (${csv.megabytes.toFixed(1)} MB, 100,000 rows): longest frame gap while parsing ${csv.parse.max} ms ` +
          `(${csv.parse.frames} frames), while uploading and storing ${csv.total.max} ms; stored after ${csv.storedMs} ms`,
      );
      results.push({ csv });
    }
    mkdirSync("bench/results", { recursive: true });
    const out = `bench/results/grid-frames-${new Date().toISOString().replaceAll(":", "-").slice(0, 19)}.json`;
    writeFileSync(out, JSON.stringify({ base, loadavg: os.loadavg(), results }, null, 2));
    console.log(
      `\nwrote ${out}; load ${os
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    await browser.close();
    await server?.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
