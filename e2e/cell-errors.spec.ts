import { expect, test, type Locator, type Page } from "@playwright/test";
import { openFreshWorkbench, uniqueName } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";
import { rgbOf } from "./helpers/colors";

// Workbench spec, Testing Plan 9 (Error Display) and the cell states of the grid: an error is a
// white card with a red border and its message (the modal has the rest), a malformed answer a
// warning-yellow card with the output, and a queued or running cell three bars (pulsing while its call runs).

async function expectRedBorderOnWhite(cell: Locator) {
  expect(await rgbOf(cell, "backgroundColor")).toEqual([255, 255, 255]);
  const [red, green, blue] = await rgbOf(cell, "borderTopColor");
  expect(red).toBeGreaterThan(180);
  expect(red - green).toBeGreaterThan(100);
  expect(red - blue).toBeGreaterThan(100);
  await expect(cell).toHaveCSS("border-top-width", "2px");
}

function runIdOf(page: Page): string | null {
  return new URL(page.url()).searchParams.get("run");
}

// The server is shared: never leave a run going.
test.afterEach(async ({ page }) => {
  const runId = runIdOf(page);
  if (!runId) return;
  const run = (await (await page.request.get(`/api/v1/runs/${runId}`)).json()) as { status: string };
  if (["planned", "queued", "running", "paused"].includes(run.status)) await page.request.post(`/api/v1/runs/${runId}/cancel`);
});

test.describe("cell states", () => {
  test("a failed call is a white cell with a red border and its message; the modal has the details", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `Explain {{topic}}. (${uniqueName("errors")})`,
      rows: [{ topic: "rain" }],
      columns: [
        // A retryable 500 on every call: the cell gives up after its attempts.
        { provider: "mock", model: "fast", params: { failureRate: 1 } },
        // A model the mock does not have: a 404, not retried.
        { provider: "mock", model: "no-such-model" },
      ],
    });
    await workbench.clickRun();
    await workbench.expectDone(2);

    const failing = workbench.cell(1, "mock / fast");
    await expect(failing).toHaveAttribute("data-status", "error");
    await expect(failing.getByTestId("cell-error")).toHaveText("Mock server error (500)");
    await expect(failing).toContainText("error · server");
    await expectRedBorderOnWhite(failing);

    const unknown = workbench.cell(1, "mock / no-such-model");
    await expect(unknown).toHaveAttribute("data-status", "error");
    await expect(unknown.getByTestId("cell-error")).toContainText("Model no-such-model not found");
    await expect(unknown).toContainText("error · model_not_found");
    await expectRedBorderOnWhite(unknown);
    await saveScreenshot(page, "cell-error");

    await failing.click();
    let modal = page.getByRole("dialog", { name: "Row 1, mock / fast" });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole("heading", { name: "Error" })).toBeVisible();
    await expect(modal).toContainText("Mock server error (500)\nCode: server");
    await expect(modal.locator("dl").first()).toContainText(/Status\s*error/);
    await expect(modal.locator("dl").first()).toContainText(/Attempts\s*4/);
    // No tokens were used, so there is no cost to price, and no output to show.
    await expect(modal.locator("dl").first()).toContainText(/Cost\s*—/);
    await expect(modal.getByRole("region", { name: "Output" })).toHaveCount(0);
    await modal.getByRole("button", { name: "Close" }).click();
    await expect(modal).toBeHidden();

    await unknown.click();
    modal = page.getByRole("dialog", { name: "Row 1, mock / no-such-model" });
    await expect(modal).toContainText(/Model no-such-model not found or unavailable\. Mock models: .*\nCode: model_not_found/);
    await expect(modal.locator("dl").first()).toContainText(/Attempts\s*1/);
    await saveScreenshot(page, "cell-error-modal");
  });

  test("a malformed answer is a warning-yellow cell that still shows the output", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `Describe {{topic}}; answer inside <response></response> tags. (${uniqueName("malformed")})`,
      rows: [{ topic: "fog" }, { topic: "hail" }],
      columns: [{ provider: "mock", model: "malformed" }],
    });
    await workbench.clickRun();
    await workbench.expectDone(2);

    const cell = workbench.cell(1, "mock / malformed");
    await expect(cell).toHaveAttribute("data-status", "malformed");
    await expect(cell.getByTestId("cell-output")).toContainText("MOCK RESPONSE");
    await expect(cell).toContainText("malformed");
    const [red, green, blue] = await rgbOf(cell, "backgroundColor");
    // Yellow: red and green high, blue clearly lower; not white.
    expect(red).toBeGreaterThan(240);
    expect(green).toBeGreaterThan(230);
    expect(red - blue).toBeGreaterThan(10);
    expect(green - blue).toBeGreaterThan(5);
    // A malformed answer counts as a fail until a person grades it.
    await expect(page.getByTestId("summary-cell").first()).toHaveAccessibleName("Average grade, column 1: 0.00, 2 graded");
    await saveScreenshot(page, "cell-malformed");

    await cell.click();
    const modal = page.getByRole("dialog", { name: "Row 1, mock / malformed" });
    await expect(modal.locator("dl").first()).toContainText(/Status\s*malformed · finish reason length/);
    await expect(modal.getByRole("region", { name: "Output" })).toContainText('<response>{"cut":');
  });

  test("a cell shows three bars until its answer comes: pulsing while its call runs, still while it waits", async ({ page }) => {
    const { prompt, datasetId } = await openFreshWorkbench(page, {
      text: `Slowly describe {{topic}}. (${uniqueName("skeleton")})`,
      rows: [{ topic: "dunes" }, { topic: "reefs" }, { topic: "moors" }, { topic: "fens" }, { topic: "tors" }],
      columns: [{ provider: "mock", model: "slow" }],
    });
    // One call at a time (about 2 s each): one cell runs while the others wait their turn, the
    // next of them held ready by the worker (shown queued: its call has not started).
    const created = await page.request.post("/api/v1/runs", {
      data: {
        promptId: prompt.id,
        datasetId,
        models: [{ provider: "mock", model: "slow" }],
        concurrency: 1,
      },
    });
    expect(created.status()).toBe(201);
    await page.goto(`/?run=${(await created.json()).id as string}`);
    const workbench = new WorkbenchPage(page);
    const running = page.locator("[data-testid=result-cell][data-status=running]").first();
    const pulsing = running.getByTestId("cell-skeleton").locator("div");
    await expect(pulsing).toHaveCount(3);
    await expect(page.locator("[data-testid=result-cell][data-status=running]")).toHaveCount(1);
    for (const bar of await pulsing.all()) await expect(bar).toHaveCSS("animation-name", "pulse");
    // A waiting cell's bars are drawn still: a page of queued cells does not redraw every frame.
    const waiting = page.locator("[data-testid=result-cell][data-status=queued]").last().getByTestId("cell-skeleton").locator("div");
    await expect(waiting).toHaveCount(3);
    for (const bar of await waiting.all()) await expect(bar).toHaveCSS("animation-name", "none");
    await saveScreenshot(page, "cells-running");

    await workbench.expectDone(5);
    await expect(page.getByTestId("cell-skeleton")).toHaveCount(0);
    await expect(workbench.cell(1, "mock / slow").getByTestId("cell-output")).toContainText("Slowly describe dunes.");
  });
});
