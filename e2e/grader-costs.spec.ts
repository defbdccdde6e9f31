import { expect, test, type Page } from "@playwright/test";
import { formatUsd } from "../lib/client/format-money";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Issue 10, items 1 and 2: the grader's calls are paid and counted apart where a person reads
// costs, and one model, picked on the grader pill (the first column's by default), grades every
// column, named in the pill, the cell dialog and the history. mock/mock is priced for this test
// alone (and unpriced after it), so its grading costs something to count.

const GRADER = "Judge this answer: {{output}}\n<response>{{expected_grade}}</response>";
const ROWS = [
  { topic: "apples", expected_grade: "0.0" },
  { topic: "pears", expected_grade: "1.0" },
];
const PRICED = { provider: "mock", model: "mock" };

type Summary = {
  spentUsd: number;
  generatorSpentUsd: number;
  graderSpentUsd: number;
  graderModel: { provider: string; model: string } | null;
};

async function runSummary(page: Page): Promise<Summary> {
  const id = new URL(page.url()).searchParams.get("run");
  const response = await page.request.get(`/api/v1/runs/${id}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Summary;
}

test.describe("grader costs and the grading model", () => {
  test.beforeEach(async ({ request }) => {
    const priced = await request.put("/api/v1/prices", { data: { ...PRICED, inputPerMTok: 200, outputPerMTok: 400 } });
    expect(priced.ok()).toBe(true);
  });
  test.afterEach(async ({ request }) => {
    await request.delete(`/api/v1/prices?provider=${PRICED.provider}&model=${PRICED.model}`);
  });

  test("the grader pill picks the grading model, and its cost shows apart in the plan, the toolbar, the cell and the history", async ({
    page,
  }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, {
      text: "Name a fact about {{topic}}.",
      rows: ROWS,
      grader: GRADER,
      columns: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "mock" },
      ],
    });

    // By default the first column's model grades every column, and the pill says so.
    const gradingModel = page.getByRole("combobox", { name: "Grading model" });
    await expect(gradingModel).toBeVisible();
    await expect(gradingModel.locator("option:checked")).toHaveText("by mock / fast (first column)");
    await expect(page.getByTestId("run-plan-grading")).toHaveText("grading by mock / fast: est. $0.00 of it");

    // The priced model grades instead: the plan counts its grading.
    await gradingModel.selectOption({ label: "by mock / mock" });
    await expect(page.getByTestId("run-plan-grading")).toContainText(/^grading by mock \/ mock: (est\.|at least) \$[\d.]+ of it$/);
    await saveScreenshot(page, "grader-pill-model");

    await workbench.clickRun();
    await workbench.expectDone(4);
    const summary = await runSummary(page);
    expect(summary.graderModel).toEqual(PRICED);
    expect(summary.graderSpentUsd).toBeGreaterThan(0);
    expect(summary.spentUsd).toBeCloseTo(summary.generatorSpentUsd + summary.graderSpentUsd, 12);

    // SPENT counts both, and shows the two apart.
    const meter = page.getByTestId("spend-meter");
    await expect(meter).toContainText(formatUsd(summary.spentUsd));
    const split = page.getByTestId("spend-split");
    await expect(split).toHaveText(`(grader ${formatUsd(summary.graderSpentUsd)})`);
    await expect(split).toHaveAttribute(
      "title",
      `Models ${formatUsd(summary.generatorSpentUsd)}, grader ${formatUsd(summary.graderSpentUsd)}: the budget counts both.`,
    );
    // The summary row averages the grades the one grading model gave.
    await expect(page.getByTestId("summary-cell").first()).toHaveAccessibleName("Average grade, column 1: 0.50, 2 graded");
    await saveScreenshot(page, "grader-spend");
    await page.setViewportSize({ width: 1600, height: 900 });
    await saveScreenshot(page, "grader-spend-wide");
    await expect(split).toBeVisible();

    // The cell's dialog names the model that graded it, and the grader's cost beside the model's.
    await workbench.cell(1, "mock / fast").click();
    const dialog = page.getByTestId("cell-modal");
    await expect(dialog.getByTestId("cell-graded-by")).toHaveText("mock / mock");
    await expect(dialog).toContainText(/· grader \$[\d.]+/);
    await saveScreenshot(page, "grader-cell-dialog");
    await dialog.getByRole("button", { name: /close/i }).click();
    await expect(dialog).toBeHidden();

    // The history says which model graded, and the grader's part of each model's cost.
    await page.getByTestId("history-button").click();
    const history = page.getByRole("dialog", { name: "Run history" });
    await expect(history.getByTestId("history-graded-by").first()).toContainText("graded by mock / mock");
    await expect(history.getByText(/^grader \$[\d.]+$/).first()).toBeVisible();
    await saveScreenshot(page, "grader-history");
  });
});
