import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import {
  FRAME_TRACE_CATEGORIES,
  describeFrameStats,
  startFrameRecorder,
  stopFrameRecorder,
  traceFrameStats,
} from "./helpers/frame-recorder";

// Issue: "a 10,000-row dataset with 4 columns scrolls and updates without jank (measure frames in
// a Playwright trace and report it), and parsing a 50 MB CSV happens off the main thread".
//
// Bounds, measured on the 2-core test machine (headless Chromium, no GPU, the server on the same
// cores), with Playwright's own trace off (see below). A finished 10,000-row grid scrolls at a rAF
// p95 of 16.7 ms with no long task. While ~270 cells/s stream in, the compositor's frames (trace)
// have a p95 of ~25-30 ms; the page's own rAF intervals and long tasks are wall-clock times that
// also count the renderer waiting for a core the server holds: rAF p95 33-100 ms and tasks under
// 100 ms on a quiet machine, 217 ms and 690 ms on a loaded one, where the same tasks' CPU time
// (trace) stayed under 70 ms. So while cells stream, the page's own work is bounded by its
// longest task's CPU time, and the wall-clock rAF p95 only against collapse. The page that copied
// every cell per batch measured a rAF p95 of 717 ms and tasks of 930 ms; a grid rendering all
// 10,000 rows takes seconds per layout: each fails these bounds.
const FRAME_P95_LIMIT_MS = 50;
const STREAMING_RAF_P95_LIMIT_MS = 400;
const TASK_CPU_LIMIT_MS = 200;
const LONG_TASK_LIMIT_MS = 200;
const DOM_ROW_LIMIT = 60;
const PARSE_GAP_LIMIT_MS = 250;

const ROWS = 10_000;
// Four columns of the instant mock model: the same model in every column, as a person comparing
// parameters would set it up (their answers share cache keys; 0007 stores one row per key).
const COLUMNS = Array.from({ length: 4 }, () => ({ provider: "mock", model: "fast" }));
// While scrolling, cells arrive at a few hundred a second (each call ~20 ms, 8 at a time): a busy
// run of real models. An instant mock would have this 2-core machine's server take a whole core,
// and the browser's frames would measure the contention rather than the page.
const STREAMING_COLUMNS = COLUMNS.map((column) => ({ ...column, params: { latencyMs: 20, jitterMs: 0 } }));

/** Body rows of the results grid that are in the DOM (the spacer rows are aria-hidden). */
function renderedRows(page: Page) {
  return page.getByRole("table").locator("tbody tr[aria-rowindex]");
}

/**
 * Scrolls the grid with the mouse wheel, measuring frames (rAF and trace); with `streaming`, while
 * cells stream in, and checks the grid kept updating.
 */
async function scrollAndMeasure(page: Page, browser: Browser, workbench: WorkbenchPage, { streaming }: { streaming: boolean }) {
  const label = streaming ? "large-grid-streaming" : "large-grid";
  const progressAtStart = await workbench.progress.textContent();

  const scroller = page.getByRole("table").locator("xpath=../..");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

  const tracePath = `e2e-artifacts/${label}-trace.json`;
  await browser.startTracing(page, {
    path: tracePath,
    screenshots: false,
    categories: FRAME_TRACE_CATEGORIES,
  });
  await startFrameRecorder(page);
  let maxRows = 0;
  // 120 wheel steps of 600 px (about 480 rows), a frame apart, down and then back up a little.
  for (let step = 0; step < 120; step += 1) {
    await page.mouse.wheel(0, step < 100 ? 600 : -600);
    await page.evaluate("new Promise((resolve) => requestAnimationFrame(resolve))");
    if (step % 10 === 0) maxRows = Math.max(maxRows, await renderedRows(page).count());
  }
  const scrollTop = await scroller.evaluate((element) => element.scrollTop);
  const recorded = await stopFrameRecorder(page);
  await browser.stopTracing();
  const traced = traceFrameStats(readFileSync(tracePath, "utf8"));
  const progressAtEnd = await workbench.progress.textContent();

  console.log(`[${label}] rAF frames while scrolling: ${describeFrameStats(recorded)}`);
  console.log(`[${label}] trace (DrawFrame intervals, main-thread tasks): ${describeFrameStats(traced)}`);
  console.log(
    `[${label}] most body rows in the DOM: ${maxRows}; scrolled to ${scrollTop} px; progress ${progressAtStart} -> ${progressAtEnd}`,
  );
  await saveScreenshot(page, `${label}-scrolled`);

  // The rows in view are the ones the scroll position says, and only a window of them exists.
  const firstRowInView = Math.floor(scrollTop / 149) + 1;
  await expect(page.getByRole("rowheader", { name: String(firstRowInView + 2), exact: true })).toBeVisible();
  expect(scrollTop).toBeGreaterThan(40_000);
  expect(maxRows).toBeGreaterThan(0);
  expect(maxRows).toBeLessThan(DOM_ROW_LIMIT);
  expect(recorded.frames).toBeGreaterThan(60);
  // Frames the compositor drew (the trace) are what a person sees. The page's rAF intervals and
  // long tasks also count time the renderer waits for a core while the server (on the same 2
  // cores) works the run, so while cells stream the page's own work is judged by CPU time.
  // (A finished grid draws only when it scrolls, so there the trace's frame intervals mean little
  // and the rAF intervals, uncontended, are the measure.)
  if (streaming) {
    expect(traced.p95).toBeLessThan(FRAME_P95_LIMIT_MS);
    expect(recorded.p95).toBeLessThan(STREAMING_RAF_P95_LIMIT_MS);
  } else {
    expect(recorded.p95).toBeLessThan(FRAME_P95_LIMIT_MS);
    expect(recorded.longestTask).toBeLessThan(LONG_TASK_LIMIT_MS);
  }
  expect(traced.longestTaskCpu).toBeLessThan(TASK_CPU_LIMIT_MS);
  // The grid kept updating while it scrolled, at a busy run's pace (~270 cells/s here), not a trickle.
  if (streaming) {
    const done = (progress: string | null) => Number(/^([\d,]+) \//.exec(progress ?? "")?.[1].replaceAll(",", "") ?? Number.NaN);
    expect(done(progressAtEnd) - done(progressAtStart), `${progressAtStart} -> ${progressAtEnd}`).toBeGreaterThan(500);
  }
}

// Playwright's own trace takes a snapshot of the whole page at every action: 240 of them while the
// grid scrolls, a quarter of the page's main thread in a profile. The page is measured, not the
// recorder, so this file keeps no Playwright trace (Chromium's trace in scrollAndMeasure is the measure).
test.use({ trace: "off" });

test.describe("large datasets", () => {
  // The run a test started, cancelled here too: a timed-out test does not reach its finally.
  let startedRunId: string | null = null;
  test.afterAll(async ({}, testInfo) => {
    if (!startedRunId) return;
    const baseURL = testInfo.project.use.baseURL ?? "http://127.0.0.1:3100";
    await fetch(`${baseURL}/api/v1/runs/${startedRunId}/cancel`, { method: "POST" }).catch(() => {});
  });

  test("the grid of a 10,000-row x 4-column run keeps a window of rows and scrolls without jank", async ({ page, browser }) => {
    test.setTimeout(120_000);
    const workbench = new WorkbenchPage(page);
    const rows = Array.from({ length: ROWS }, (_, index) => ({ city: `city-${index + 1}` }));
    const { prompt, datasetId } = await openFreshWorkbench(page, { text: "Describe {{city}} briefly.", rows, columns: COLUMNS });
    // A run stopped after its first cells: 10,000 rows in the grid, nothing streaming while it scrolls.
    const created = await page.request.post("/api/v1/runs", { data: { promptId: prompt.id, datasetId, models: COLUMNS } });
    expect(created.status()).toBe(201);
    const { id: runId } = (await created.json()) as { id: string };
    startedRunId = runId;
    await expect.poll(async () => (await page.request.post(`/api/v1/runs/${runId}/cancel`)).status(), { timeout: 30_000 }).toBe(200);
    await page.goto(`/?run=${runId}`);
    // Loading a run of 40,000 cells takes the server a while.
    await expect(page.getByTestId("run-status")).toHaveText(/Cancelled|Completed/, { timeout: 60_000 });
    await expect(page.getByRole("table")).toHaveAttribute("aria-rowcount", String(ROWS + 2));
    await scrollAndMeasure(page, browser, workbench, { streaming: false });
  });

  test("a 10,000-row x 4-column run scrolls without jank while cells stream in", async ({ page, browser }) => {
    // Setting up 10,000 rows and 40,000 cells takes a while on two busy cores; the frames are what is measured.
    test.setTimeout(150_000);
    const workbench = new WorkbenchPage(page);
    const rows = Array.from({ length: ROWS }, (_, index) => ({ city: `city-${index + 1}` }));
    await openFreshWorkbench(page, { text: "Describe {{city}}.", rows, columns: STREAMING_COLUMNS });
    await expect(page.getByTestId("dataset-summary")).toContainText("10,000 rows");

    await workbench.runButton.click();
    // Creating 40,000 cells takes a few seconds.
    await expect(page).toHaveURL(/[?&]run=[\w-]+/, { timeout: 30_000 });
    const runId = new URL(page.url()).searchParams.get("run")!;
    startedRunId = runId;
    try {
      // Cells are arriving (the run is under way, not finished).
      await expect(workbench.cell(1, "mock / fast").first()).toHaveAccessibleName(/^Row 1, mock \/ fast: ok/, { timeout: 30_000 });
      await scrollAndMeasure(page, browser, workbench, { streaming: true });
    } finally {
      // Leave no run behind: cancel it unless it has finished (a GET of the run carries 40,000 cells).
      const cancelled = await page.request.post(`/api/v1/runs/${runId}/cancel`);
      expect([200, 409]).toContain(cancelled.status());
      await expect(page.getByTestId("run-status")).toHaveText(/Cancelled|Completed/, { timeout: 30_000 });
    }
  });

  test("a 50 MB CSV is parsed off the main thread", async ({ page }) => {
    test.setTimeout(90_000);
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Summarize {{text}}." });

    // 100,000 rows (the server's cap) of about 520 bytes: ~50 MB, made here, not committed.
    const folder = mkdtempSync(path.join(os.tmpdir(), "parallaxr-large-csv-"));
    const file = path.join(folder, "fifty-megabytes.csv");
    const filler = "lorem ipsum dolor sit amet, ".repeat(17);
    const lines = ["id,city,text,expected_grade"];
    for (let index = 1; index <= 100_000; index += 1) lines.push(`${index},city-${index},"${index} ${filler}",0.${index % 10}`);
    writeFileSync(file, lines.join("\n") + "\n");
    const megabytes = statSync(file).size / 1e6;
    expect(megabytes).toBeGreaterThan(45);

    try {
      // The parse is over when the page starts sending the rows to the server.
      let uploadStartedAt = 0;
      page.on("request", (request) => {
        if (request.method() === "POST" && request.url().endsWith("/api/v1/datasets")) uploadStartedAt = Date.now();
      });
      await startFrameRecorder(page);
      const startedAt = Date.now();
      await workbench.uploadInput.setInputFiles(file);
      await expect(page.getByText("Uploading dataset…")).toBeVisible();
      await expect.poll(() => uploadStartedAt, { timeout: 60_000 }).toBeGreaterThan(0);
      const duringParse = await stopFrameRecorder(page);
      const parseMs = uploadStartedAt - startedAt;

      await startFrameRecorder(page);
      const toast = page.getByTestId("toast").filter({ hasText: "fifty-megabytes.csv" });
      await expect(toast).toHaveText("Loaded fifty-megabytes.csv: 100,000 rows, 4 columns", { timeout: 60_000 });
      const duringUpload = await stopFrameRecorder(page);
      const totalMs = Date.now() - startedAt;
      await saveScreenshot(page, "large-csv-toast");

      console.log(`[large-csv] ${megabytes.toFixed(1)} MB, parsed in ${parseMs} ms, stored in ${totalMs} ms in all`);
      console.log(`[large-csv] frames while parsing: ${describeFrameStats(duringParse)}`);
      console.log(`[large-csv] frames while uploading and storing: ${describeFrameStats(duringUpload)}`);

      expect(duringParse.frames).toBeGreaterThan(5);
      expect(duringParse.max).toBeLessThan(PARSE_GAP_LIMIT_MS);
      await expect(page.getByTestId("dataset-summary")).toContainText("100,000 rows");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
