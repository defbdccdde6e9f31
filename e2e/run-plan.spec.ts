import { expect, test } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// One story, in order: the mock is free by the reference; a price of our own makes the plan cost
// something; a first run gives the engine output history, so a tiny budget skips cells; an
// identical run is answered from the cache; a parameter the mock ignores is a warning.
test.describe.configure({ mode: "serial" });

test.describe("run plan, budget, cache and column parameters", () => {
  test("plans, budgets, caches and warns", async ({ page }) => {
    test.setTimeout(120_000);
    const workbench = new WorkbenchPage(page);
    const plan = page.getByTestId("run-plan");
    const spend = page.getByTestId("spend-meter");

    // A price left by an earlier run of this spec on the same server would hide the free plan.
    await page.request.delete("/api/v1/prices?provider=mock&model=fast");
    await openFreshWorkbench(page, { text: "Describe {{city}} in one line.", columns: [{ provider: "mock", model: "fast" }] });
    await expect(page.getByRole("columnheader", { name: /mock \/ fast/ })).toBeVisible();
    await workbench.uploadDataset("twenty-four-cities.csv");

    // Free by the reference: cells and $0.
    await expect(plan).toContainText(/24 cells · ~[\d.]+k? input tokens · (est\.|at least) \$0\.00/);
    await expect(plan).not.toContainText("unpriced");

    // A price of our own for mock/fast. Until the engine knows how long its answers are (other
    // specs on this server may have taught it already), the plan can only say "at least".
    const saved = await page.request.put("/api/v1/prices", {
      data: { provider: "mock", model: "fast", inputPerMTok: 50, outputPerMTok: 100 },
    });
    expect(saved.ok()).toBe(true);
    await workbench.writePrompt("Describe {{city}} in one short line.");
    await expect(plan).toContainText(/24 cells · ~[\d.]+k? input tokens · (at least|est\.) \$/);
    await plan.getByRole("button", { name: "Details" }).click();
    await expect(plan.getByRole("row", { name: /mock \/ fast/ })).toContainText(/24.*~[\d.]+k?/);

    // A first run, without a budget, teaches the engine how long the mock's answers are.
    await workbench.runWithKeyboard();
    await workbench.expectDone(24);
    await expect(spend).toContainText(/\$0\.\d*[1-9]/);
    await expect(spend).not.toContainText(" of ");

    // Now the plan has a non-zero estimate, from that history.
    await workbench.writePrompt("Name one landmark of {{city}}.");
    await expect(plan).toContainText(/24 cells · .*est\. \$0\.0*[1-9]/);
    await expect(plan.getByRole("row", { name: /mock \/ fast/ })).toContainText(/\$0\.0*[1-9]/);
    await saveScreenshot(page, "run-plan");

    // The same rows with another prompt (so nothing comes from the cache) and a tiny budget.
    await page.getByLabel("Budget", { exact: true }).fill("0.0001");
    await expect(page.getByLabel("Budget mode")).toHaveValue("estimate");
    await workbench.clickRun();
    await workbench.expectDone(24);
    const skipped = page.locator('[data-status="skipped"]');
    await expect(skipped.first()).toBeVisible();
    expect(await skipped.count()).toBeGreaterThan(0);
    await expect(skipped.first().getByTestId("cell-reason")).toContainText(/budget/i);
    await expect(spend).toContainText(/ of \$0\.0001/);
    await expect(page.getByRole("meter", { name: "Spend against budget" })).toBeVisible();
    const run = (await (await page.request.get(`/api/v1/runs/${new URL(page.url()).searchParams.get("run")}`)).json()) as {
      budgetUsd: number;
      budgetMode: string;
    };
    expect(run).toMatchObject({ budgetUsd: 0.0001, budgetMode: "estimate" });
    await saveScreenshot(page, "spend-meter");

    // The first prompt again, without a budget: every answer comes from the cache.
    await page.getByLabel("Budget", { exact: true }).fill("");
    await workbench.writePrompt("Describe {{city}} in one short line.");
    await workbench.clickRun();
    await workbench.expectDone(24);
    await expect(workbench.cell(1, "mock / fast").getByRole("img", { name: "answered from cache" })).toBeVisible();
    await expect(page.getByRole("img", { name: "answered from cache" })).toHaveCount(24);
    await saveScreenshot(page, "cached-cells");

    // Column parameters: the mock ignores maxTokens, and each cell says so.
    await page.getByRole("button", { name: /^Parameters of column 1/ }).click();
    const dialog = page.getByRole("dialog", { name: "Parameters · mock / fast" });
    await dialog.getByLabel("Max tokens").fill("64");
    await dialog.getByLabel("Temperature").fill("0.2");
    await dialog.getByLabel("System prompt").fill("Answer briefly.");
    await saveScreenshot(page, "column-params");
    await dialog.getByRole("button", { name: "Save parameters" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("columnheader", { name: /mock \/ fast/ })).toContainText("3 set");
    await workbench.clickRun();
    await workbench.expectDone(24);
    await expect(workbench.cell(1, "mock / fast")).toHaveAccessibleName(/^Row 1, mock \/ fast: \w+, .*ignores the parameter "maxTokens"/);
    await expect(workbench.cell(1, "mock / fast").getByTestId("cell-warning")).toHaveAttribute("title", /maxTokens/);
    const runColumns = (await (await page.request.get(`/api/v1/runs/${new URL(page.url()).searchParams.get("run")}`)).json()) as {
      columns: { params: Record<string, unknown> }[];
    };
    await saveScreenshot(page, "cell-warnings");
    expect(runColumns.columns[0].params).toMatchObject({ maxTokens: 64, temperature: 0.2, system: "Answer briefly." });
  });
});
