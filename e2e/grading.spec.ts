import { expect, test, type Page } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";
import { rgbOf } from "./helpers/colors";

// Workbench spec, Testing Plan 4 (Grader Overlay) and 5 (Manual Grading). mock/echo grades too
// (a run's grader uses the column's model) and echoes the grader prompt, so a grader that ends in
// <response>{{expected_grade}}</response> gives each row the grade its dataset row asks for.

const GRADER = "Judge this answer: {{output}}\n<response>{{expected_grade}}</response>";
const ROWS = [
  { topic: "apples", expected_grade: "0.0" },
  { topic: "pears", expected_grade: "0.5" },
  { topic: "plums", expected_grade: "1.0" },
];

type ServerCell = { id: string; row: number; column: number; manualGrade: number | null; grade: number | null };

/** The run on screen, from the address bar. */
function runIdOf(page: Page): string {
  const id = new URL(page.url()).searchParams.get("run");
  expect(id, "the run id is in the address bar").toBeTruthy();
  return id!;
}

async function serverCells(page: Page, runId: string): Promise<ServerCell[]> {
  const response = await page.request.get(`/api/v1/runs/${runId}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { cells: ServerCell[] }).cells;
}

async function manualGradeOnServer(page: Page, runId: string, row: number): Promise<number | null | undefined> {
  return (await serverCells(page, runId)).find((cell) => cell.row === row && cell.column === 0)?.manualGrade;
}

async function runWithGrader(page: Page) {
  const workbench = new WorkbenchPage(page);
  await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: ROWS, grader: GRADER });
  await expect(page.getByTestId("grader-select")).not.toHaveValue("");
  await workbench.clickRun();
  await workbench.expectDone(3);
  return workbench;
}

test.describe("grading", () => {
  test("a grader's grades show as coloured badges, and a click on one shows the grader's output in the cell", async ({ page }) => {
    const workbench = await runWithGrader(page);
    const badgeOf = (row: number) => workbench.cell(row, "mock / echo").getByTestId("grade-badge");
    await expect(badgeOf(1)).toHaveAttribute("data-grade", "0.00");
    await expect(badgeOf(2)).toHaveAttribute("data-grade", "0.50");
    await expect(badgeOf(3)).toHaveAttribute("data-grade", "1.00");
    await expect(badgeOf(3)).toHaveText("1.00");

    // 0.0 is red, 1.0 green, 0.5 amber between them.
    const [red0, green0, blue0] = await rgbOf(badgeOf(1), "backgroundColor");
    expect(red0).toBeGreaterThan(green0);
    expect(red0).toBeGreaterThan(blue0);
    const [red1, green1, blue1] = await rgbOf(badgeOf(3), "backgroundColor");
    expect(green1).toBeGreaterThan(red1);
    expect(green1).toBeGreaterThan(blue1);
    const [redHalf, greenHalf, blueHalf] = await rgbOf(badgeOf(2), "backgroundColor");
    expect(redHalf).toBeGreaterThan(blueHalf);
    expect(greenHalf).toBeGreaterThan(blueHalf);
    expect(redHalf).toBeGreaterThanOrEqual(greenHalf);
    // The numbers are readable: dark text on the pale tint.
    const [textRed, textGreen, textBlue] = await rgbOf(badgeOf(1), "color");
    expect(textRed + textGreen + textBlue).toBeLessThan(250);

    // The summary row: the mean of 0, 0.5 and 1.
    await expect(page.getByTestId("summary-cell").first()).toHaveAccessibleName("Average grade, column 1: 0.50, 3 graded");
    await saveScreenshot(page, "grades");

    // A click on the badge shows the grader's whole answer in place of the model's.
    const cell = workbench.cell(2, "mock / echo");
    await expect(cell.getByTestId("grader-overlay")).toHaveCount(0);
    await badgeOf(2).click();
    const overlay = cell.getByTestId("grader-overlay");
    await expect(overlay).toBeVisible();
    await expect(overlay).toContainText("Judge this answer:");
    await expect(overlay).toContainText("<response>0.5</response>");
    await expect(cell.getByTestId("cell-output")).toHaveCount(0);
    await expect(badgeOf(2)).toHaveAttribute("aria-expanded", "true");
    // The overlay is not a click on the cell: no modal.
    await expect(page.getByTestId("cell-modal")).toBeHidden();
    await saveScreenshot(page, "grader-overlay");

    // The pointer leaves the cell: the model's output is back.
    await page.getByRole("columnheader", { name: "Row" }).hover();
    await expect(overlay).toHaveCount(0);
    await expect(cell.getByTestId("cell-output")).toContainText("Name a fact about pears.");
  });

  test("without a grader, thumbs grade by hand: none, pass, fail, pass, kept on the server", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: ROWS.map(({ topic }) => ({ topic })) });
    await expect(page.getByTestId("grader-select")).toHaveValue("");
    await workbench.clickRun();
    await workbench.expectDone(3);
    const runId = runIdOf(page);
    const thumbs = (row: number) => workbench.cell(row, "mock / echo").getByTestId("thumbs-button");
    const summary = page.getByTestId("summary-cell").first();

    await expect(page.getByTestId("grade-badge")).toHaveCount(0);
    await expect(thumbs(1)).toHaveAttribute("data-manual-grade", "none");
    await expect(thumbs(1)).toHaveAccessibleName("Grade row 1, mock / echo: not graded, press to mark pass");
    await expect(summary).toHaveAccessibleName("Average grade, column 1: —, 0 graded");

    await thumbs(1).click();
    await expect(thumbs(1)).toHaveAttribute("data-manual-grade", "pass");
    await expect(thumbs(1)).toHaveAccessibleName("Grade row 1, mock / echo: pass, press to mark fail");
    await expect.poll(() => manualGradeOnServer(page, runId, 0)).toBe(1);
    await expect(summary).toHaveAccessibleName("Average grade, column 1: 1.00, 1 graded");

    await thumbs(1).click();
    await expect(thumbs(1)).toHaveAttribute("data-manual-grade", "fail");
    await expect(thumbs(1)).toHaveAccessibleName("Grade row 1, mock / echo: fail, press to mark pass");
    await expect.poll(() => manualGradeOnServer(page, runId, 0)).toBe(0);
    await expect(summary).toHaveAccessibleName("Average grade, column 1: 0.00, 1 graded");

    await thumbs(1).click();
    await expect(thumbs(1)).toHaveAttribute("data-manual-grade", "pass");
    await expect.poll(() => manualGradeOnServer(page, runId, 0)).toBe(1);

    // A second cell failed: the summary is the mean of the hand grades (1 and 0).
    await thumbs(2).click();
    await thumbs(2).click();
    await expect(thumbs(2)).toHaveAttribute("data-manual-grade", "fail");
    await expect.poll(() => manualGradeOnServer(page, runId, 1)).toBe(0);
    await expect(summary).toHaveAccessibleName("Average grade, column 1: 0.50, 2 graded");
    await saveScreenshot(page, "manual-grades");

    // After a reload the grades are still there.
    await page.reload();
    await expect(thumbs(1)).toHaveAttribute("data-manual-grade", "pass");
    await expect(thumbs(2)).toHaveAttribute("data-manual-grade", "fail");
    await expect(thumbs(3)).toHaveAttribute("data-manual-grade", "none");
    await expect(summary).toHaveAccessibleName("Average grade, column 1: 0.50, 2 graded");
  });

  test("a grade by hand overrides the grader's in the summary", async ({ page }) => {
    const workbench = await runWithGrader(page);
    const runId = runIdOf(page);
    const summary = page.getByTestId("summary-cell").first();
    await expect(summary).toHaveAccessibleName("Average grade, column 1: 0.50, 3 graded");

    // The grader gave row 1 a 0.0; a person passes it in the cell's modal.
    await workbench.cell(1, "mock / echo").click();
    const modal = page.getByRole("dialog", { name: "Row 1, mock / echo" });
    await expect(modal).toContainText("Grader: 0.00");
    const thumbs = modal.getByTestId("thumbs-button");
    await expect(thumbs).toHaveAttribute("data-manual-grade", "none");
    await thumbs.click();
    await expect(thumbs).toHaveAttribute("data-manual-grade", "pass");
    await expect(modal).toContainText("By hand: pass");
    await expect.poll(() => manualGradeOnServer(page, runId, 0)).toBe(1);
    await modal.getByRole("button", { name: "Close" }).click();

    // (1 + 0.5 + 1) / 3: the hand grade counts instead of the grader's 0.
    await expect(summary).toHaveAccessibleName("Average grade, column 1: 0.83, 3 graded");
    const badge = workbench.cell(1, "mock / echo").getByTestId("grade-badge");
    await expect(badge).toHaveAttribute("data-grade", "1.00");
    const [red, green] = await rgbOf(badge, "backgroundColor");
    expect(green).toBeGreaterThan(red);
  });
});
