import { expect, test, type Page } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// The workbench's own state (issue 10, items 4, 5, 8 and 9): the plan shown is the plan of the run
// that runs, a paused or cancelled run says so, a stale ?run= link leads back to the setup, and
// opening / again shows the latest run of the active prompt.

const runIdOf = (page: Page) => new URL(page.url()).searchParams.get("run");

/** Cancels the active run, confirming if the page asks first. */
async function cancelRun(page: Page) {
  await page.getByRole("toolbar", { name: "Results" }).getByRole("button", { name: "Cancel", exact: true }).click();
  const confirm = page.getByRole("button", { name: /^Cancel (the )?run$/ });
  const cancelled = page.getByTestId("run-status").filter({ hasText: "Cancelled" });
  await expect(confirm.or(cancelled).first()).toBeVisible();
  if (await confirm.isVisible()) await confirm.click();
}

test.describe("workbench state", () => {
  test("the plan is the plan of the run that runs, and a paused run says Paused", async ({ page }) => {
    test.setTimeout(90_000);
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: "Describe {{city}}.",
      rows: [{ city: "Paris" }, { city: "Lima" }, { city: "Oslo" }],
      columns: [{ provider: "mock", model: "slow" }],
    });
    const plan = page.getByTestId("run-plan");
    await expect(plan).toContainText(/\b3 cells · /);

    // A slow server: the plan of the uploaded file is still on its way when Run is pressed.
    await page.route("**/api/v1/runs?dryRun=true", async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await route.fulfill({ response });
    });
    await workbench.uploadDataset("twenty-four-cities.csv");
    await expect(page.getByTestId("dataset-summary")).toContainText("24 rows");
    await workbench.clickRun();
    // Paused at once, so the run cannot end (and the draft's plan come back) while this looks.
    await page.getByRole("button", { name: "Pause", exact: true }).click();
    await expect(page.getByTestId("run-status")).toHaveText("Paused");
    await expect(plan).toContainText(/\b24 cells · /);
    await expect(plan).not.toContainText(/\b3 cells/);
    // Paused is not running: no spinner, and the button says why it cannot start another run.
    await expect(workbench.runButton).toContainText("Paused");
    await expect(workbench.runButton).not.toContainText("Running");
    await expect(page.getByTestId("run-spinner")).toHaveCount(0);
    await expect(workbench.runButton).toHaveAttribute("title", /paused/i);
    // The plan line stays while paused.
    await expect(plan).toContainText(/\b24 cells · /);
    await saveScreenshot(page, "run-paused");

    // The server keeps the plan with the run: after a reload the paused run still shows its own.
    await page.reload();
    await expect(page.getByTestId("run-status")).toHaveText("Paused");
    await expect(plan).toContainText(/\b24 cells · /);
    await expect(plan).not.toContainText(/\b3 cells/);
    await saveScreenshot(page, "run-paused-reloaded");

    // Cancelled cells are not done.
    await cancelRun(page);
    await expect(page.getByTestId("run-status")).toHaveText("Cancelled");
    // The cells in flight when it was paused still finish; the rest are cancelled, and not done.
    const counts = async () => {
      const match = /^(\d+) \/ 24 done · (\d+) cancelled$/.exec((await workbench.progress.textContent()) ?? "");
      return match ? { done: Number(match[1]), cancelled: Number(match[2]) } : null;
    };
    await expect
      .poll(async () => {
        const c = await counts();
        return c && c.done + c.cancelled;
      })
      .toBe(24);
    expect((await counts())!.done).toBeLessThan(24);
    await expect(workbench.runButton).toHaveText(/^Run/);
    await expect(workbench.runButton).toBeEnabled();
    await saveScreenshot(page, "run-cancelled");
  });

  test("a stale ?run= link shows the error, leaves the link and restores the setup", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    const missing = "00000000-0000-4000-8000-000000000000";
    await openFreshWorkbench(page, { text: "Describe {{city}}.", rows: [{ city: "Paris" }], query: `?run=${missing}` });

    await expect(workbench.alert(`Could not reopen run ${missing}`)).toBeVisible();
    await expect.poll(() => runIdOf(page)).toBeNull();
    await expect(page.getByRole("columnheader", { name: /mock \/ echo/ })).toBeVisible();
    await expect(page.getByText("Loading…")).toHaveCount(0);
    await expect(workbench.addModelButton).toBeVisible();
    await expect(workbench.runButton).toBeEnabled();
    await saveScreenshot(page, "stale-run-link");

    // The setup works: a run starts from here.
    await workbench.clickRun();
    await workbench.expectDone(1);
  });

  test("opening / after a run shows the latest run of the active prompt, with a way back to a clean grid", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: "Describe {{city}}.",
      rows: [{ city: "Paris" }, { city: "Lima" }],
      columns: [{ provider: "mock", model: "fast" }],
    });
    await workbench.clickRun();
    await workbench.expectDone(2);
    const runId = runIdOf(page);

    await page.goto("/");
    await expect(page.getByTestId("run-status")).toHaveText("Completed");
    await expect(workbench.progress).toHaveText("2 / 2 done");
    await expect(workbench.cell(1, "mock / fast")).toHaveAccessibleName(/^Row 1, mock \/ fast: ok/);
    await expect.poll(() => runIdOf(page)).toBe(runId);
    await saveScreenshot(page, "latest-run-reopened");

    await page.getByRole("button", { name: "Clear results" }).click();
    await expect(page.getByTestId("run-status")).toHaveCount(0);
    await expect(workbench.cell(1, "mock / fast")).toContainText("Not run");
    await expect.poll(() => runIdOf(page)).toBeNull();
    await expect(page.getByRole("columnheader", { name: /mock \/ fast/ })).toBeVisible();
    await expect(workbench.runButton).toBeEnabled();
    await saveScreenshot(page, "latest-run-cleared");
  });
});
