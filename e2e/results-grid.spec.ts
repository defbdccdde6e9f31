import { expect, test, type Locator, type Page } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Workbench spec, Testing Plan 3 (Results Grid): columns are added, removed and edited (up to four
// models), a click on a cell opens its full output, and the metric pill switches every badge and
// the summary row.

/** The cell at a grid position (0-based row and column), whatever its model. */
function cellAt(page: Page, row: number, column: number): Locator {
  return page.locator(`[data-testid="result-cell"][data-grid-row="${row}"][data-grid-column="${column}"]`);
}

/** Picks a model in the open picker (the one "+" and a column header open). */
async function pickModel(page: Page, name: string) {
  const picker = page.getByTestId("model-picker-dialog");
  await expect(picker).toBeVisible();
  await picker.getByRole("button", { name, exact: true }).click();
  await expect(picker).toBeHidden();
}

const TOKENS = /^~?[\d.]+[kM]? \| ~?[\d.]+[kM]?$/;

test.describe("results grid", () => {
  test("adds columns up to four, removes a middle one, and the columns left keep their results", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: "Greet {{name}} in one line.",
      rows: [{ name: "Ada" }, { name: "Bob" }],
      columns: [{ provider: "mock", model: "fast" }],
    });
    const headers = page.getByTestId("column-header-button");
    await expect(headers).toHaveText(["mock / fast"]);
    // One column is the minimum: it has no ×.
    await expect(page.getByTestId("remove-column-button")).toHaveCount(0);

    await workbench.addModelButton.click();
    const picker = page.getByRole("dialog", { name: "Add a model" });
    await expect(picker).toBeVisible();
    await expect(picker.getByRole("button", { name: "mock / slow", exact: true })).toBeVisible();
    await saveScreenshot(page, "model-picker-modal");
    await pickModel(page, "mock / echo");
    await workbench.addModelButton.click();
    // mock / mock is an alias for experiment files, kept out of the picker.
    await pickModel(page, "mock / slow");
    // The same model in a second column is allowed: columns are positions, not models.
    await workbench.addModelButton.click();
    await pickModel(page, "mock / fast");
    await expect(headers).toHaveText(["mock / fast", "mock / echo", "mock / slow", "mock / fast"]);

    // Four is the most: "+" is disabled and says why.
    await expect(workbench.addModelButton).toBeDisabled();
    await expect(workbench.addModelButton).toHaveAttribute("title", "A run can compare up to 4 models");

    await workbench.clickRun();
    await workbench.expectDone(8);
    for (const [column, model] of ["fast", "echo", "slow", "fast"].entries()) {
      for (const row of [0, 1]) {
        await expect(cellAt(page, row, column)).toHaveAttribute("data-status", "ok");
        await expect(cellAt(page, row, column).getByTestId("cell-output")).toContainText(`Model: ${model}`);
      }
    }
    await expect(cellAt(page, 1, 3).getByTestId("cell-output")).toContainText("Bob");
    // Focus went back to "+" at the far right; show the grid from its first column.
    await workbench.grid.hover();
    await page.mouse.wheel(-2000, 0);
    await expect(cellAt(page, 0, 0)).toBeInViewport({ ratio: 1 });
    await saveScreenshot(page, "grid-ok");

    // The × shows on hover only; removing column 2 shifts 3 and 4 left with their results.
    const secondHeader = page.getByRole("columnheader", { name: /mock \/ echo/ });
    const removeSecond = secondHeader.getByRole("button", { name: "Remove column 2: mock / echo" });
    await page.mouse.move(5, 5);
    await expect(removeSecond).toHaveCSS("opacity", "0");
    await secondHeader.hover();
    await expect(removeSecond).toHaveCSS("opacity", "1");
    await removeSecond.click();

    await expect(headers).toHaveText(["mock / fast", "mock / slow", "mock / fast"]);
    await expect(page.getByTestId("summary-cell")).toHaveCount(3);
    for (const [column, model] of ["fast", "slow", "fast"].entries()) {
      await expect(cellAt(page, 0, column)).toHaveAttribute("data-status", "ok");
      await expect(cellAt(page, 0, column).getByTestId("cell-output")).toContainText(`Model: ${model}`);
    }
    await expect(workbench.cell(2, "mock / slow")).toContainText("Bob");
    await expect(workbench.addModelButton).toBeEnabled();

    // Down to one column: the last one has no ×.
    await page.getByRole("button", { name: "Remove column 3: mock / fast" }).click();
    await page.getByRole("button", { name: "Remove column 1: mock / fast" }).click();
    await expect(headers).toHaveText(["mock / slow"]);
    await expect(page.getByTestId("remove-column-button")).toHaveCount(0);
    await expect(cellAt(page, 0, 0).getByTestId("cell-output")).toContainText("Model: slow");
  });

  test("changing a column's model clears only that column's cells", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: "Describe {{city}} briefly.",
      rows: [{ city: "Lyon" }, { city: "Oslo" }],
      columns: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "fast" },
      ],
    });
    await workbench.clickRun();
    await workbench.expectDone(4);
    await expect(cellAt(page, 1, 1).getByTestId("cell-output")).toContainText("Oslo");

    await page.getByRole("button", { name: "Column 2: mock / fast, change model" }).click();
    await expect(page.getByRole("dialog", { name: "Change model of column 2" })).toBeVisible();
    await pickModel(page, "mock / echo");

    await expect(page.getByTestId("column-header-button")).toHaveText(["mock / fast", "mock / echo"]);
    for (const row of [0, 1]) {
      // The edited column's old answers came from another model: gone.
      await expect(cellAt(page, row, 1)).toHaveAttribute("data-status", "not-run");
      await expect(cellAt(page, row, 1)).toHaveText("Not run");
      // The other column keeps its answers.
      await expect(cellAt(page, row, 0)).toHaveAttribute("data-status", "ok");
      await expect(cellAt(page, row, 0).getByTestId("cell-output")).toContainText("Model: fast");
    }
    await expect(page.getByTestId("summary-cell").nth(1)).toHaveText("Not run");
    await expect(page.getByTestId("summary-cell").nth(0)).not.toHaveText("Not run");
  });

  test("a click on a cell opens its full output with tokens, cost, latency and grade", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    const ending = "THE-VERY-LAST-WORDS";
    const text = `Write about {{topic}}. ${"Keep every sentence short and plain, and say nothing twice. ".repeat(5)}${ending}`;
    await openFreshWorkbench(page, { text, rows: [{ topic: "tides" }] });
    await workbench.clickRun();
    await workbench.expectDone(1);

    const cell = workbench.cell(1, "mock / echo");
    const preview = cell.getByTestId("cell-output");
    // The grid shows the first 200 characters and an ellipsis.
    await expect(preview).toHaveText(/…$/);
    expect(Array.from((await preview.textContent()) ?? "").length).toBe(201);
    await expect(preview).not.toContainText(ending);

    // The page holds the start of each output; the dialog reads the whole of this one.
    const fullRead = page.waitForRequest(
      (request) => request.method() === "GET" && /\/api\/v1\/runs\/[\w-]+\/cells\/[\w-]+$/.test(request.url()),
    );
    await cell.click();
    const modal = page.getByRole("dialog", { name: "Row 1, mock / echo" });
    await expect(modal).toBeVisible();
    await fullRead;
    await expect(modal).toHaveAttribute("data-testid", "cell-modal");
    const output = modal.getByRole("region", { name: "Output" });
    await expect(output).toContainText("Write about tides.");
    await expect(output).toContainText(ending);
    await expect(modal.getByRole("term").filter({ hasText: "Tokens in | out" })).toBeVisible();
    const details = modal.locator("dl").first();
    await expect(details).toContainText(/Tokens in \| out\s*[\d.]+k? \| [\d.]+k? \(\d+ in, \d+ out\)/);
    await expect(details).toContainText(/Cost\s*\$\d+\.\d+/);
    await expect(details).toContainText(/Latency\s*(\d+ ms|[\d.]+ s)/);
    await expect(details).toContainText(/Grade\s*By hand: not graded/);
    await expect(details).toContainText(/Status\s*ok/);
    await saveScreenshot(page, "cell-modal");

    await modal.getByRole("button", { name: "Close" }).click();
    await expect(modal).toBeHidden();
  });

  test("the metric pill cycles Grade, Tokens, Cost, Latency and every badge and the summary follow", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: "Summarise {{topic}}.",
      rows: [{ topic: "rivers" }, { topic: "glaciers" }, { topic: "deltas" }],
      columns: [
        { provider: "mock", model: "echo" },
        { provider: "mock", model: "fast" },
      ],
    });
    await workbench.clickRun();
    await workbench.expectDone(6);

    const pill = page.getByTestId("metric-pill");
    const badges = page.getByTestId("cell-badge");
    const summaries = page.getByTestId("summary-cell");
    await expect(badges).toHaveCount(6);

    // Grade without a grader: thumbs to grade by hand; nobody graded yet.
    await expect(pill).toHaveAccessibleName("Metric: Grade. Press to show Tokens");
    await expect(page.getByTestId("thumbs-button")).toHaveCount(6);
    await expect(summaries.first()).toHaveAccessibleName("Average grade, column 1: —, 0 graded");

    await pill.click();
    await expect(pill).toHaveAccessibleName("Metric: Tokens. Press to show Cost");
    for (const badge of await badges.all()) {
      await expect(badge).toHaveAttribute("data-metric", "tokens");
      await expect(badge).toHaveText(TOKENS);
    }
    await expect(page.getByTestId("thumbs-button")).toHaveCount(0);
    for (const summary of await summaries.all()) {
      await expect(summary).toHaveAttribute("data-metric", "tokens");
      const label = (await summary.getAttribute("aria-label")) ?? "";
      expect(label).toMatch(/^Average tokens in \| out, column \d: .+, 3 cells$/);
      expect(label.replace(/^.*: /, "").replace(/, 3 cells$/, "")).toMatch(TOKENS);
    }
    // The badge fades in over 150 ms, and so does the pill's new label.
    await expect(badges.first()).toHaveCSS("transition-duration", "0.15s");
    await expect(badges.first()).toHaveCSS("transition-property", "opacity");
    const tokensLabel = pill.getByText("Tokens", { exact: true });
    await expect(tokensLabel).toHaveCSS("transition-duration", "0.15s");
    await expect(tokensLabel).toHaveCSS("opacity", "1");
    await expect(pill.getByText("Grade", { exact: true })).toHaveCSS("opacity", "0");
    await saveScreenshot(page, "grid-metric-tokens");

    await pill.click();
    await expect(pill).toHaveAccessibleName("Metric: Cost. Press to show Latency");
    for (const badge of await badges.all()) await expect(badge).toHaveText(/^\$\d+\.\d+$/);
    await expect(summaries.first()).toHaveAccessibleName(/^Average cost, column 1: \$\d+\.\d+, 3 cells$/);

    await pill.click();
    await expect(pill).toHaveAccessibleName("Metric: Latency. Press to show Grade");
    for (const badge of await badges.all()) await expect(badge).toHaveText(/^\d+ ms$|^[\d.]+ s$/);
    // mock/echo takes about 300 ms; mock/fast answers at once.
    await expect(summaries.first()).toHaveAccessibleName(/^Average latency, column 1: ([1-9]\d\d ms|[\d.]+ s), 3 cells$/);
    await expect(summaries.nth(1)).toHaveAccessibleName(/^Average latency, column 2: \d+ ms, 3 cells$/);

    await pill.click();
    await expect(pill).toHaveAccessibleName("Metric: Grade. Press to show Tokens");
    await expect(page.getByTestId("thumbs-button")).toHaveCount(6);
    await expect(pill.getByText("Grade", { exact: true })).toHaveCSS("opacity", "1");
  });
});
