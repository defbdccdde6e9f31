import { readFile } from "node:fs/promises";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { createDataset, openFreshWorkbench, setWorkbench, uniqueName } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot, saveScreenshotsAtSizes, waitForTransitions } from "./workbench-page";

// Reading the grid (issue 10, items 15, 16, 17 and 20): a compact density, columns that stay clear
// of the sticky Row column, malformed and failed cells that say why, the page's keyboard
// shortcuts, Cancel that asks first, a past run with its own dataset, a model picker without
// internal aliases or errors of providers nobody set up, and the export of a run's cells.

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

const cities = (count: number) => Array.from({ length: count }, (_, index) => ({ city: `City ${index + 1}` }));

/**
 * Every model column header is either wholly right of the sticky Row column or wholly under it,
 * once the layout has settled: right after a window resize the panels' widths change a frame or
 * two after the transitions this waits for have started (a CI run once read a header mid-change),
 * so the check is retried, and a column that stays half hidden fails after 5 s.
 */
async function expectNoColumnHalfHidden(page: Page) {
  await expect(async () => {
    const rowHeader = await page.getByRole("columnheader", { name: "Row", exact: true }).boundingBox();
    const headers = page.getByRole("columnheader").filter({ hasText: " / " });
    for (const header of await headers.all()) {
      const box = await header.boundingBox();
      if (!rowHeader || !box) throw new Error("no layout");
      const rowRight = rowHeader.x + rowHeader.width;
      const clear = box.x >= rowRight - 1 || box.x + box.width <= rowRight + 1;
      expect(clear, `${await header.textContent()} starts at ${box.x}, under the Row column that ends at ${rowRight}`).toBe(true);
    }
  }).toPass({ timeout: 5_000 });
}

/**
 * What in the results toolbar overlaps something else, sticks out of the toolbar or is cut off by
 * a box that hides overflow: a list of sentences, empty when every control and reading is whole.
 */
async function toolbarProblems(page: Page): Promise<string[]> {
  return page.getByRole("toolbar", { name: "Results" }).evaluate((toolbar) => {
    const selector = [
      "button",
      "select",
      "label",
      "[data-testid=run-status]",
      "[role=progressbar]",
      "[data-testid=run-progress]",
      "[data-testid=spend-meter]",
    ].join(", ");
    const found = Array.from(toolbar.querySelectorAll<HTMLElement>(selector)).filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && element.checkVisibility();
    });
    // A control inside another one found (the upload pill's label holds its input) counts once.
    const elements = found.filter((element) => !found.some((other) => other !== element && other.contains(element)));
    const name = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`;
    const problems: string[] = [];
    const bar = toolbar.getBoundingClientRect();
    elements.forEach((element, index) => {
      const box = element.getBoundingClientRect();
      if (box.left < bar.left - 0.5 || box.right > bar.right + 0.5 || box.top < bar.top - 0.5 || box.bottom > bar.bottom + 0.5)
        problems.push(`${name(element)} sticks out of the toolbar`);
      for (let ancestor = element.parentElement; ancestor && ancestor !== toolbar; ancestor = ancestor.parentElement) {
        const { overflowX } = getComputedStyle(ancestor);
        const clip = ancestor.getBoundingClientRect();
        if (overflowX !== "visible" && (box.left < clip.left - 0.5 || box.right > clip.right + 0.5))
          problems.push(`${name(element)} is cut off (${Math.round(box.width)} px in a ${Math.round(clip.width)} px box)`);
      }
      for (const other of elements.slice(index + 1)) {
        const next = other.getBoundingClientRect();
        const overlapX = Math.min(box.right, next.right) - Math.max(box.left, next.left);
        const overlapY = Math.min(box.bottom, next.bottom) - Math.max(box.top, next.top);
        // Joined pills (the grader and its grading model) share a 1 px border on purpose.
        if (overlapX > 1.5 && overlapY > 1.5) problems.push(`${name(element)} overlaps ${name(other)}`);
      }
    });
    return problems;
  });
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("not laid out");
  return box;
}

test.describe("reading the grid", () => {
  test("a compact density shows one line per cell, is remembered, and keeps long grids scrolling right", async ({ page }) => {
    test.setTimeout(90_000);
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `Describe {{city}}. (${uniqueName("density")})`,
      rows: cities(150),
      columns: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "fast", params: { failureRate: 1, latencyMs: 0 } },
      ],
    });
    await workbench.clickRun();
    await workbench.expectDone(300);

    const cell = workbench.cell(1, "mock / fast").first();
    expect((await boxOf(cell)).height).toBeGreaterThan(120);
    const toggle = page.getByRole("button", { name: "Compact rows" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect((await boxOf(cell)).height).toBeLessThan(40);
    // One line: the output, the metric badge, and the status only when it is not ok.
    await expect(cell.getByText("ok", { exact: true })).toHaveCount(0);
    await expect(cell.getByTestId("cell-badge")).toBeVisible();
    const failed = page.locator('[data-status="error"]').first();
    await expect(failed).toContainText("error");
    await saveScreenshot(page, "grid-compact");

    // Remembered across a reload, with the other view settings.
    await page.reload();
    await expect(page.getByRole("button", { name: "Compact rows" })).toHaveAttribute("aria-pressed", "true");
    await expect(workbench.cell(1, "mock / fast").first()).toBeVisible();
    expect((await boxOf(workbench.cell(1, "mock / fast").first())).height).toBeLessThan(40);

    // The long grid renders only the rows in view, and still reaches its last row at the right place.
    const rendered = await page.getByTestId("result-cell").count();
    expect(rendered).toBeLessThan(300);
    await workbench.cell(1, "mock / fast").first().focus();
    await page.keyboard.press("Control+End");
    const last = page.locator('[data-grid-row="149"][data-grid-column="1"]');
    await expect(last).toBeFocused();
    await expect(last).toBeInViewport();
    const lastRowHeader = page.getByRole("rowheader", { name: "150", exact: true });
    await expect(lastRowHeader).toBeInViewport();
    expect(Math.abs((await boxOf(lastRowHeader)).y - (await boxOf(last)).y)).toBeLessThan(12);
    await page.keyboard.press("Control+Home");
    await expect(page.locator('[data-grid-row="0"][data-grid-column="0"]')).toBeFocused();

    // And back to cards.
    await page.getByRole("button", { name: "Compact rows" }).click();
    expect((await boxOf(workbench.cell(1, "mock / fast").first())).height).toBeGreaterThan(120);
  });

  test("columns added or changed stay clear of the Row column; malformed and failed cells say why", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `Answer as JSON about {{city}}. (${uniqueName("why")})`,
      rows: cities(2),
      columns: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "fast", params: { failureRate: 1 } },
        { provider: "mock", model: "echo" },
      ],
    });
    await workbench.addModel("mock / slow");
    await expect(page.getByRole("columnheader").filter({ hasText: "mock / slow" })).toBeVisible();
    await expectNoColumnHalfHidden(page);
    await saveScreenshotsAtSizes(page, "grid-after-add", () => expectNoColumnHalfHidden(page));

    await page.getByRole("button", { name: /^Column 1: .*, change model$/ }).click();
    await page.getByRole("dialog", { name: "Change model of column 1" }).getByRole("button", { name: "mock / echo" }).click();
    await expectNoColumnHalfHidden(page);

    await page.getByRole("button", { name: /Remove column 4/ }).click();
    await expectNoColumnHalfHidden(page);
    await workbench.clickRun();
    await workbench.expectDone(6);
    // The run redraws the grid (its rows, the summary row) and the panels change width: still clear.
    await waitForTransitions(page);
    await expectNoColumnHalfHidden(page);
    await saveScreenshotsAtSizes(page, "grid-after-remove-and-run", () => expectNoColumnHalfHidden(page));

    // The mock's echo is not JSON: the cell says which format was expected, in the cell itself.
    const malformed = workbench.cell(1, "mock / echo").first();
    await expect(malformed).toHaveAttribute("data-status", "malformed");
    await expect(malformed.getByTestId("cell-malformed-reason")).toContainText("not valid JSON");
    await expect(malformed.getByTestId("cell-malformed-reason")).toBeVisible();

    // A failed call keeps its message in the cell, and its tooltip has all of it with the code.
    const failed = page.locator('[data-status="error"]').first();
    const tooltip = await failed.getAttribute("title");
    expect(tooltip).toContain("Mock server error (500)");
    expect(tooltip).toContain("server");
    await failed.hover();
    await saveScreenshot(page, "grid-malformed-and-error");
  });

  test("Ctrl+Enter runs from anywhere, a key cycles the metric, and Cancel asks first", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `Describe {{city}}. (${uniqueName("keys")})`,
      rows: cities(400),
      columns: [{ provider: "mock", model: "slow" }],
    });
    // Not in the editor: on the page's dataset heading.
    await page.getByRole("heading", { name: "Dataset" }).click();
    await page.keyboard.press("Control+Enter");
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);

    const pill = page.getByTestId("metric-pill");
    await expect(pill).toHaveAttribute("aria-keyshortcuts", "M");
    await expect(pill).toHaveAttribute("title", /\(M\)/);
    await page.getByRole("heading", { name: "Dataset" }).click();
    await page.keyboard.press("m");
    await expect(pill).toHaveAttribute("aria-label", /^Metric: Tokens\./);
    // Typing an m in the editor is just typing.
    await workbench.editor.click();
    await page.keyboard.press("End");
    await page.keyboard.type("m");
    await expect(pill).toHaveAttribute("aria-label", /^Metric: Tokens\./);
    await page.getByRole("heading", { name: "Dataset" }).click();

    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Cancel this run?" });
    await expect(confirm).toBeVisible();
    await saveScreenshot(page, "cancel-confirm");
    // Keep running is the default answer: Enter keeps the run going.
    await confirm.getByRole("button", { name: "Keep running" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId("run-status")).toHaveText(/Running|Queued/);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Cancel run" }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Cancelled");
  });

  test("nothing in the results toolbar overlaps at 1280 px or wider: paused, cancelled, in both view modes", async ({ page }) => {
    test.setTimeout(90_000);
    const workbench = new WorkbenchPage(page);
    // The longest toolbar: a grader with its grading model, a budget, a run paused then cancelled.
    await openFreshWorkbench(page, {
      text: `Describe {{city}}. (${uniqueName("toolbar")})`,
      rows: cities(400),
      grader: "Grade {{output}} from 0 to 1.",
      columns: [
        { provider: "mock", model: "slow" },
        { provider: "mock", model: "fast" },
      ],
    });
    await page.getByLabel("Budget", { exact: true }).fill("0.5");
    await workbench.clickRun();
    await page.getByRole("button", { name: "Pause", exact: true }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Paused");
    await expect(page.getByRole("button", { name: "Resume", exact: true })).toBeVisible();
    const clear = async () => expect(await toolbarProblems(page)).toEqual([]);
    await saveScreenshotsAtSizes(page, "toolbar-paused", clear);

    // Focus mode: the editor takes 65% and the toolbar has a third of the window.
    await workbench.editor.click();
    await waitForTransitions(page);
    await saveScreenshotsAtSizes(page, "toolbar-paused-focus", clear);
    await page.getByRole("heading", { name: "Dataset" }).click();
    await waitForTransitions(page);

    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Cancel run" }).click();
    await expect(workbench.progress).toHaveText(/^\d+ \/ 800 done · \d+ cancelled$/);
    await expect(page.getByRole("button", { name: "Clear results" })).toBeVisible();
    await saveScreenshotsAtSizes(page, "toolbar-cancelled", clear);
  });

  test("a past run shows its own dataset; the picker hides internal aliases and providers nobody set up", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    const firstName = `${uniqueName("first")}.csv`;
    const { prompt } = await openFreshWorkbench(page, {
      text: `Describe {{city}}. (${uniqueName("past")})`,
      rows: cities(2),
      datasetName: firstName,
      columns: [{ provider: "mock", model: "fast" }],
    });
    await workbench.clickRun();
    await workbench.expectDone(2);
    const runId = runIdOf(page)!;
    const second = await createDataset(page.request, `${uniqueName("second")}.csv`, cities(3));
    await setWorkbench(page.request, { activePromptId: prompt.id, datasetId: second.id, columns: [{ provider: "mock", model: "fast" }] });

    await page.goto(`/?run=${runId}&view=history`);
    await expect(page.getByTestId("history-banner")).toBeVisible();
    const summary = page.getByTestId("dataset-summary");
    await expect(summary).toContainText(firstName);
    await expect(summary).toContainText("2 rows");
    await summary.getByRole("button", { name: /Preview/ }).click();
    await expect(page.getByRole("dialog").getByRole("cell", { name: "City 2" })).toBeVisible();
    await expect(page.getByRole("dialog").getByRole("cell", { name: "City 3" })).toHaveCount(0);
    await page.keyboard.press("Escape");

    await page.goto("/");
    await workbench.addModelButton.click();
    const picker = page.getByRole("dialog", { name: "Add a model" });
    await expect(picker.getByRole("button", { name: "mock / fast" })).toBeVisible();
    await expect(picker.getByRole("button", { name: "mock / mock" })).toHaveCount(0);
    await expect(picker).not.toContainText(/ECONNREFUSED|fetch failed|could not reach|localhost:11434/i);
    await expect(picker.getByRole("link", { name: /for Ollama/ })).toBeVisible();
    await saveScreenshot(page, "model-picker");
  });

  test("a run's cells export as CSV from the toolbar and as JSON from the history", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: `=1+1 {{city}} (${uniqueName("export")})`,
      rows: cities(2),
      columns: [{ provider: "mock", model: "fast" }],
    });
    await workbench.clickRun();
    await workbench.expectDone(2);

    await page
      .getByRole("toolbar", { name: "Results" })
      .getByRole("button", { name: /Export/ })
      .click();
    const csvDownload = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: /CSV/ }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toMatch(/^run-[0-9a-f]{8}\.csv$/);
    const csvText = await readFile((await csv.path())!, "utf8");
    expect(csvText.split("\r\n")[0]).toMatch(/^row,column,provider,model,trial,status,output,/);
    expect(csvText.split("\r\n").filter(Boolean)).toHaveLength(3);

    await page.getByRole("button", { name: "History" }).click();
    const dialog = page.getByTestId("history-dialog");
    await dialog
      .getByRole("button", { name: /^Export / })
      .first()
      .click();
    const jsonDownload = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: /JSON/ }).click();
    const json = JSON.parse(await readFile((await (await jsonDownload).path())!, "utf8")) as { cells: { output: string; input: object }[] };
    expect(json.cells).toHaveLength(2);
    expect(json.cells[0].input).toEqual({ city: "City 1" });
    await saveScreenshot(page, "history-export");
  });
});
