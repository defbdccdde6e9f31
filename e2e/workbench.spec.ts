import { expect, test } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

test.describe("workbench", () => {
  test("opens the server's setup with one model column, and every control is reachable by Tab", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Describe {{city}}." });
    const workbench = new WorkbenchPage(page);

    await expect(page.getByRole("columnheader", { name: "Row" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: /mock \/ echo/ })).toBeVisible();
    // A run needs at least one model, so the only column cannot be removed.
    await expect(page.getByRole("button", { name: /^Remove column 1/ })).toBeHidden();
    await expect(page.getByText("Results appear here")).toBeVisible();
    await saveScreenshot(page, "empty");

    // Walk the page with Tab and note what gets focus.
    const reached = new Set<string>();
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    for (let step = 0; step < 24; step++) {
      await page.keyboard.press("Tab");
      reached.add(
        await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          return element?.getAttribute("aria-label") ?? element?.textContent?.trim() ?? "";
        }),
      );
    }
    for (const name of ["Prompt", "Prompts", "Upload dataset", "Grader", "Add model"]) expect(reached).toContain(name);
    expect([...reached].some((name) => name.startsWith("Run"))).toBe(true);
    expect([...reached].some((name) => name.startsWith("Metric: Grade"))).toBe(true);
    await expect(workbench.editor).toHaveText("Describe {{city}}.");
  });

  test("shows a dataset parse error in an alert", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await workbench.open();
    await workbench.uploadDataset("broken.csv");
    const alert = workbench.alert("broken.csv");
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("row 2");
    await saveScreenshot(page, "error");
    await alert.getByRole("button", { name: "Dismiss error" }).click();
    await expect(alert).toBeHidden();
  });

  test("runs a CSV over two models, filling cells in as they finish, with output as text", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Tell me about {{city}}.\nContext: {{description}}" });
    const workbench = new WorkbenchPage(page);

    // BOM, a quoted comma and a quoted newline: three rows, two columns.
    await workbench.uploadDataset("cities.csv");
    const summary = page.getByTestId("dataset-summary");
    await expect(summary).toContainText("cities.csv");
    await expect(summary).toContainText("3 rows");
    await expect(summary).toContainText("city, description");

    await workbench.addModel("mock / fast");
    await expect(page.getByRole("columnheader", { name: /mock \/ fast/ })).toBeVisible();
    await expect(workbench.grid.getByRole("row")).toHaveCount(4);

    await workbench.runWithKeyboard();
    await workbench.expectDone(6);
    await expect(page.getByTestId("run-status")).toHaveText("Completed");

    for (const row of [1, 2, 3]) {
      await expect(workbench.cell(row, "mock / echo")).toHaveAccessibleName(new RegExp(`^Row ${row}, mock / echo: ok`));
      await expect(workbench.cell(row, "mock / fast")).toHaveAccessibleName(new RegExp(`^Row ${row}, mock / fast: ok`));
    }
    // The mock echoes its input, so each row's values come back in its cells.
    await expect(workbench.cell(1, "mock / fast")).toContainText("Capital of France, on the Seine");
    await expect(workbench.cell(2, "mock / fast")).toContainText("Known for food");
    // Markup in output is shown literally, never rendered.
    const boldRow = workbench.cell(3, "mock / echo");
    await expect(boldRow).toContainText("<b>bold</b>");
    await expect(workbench.grid.locator("b")).toHaveCount(0);
    // Tokens "in | out" and latency, each in its metric view.
    await workbench.showMetric("Tokens");
    await expect(boldRow.getByTestId("cell-badge")).toHaveText(/^~?\d+(\.\d)?k? \| ~?\d+(\.\d)?k?$/);
    await workbench.showMetric("Latency");
    await expect(boldRow.getByTestId("cell-badge")).toHaveText(/\d+ ms|\d+(\.\d)? s/);
    await saveScreenshot(page, "completed");

    // Arrow keys move between cells.
    await workbench.cell(1, "mock / echo").focus();
    await page.keyboard.press("ArrowRight");
    await expect(workbench.cell(1, "mock / fast")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(workbench.cell(2, "mock / fast")).toBeFocused();
  });

  test("runs a prompt without variables once, with no dataset", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Say hello." });
    const workbench = new WorkbenchPage(page);
    await workbench.runButton.click();
    await expect(page).toHaveURL(/[?&]run=/);
    await workbench.expectDone(1);
    await expect(workbench.cell(1, "mock / echo")).toHaveAccessibleName(/^Row 1, mock \/ echo: ok/);
    await expect(workbench.cell(1, "mock / echo")).toContainText("Say hello.");
    // The header, one row and the summary row.
    await expect(workbench.grid.getByRole("row")).toHaveCount(3);
  });

  test("a run survives a reload: the page reopens it and catches up", async ({ page }) => {
    const text = "Write a postcard from {{city}}.";
    await openFreshWorkbench(page, { text, rows: cities(24), columns: [{ provider: "mock", model: "slow" }] });
    const workbench = new WorkbenchPage(page);

    await workbench.runWithKeyboard();
    const runUrl = page.url();
    // 24 calls of about 2 s, 8 at a time: about 6 s, so the run is still going when we reload.
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
    await expect(workbench.cell(24, "mock / slow")).toHaveAccessibleName(/: (queued|running)/);
    await saveScreenshot(page, "running");

    await page.reload();
    expect(page.url()).toBe(runUrl);
    // The prompt, the column and the rows come back from the server, and the run is still live.
    await expect(workbench.editor).toHaveText(text);
    await expect(page.getByRole("columnheader", { name: /mock \/ slow/ })).toBeVisible();
    await expect(workbench.grid.getByRole("row")).toHaveCount(26);
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
    await expect(workbench.cell(24, "mock / slow")).toHaveAccessibleName(/: (queued|running)/);

    await workbench.expectDone(24);
    await expect(page.getByTestId("run-status")).toHaveText("Completed");
    for (let row = 1; row <= 24; row++) {
      await expect(workbench.cell(row, "mock / slow")).toHaveAccessibleName(new RegExp(`^Row ${row}, mock / slow: ok`));
    }
    await expect(workbench.cell(24, "mock / slow")).toContainText("City 24");
    await expect(page.getByRole("button", { name: "Pause" })).toBeHidden();
  });

  test("pause, resume and cancel a run", async ({ page }) => {
    await openFreshWorkbench(page, { text: "A fact about {{city}}.", rows: cities(12), columns: [{ provider: "mock", model: "slow" }] });
    const workbench = new WorkbenchPage(page);

    await workbench.runWithKeyboard();
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Paused");
    await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
    // Run stays disabled while the run is active, even when paused.
    await expect(workbench.runButton).toBeDisabled();

    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByTestId("run-status")).toHaveText(/Running|Queued/);
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
    await workbench.expectDone(12);
    await expect(page.getByTestId("run-status")).toHaveText("Completed");

    // A second run, cancelled: unfinished cells end as cancelled and controls go away. The prompt
    // changes first: the same prompt again would be answered from the cache at once.
    await workbench.writePrompt("Another fact about {{city}}.");
    await workbench.runButton.click();
    await expect(page.getByRole("button", { name: "Cancel", exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    // A cancel cannot be undone: the page asks first.
    await page.getByRole("dialog", { name: "Cancel this run?" }).getByRole("button", { name: "Cancel run" }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Cancelled");
    await expect(page.getByRole("button", { name: "Cancel", exact: true })).toBeHidden();
    const cancelledCell = page.getByRole("group", { name: /mock \/ slow: cancelled/ }).first();
    await expect(cancelledCell).toBeVisible();
    await cancelledCell.scrollIntoViewIfNeeded();
    await expect(page.getByRole("group", { name: /: (queued|running)/ })).toHaveCount(0);
    await saveScreenshot(page, "cancelled");
    await expect(workbench.runButton).toBeEnabled();
  });
});

/** Rows of a one-column dataset: City 1, City 2, ... */
function cities(count: number): Record<string, string>[] {
  return Array.from({ length: count }, (_, index) => ({ city: `City ${index + 1}` }));
}
