import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { describeFrameStats, startFrameRecorder, stopFrameRecorder, traceFrameStats } from "./helpers/frame-recorder";

// Issue: "a 10,000-row dataset with 4 columns scrolls and updates without jank (measure frames in
// a Playwright trace and report it), and parsing a 50 MB CSV happens off the main thread".
//
// Bounds, first measured on the 2-core test machine (headless Chromium, no GPU): scrolling the
// 10,000-row grid while 40,000 cells stream in gave a frame p95 of ~17-35 ms and no long task over
// ~120 ms; a grid that rendered every row (10,000 x 4 cells in the DOM) takes seconds for one
// layout, so the bounds below leave room for a loaded machine and still fail a janky grid.
const FRAME_P95_LIMIT_MS = 50;
const LONG_TASK_LIMIT_MS = 200;
const DOM_ROW_LIMIT = 60;
const PARSE_GAP_LIMIT_MS = 250;

const ROWS = 10_000;
// Four instant mock columns. Four columns of the same model would be the wording, but
// then one save batch holds several answers with one cache key and the engine's save fails
// ("ON CONFLICT DO UPDATE command cannot affect row a second time"; see the report), so each
// column is another mock model set to answer at once.
const COLUMNS = ["fast", "mock", "echo", "slow"].map((model) => ({ provider: "mock", model, params: { latencyMs: 0, jitterMs: 0 } }));

/** Body rows of the results grid that are in the DOM (the spacer rows are aria-hidden). */
function renderedRows(page: Page) {
  return page.getByRole("table").locator("tbody tr[aria-rowindex]");
}

/** Scrolls the grid with the mouse wheel while cells stream in, measuring frames (rAF and trace). */
async function scrollWhileStreaming(page: Page, browser: Browser, workbench: WorkbenchPage) {
  // Cells are arriving (the run is under way, not finished). Creating 40,000 cells takes a while.
  await expect(workbench.cell(1, "mock / fast")).toHaveAccessibleName(/^Row 1, mock \/ fast: ok/, { timeout: 45_000 });
  const progressAtStart = await workbench.progress.textContent();

  const scroller = page.getByRole("table").locator("xpath=..");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

  const tracePath = "e2e-artifacts/large-grid-trace.json";
  await browser.startTracing(page, {
    path: tracePath,
    screenshots: false,
    categories: ["devtools.timeline", "disabled-by-default-devtools.timeline.frame"],
  });
  await startFrameRecorder(page);
  let maxRows = 0;
  // 120 wheel steps of 600 px (about 480 rows), a frame apart, down and then back up a little.
  for (let step = 0; step < 120; step += 1) {
    await page.mouse.wheel(0, step < 100 ? 600 : -600);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    if (step % 10 === 0) maxRows = Math.max(maxRows, await renderedRows(page).count());
  }
  const scrollTop = await scroller.evaluate((element) => element.scrollTop);
  const recorded = await stopFrameRecorder(page);
  await browser.stopTracing();
  const traced = traceFrameStats(readFileSync(tracePath, "utf8"));
  const progressAtEnd = await workbench.progress.textContent();

  console.log(`[large-grid] rAF frames while scrolling: ${describeFrameStats(recorded)}`);
  console.log(`[large-grid] trace (DrawFrame intervals, main-thread tasks): ${describeFrameStats(traced)}`);
  console.log(`[large-grid] most body rows in the DOM: ${maxRows}; scrolled to ${scrollTop} px; progress ${progressAtStart} -> ${progressAtEnd}`);
  await saveScreenshot(page, "large-grid-scrolled");

  // The rows in view are the ones the scroll position says, and only a window of them exists.
  const firstRowInView = Math.floor(scrollTop / 149) + 1;
  await expect(page.getByRole("rowheader", { name: String(firstRowInView + 2), exact: true })).toBeVisible();
  expect(scrollTop).toBeGreaterThan(40_000);
  expect(maxRows).toBeGreaterThan(0);
  expect(maxRows).toBeLessThan(DOM_ROW_LIMIT);
  expect(recorded.frames).toBeGreaterThan(60);
  expect(recorded.p95).toBeLessThan(FRAME_P95_LIMIT_MS);
  expect(recorded.longestTask).toBeLessThan(LONG_TASK_LIMIT_MS);
  expect(traced.longestTask).toBeLessThan(LONG_TASK_LIMIT_MS);
  // The grid kept updating while it scrolled.
  expect(progressAtEnd).not.toBe(progressAtStart);
}

test.describe("large datasets", () => {
  test("a 10,000-row x 4-column run scrolls without jank while cells stream in", async ({ page, browser }) => {
    test.setTimeout(90_000);
    const workbench = new WorkbenchPage(page);
    const rows = Array.from({ length: ROWS }, (_, index) => ({ city: `city-${index + 1}` }));
    await openFreshWorkbench(page, { text: "Describe {{city}}.", rows, columns: COLUMNS });
    await expect(page.getByTestId("dataset-summary")).toContainText("10,000 rows");

    await workbench.runButton.click();
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    const runId = new URL(page.url()).searchParams.get("run")!;
    try {
      await scrollWhileStreaming(page, browser, workbench);
    } finally {
      // Leave no run behind.
      const cancelled = await page.request.post(`/api/v1/runs/${runId}/cancel`);
      expect(cancelled.ok()).toBe(true);
      await expect.poll(async () => ((await (await page.request.get(`/api/v1/runs/${runId}`)).json()) as { status: string }).status).toMatch(/cancel/);
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

