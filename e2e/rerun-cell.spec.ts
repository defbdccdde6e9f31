import { expect, test, type Page } from "@playwright/test";
import { openFreshWorkbench, uniqueName } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Workbench spec, Testing Plan 6 (Re-run Cell): while a run is active, a finished cell offers a
// re-run that skips the cache and overwrites the cell; a finished run and a past run offer none.

type ServerCell = { row: number; column: number; status: string; cached: boolean; updatedAt: string };
type ServerRun = { status: string; cells: ServerCell[] };

async function getRun(page: Page, runId: string): Promise<ServerRun> {
  const response = await page.request.get(`/api/v1/runs/${runId}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ServerRun;
}

async function serverCell(page: Page, runId: string, row: number, column: number): Promise<ServerCell> {
  const cell = (await getRun(page, runId)).cells.find((item) => item.row === row && item.column === column);
  expect(cell, `cell ${row}/${column} of run ${runId}`).toBeTruthy();
  return cell!;
}

function runIdOf(page: Page): string | null {
  return new URL(page.url()).searchParams.get("run");
}

function cellAt(page: Page, row: number, column: number) {
  return page.locator(`[data-testid="result-cell"][data-grid-row="${row}"][data-grid-column="${column}"]`);
}

/** Rows enough for mock/slow (about 2 s a call, 8 at a time) to keep a run going for a while. */
function rows(count: number) {
  return Array.from({ length: count }, (_, index) => ({ n: String(index + 1) }));
}

// The server is shared: never leave a run going.
test.afterEach(async ({ page }) => {
  const runId = runIdOf(page);
  if (!runId) return;
  const run = await getRun(page, runId);
  if (["planned", "queued", "running", "paused"].includes(run.status)) await page.request.post(`/api/v1/runs/${runId}/cancel`);
});

test.describe("re-run a cell", () => {
  test("during a run a finished cell re-runs on request; after the run and in history there is no re-run", async ({ page }) => {
    test.setTimeout(45_000);
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `Count to {{n}}. (${uniqueName("rerun")})`,
      rows: rows(24),
      columns: [{ provider: "mock", model: "slow" }],
    });
    await workbench.runButton.click();
    await expect(page).toHaveURL(/[?&]run=/);
    const runId = runIdOf(page)!;

    // The first answers arrive after about 2 s, while most of the 24 cells are still to come.
    const finished = page.locator('[data-testid="result-cell"][data-status="ok"]').first();
    await expect(finished).toBeVisible();
    const row = Number(await finished.getAttribute("data-grid-row"));
    const cell = cellAt(page, row, 0);
    const before = await serverCell(page, runId, row, 0);
    expect(before.status).toBe("ok");
    await expect(workbench.progress).not.toHaveText("24 / 24 done");

    const rerun = cell.getByTestId("rerun-button");
    await page.mouse.move(5, 5);
    await expect(rerun).toHaveCSS("opacity", "0");
    await cell.hover();
    await expect(rerun).toHaveCSS("opacity", "1");
    await expect(rerun).toHaveAccessibleName(`Re-run row ${row + 1}, mock / slow`);
    await saveScreenshot(page, "rerun-hover");
    await rerun.click();

    // Back in the queue: the skeleton, then a new answer.
    await expect(cell.getByTestId("cell-skeleton")).toBeVisible();
    await expect(cell).toHaveAttribute("data-status", /queued|running/);
    await expect(cell).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(cell.getByTestId("cell-output")).toContainText(`Count to ${row + 1}.`);
    await expect
      .poll(async () => {
        const after = await serverCell(page, runId, row, 0);
        return after.status === "ok" && Date.parse(after.updatedAt) > Date.parse(before.updatedAt);
      })
      .toBe(true);
    expect((await serverCell(page, runId, row, 0)).cached).toBe(false);

    // Once the run is over, no cell offers a re-run.
    await workbench.expectDone(24);
    await cell.hover();
    await expect(page.getByTestId("rerun-button")).toHaveCount(0);

    // A past run opened read-only: no re-run and no thumbs either.
    await page.goto(`/?run=${runId}&view=history`);
    await expect(page.getByTestId("history-banner")).toBeVisible();
    await expect(cellAt(page, 0, 0)).toHaveAttribute("data-status", "ok");
    await cellAt(page, 0, 0).hover();
    await expect(page.getByTestId("rerun-button")).toHaveCount(0);
    await expect(page.getByTestId("thumbs-button")).toHaveCount(0);
    await cellAt(page, 0, 0).click();
    await expect(page.getByTestId("cell-modal")).toBeVisible();
    await expect(page.getByTestId("cell-modal").getByTestId("thumbs-button")).toHaveCount(0);
  });

  test("a re-run skips the cache: an answer from the cache comes back as a new call", async ({ page }) => {
    test.setTimeout(45_000);
    const workbench = new WorkbenchPage(page);
    const text = `Spell {{n}} in words. (${uniqueName("cache")})`;
    await openFreshWorkbench(page, { text, rows: rows(16), columns: [{ provider: "mock", model: "fast" }] });
    await workbench.clickRun();
    await workbench.expectDone(16);
    await expect(workbench.cell(1, "mock / fast").getByRole("img", { name: "answered from cache" })).toHaveCount(0);

    // The same prompt again, beside mock/slow so the run lasts: mock/fast's answers come from the cache.
    await workbench.addModelButton.click();
    const picker = page.getByTestId("model-picker-dialog");
    await picker.getByRole("button", { name: "mock / slow", exact: true }).click();
    await expect(picker).toBeHidden();
    const firstRunId = runIdOf(page)!;
    await workbench.runButton.click();
    await expect.poll(() => runIdOf(page)).not.toBe(firstRunId);
    const runId = runIdOf(page)!;
    const cell = workbench.cell(1, "mock / fast");
    await expect(cell.getByRole("img", { name: "answered from cache" })).toBeVisible();
    const before = await serverCell(page, runId, 0, 0);
    expect(before.cached).toBe(true);
    await expect(workbench.progress).not.toHaveText("32 / 32 done");

    await cell.hover();
    await cell.getByTestId("rerun-button").click();
    await expect(cell).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(cell.getByRole("img", { name: "answered from cache" })).toHaveCount(0);
    await expect
      .poll(async () => {
        const after = await serverCell(page, runId, 0, 0);
        return { cached: after.cached, newer: Date.parse(after.updatedAt) > Date.parse(before.updatedAt) };
      })
      .toEqual({ cached: false, newer: true });
    // The other cached answers stay as they were.
    await expect(workbench.cell(2, "mock / fast").getByRole("img", { name: "answered from cache" })).toBeVisible();

    await workbench.expectDone(32);
  });
});
