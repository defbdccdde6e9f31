import { expect, test } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// One unfinished run per prompt, decided by the server: a run started elsewhere (another tab,
// the API) while this page shows none makes Run answer 409, and the page offers to open it.

test.describe("one active run per prompt", () => {
  test("Run while another tab's run of the prompt is paused says so and opens that run", async ({ page }) => {
    const columns = [{ provider: "mock", model: "slow" }];
    const { prompt, datasetId } = await openFreshWorkbench(page, {
      text: "Describe {{city}}.",
      rows: [{ city: "Lyon" }, { city: "Porto" }, { city: "Turku" }],
      columns,
    });
    // "Another tab": a run of the same prompt, started and paused through the API.
    const created = await page.request.post("/api/v1/runs", { data: { promptId: prompt.id, datasetId, models: columns } });
    expect(created.status()).toBe(201);
    const other = (await created.json()) as { id: string };
    expect((await page.request.post(`/api/v1/runs/${other.id}/pause`)).ok()).toBe(true);

    const workbench = new WorkbenchPage(page);
    await workbench.runButton.click();
    const alert = page.getByRole("alert").filter({ hasText: "already has a run in progress" });
    await expect(alert).toHaveText(
      /This prompt already has a run in progress, started in another tab or window\. Open it to follow it here\./,
    );
    expect(new URL(page.url()).searchParams.get("run")).toBeNull();
    await saveScreenshot(page, "active-run-conflict");

    await alert.getByRole("button", { name: "Open that run" }).click();
    await expect(alert).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`[?&]run=${other.id}`));
    await expect(page.getByTestId("run-status")).toContainText("Paused");
    await saveScreenshot(page, "active-run-opened");
    // Nothing else was started.
    const runs = (await (await page.request.get(`/api/v1/prompts/${prompt.id}/runs`)).json()) as { runs: unknown[] };
    expect(runs.runs).toHaveLength(1);
    await page.request.post(`/api/v1/runs/${other.id}/cancel`);
  });
});
