import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./helpers/axe";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage } from "./workbench-page";

// Issue 10, item 22: an axe-core scan (WCAG 2.1 A and AA) of every page, in the states a person
// meets: signing in, the workbench empty, with a dataset, during and after a graded run, with each
// of its dialogs open, and each settings page. Other specs call expectAccessible at their own states.

const TWO_COLUMNS = [
  { provider: "mock", model: "echo" },
  { provider: "mock", model: "fast" },
];
const ROWS = [
  { topic: "tides", expected_grade: "0.0" },
  { topic: "rain", expected_grade: "0.5" },
  { topic: "fog", expected_grade: "1.0" },
];
// {{tone}} is no column: the editor marks it as missing, a state of its own to scan.
const PROMPT = "Explain {{topic}} in the style of {{tone}}.\nAnswer as JSON inside <response></response>.";
const GRADER = "Judge this answer: {{output}}\n<response>{{expected_grade}}</response>";

async function runToEnd(page: Page, cells: number): Promise<WorkbenchPage> {
  const workbench = new WorkbenchPage(page);
  await workbench.clickRun();
  await workbench.expectDone(cells);
  return workbench;
}

test.describe("axe-core finds nothing at WCAG 2.1 AA", () => {
  test("the sign-in page", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, "the sign-in page");
  });

  test("the workbench: empty, with a dataset, after a graded run, and its dialogs", async ({ page }) => {
    test.setTimeout(90_000);
    await openFreshWorkbench(page, { text: "Write a haiku about the sea." });
    await expectAccessible(page, "the workbench with a prompt and no dataset");
    // The page's heading is in its main landmark, not between the landmarks.
    await expect(page.getByRole("main").getByRole("heading", { level: 1, name: "Prompt workbench" })).toBeAttached();

    await openFreshWorkbench(page, { text: PROMPT, rows: ROWS, grader: GRADER, columns: TWO_COLUMNS });
    const variable = page.getByTestId("prompt-editor").locator(".cm-template-variable").first();
    await expect(variable).toBeVisible();
    await expectAccessible(page, "the workbench with a dataset, before a run");
    // With the cursor on the line of the variables, over the active line's tint.
    await variable.click();
    await expectAccessible(page, "the editor with the cursor on a line of variables");
    await page.getByRole("heading", { name: "Variables" }).click();

    // Run with {{tone}} missing: the dialog that says why it cannot start.
    await page.getByTestId("run-button").click();
    const problem = page.getByRole("dialog", { name: "The run can't start yet" });
    await expect(problem).toBeVisible();
    await expectAccessible(page, "the dialog naming a missing variable");
    await problem.getByRole("button", { name: "OK" }).click();
    await expect(problem).toBeHidden();

    await openFreshWorkbench(page, { text: "Explain {{topic}} briefly.", rows: ROWS, grader: GRADER, columns: TWO_COLUMNS });
    const workbench = await runToEnd(page, 6);
    await expectAccessible(page, "the workbench after a graded run");

    // The grader's output in place of the cell's.
    const cell = workbench.cell(2, "mock / echo");
    await cell.getByTestId("grade-badge").click();
    await expect(cell.getByRole("region", { name: "Grader output" })).toBeVisible();
    await expectAccessible(page, "a cell showing its grader's output");
    // The keyboard reaches the scrolling output, and Escape there closes it and returns to the cell.
    const overlay = cell.getByRole("region", { name: "Grader output" });
    await cell.getByTestId("grade-badge").focus();
    await page.keyboard.press("Shift+Tab");
    await expect(overlay).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(overlay).toBeHidden();
    await expect(cell).toBeFocused();

    // A cell's dialog.
    await workbench.cell(1, "mock / fast").click();
    const dialog = page.getByRole("dialog", { name: "Row 1, mock / fast" });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, "a cell's dialog");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // Each metric in the badges and the summary row.
    for (const metric of ["Tokens", "Cost", "Latency"] as const) {
      await workbench.showMetric(metric);
      await expectAccessible(page, `the grid showing ${metric}`);
    }
  });

  test("the model picker", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: ROWS.slice(0, 1) });
    const workbench = new WorkbenchPage(page);
    // The model picker.
    await workbench.addModelButton.click();
    const picker = page.getByRole("dialog", { name: "Add a model" });
    await expect(picker).toBeVisible();
    await expectAccessible(page, "the model picker");
    await picker.getByRole("button", { name: "Close" }).click();
    await expect(picker).toBeHidden();
  });

  test("the run history: the list, a comparison, and a past run read-only", async ({ page }) => {
    test.setTimeout(90_000);
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: ROWS.slice(0, 2) });
    const workbench = await runToEnd(page, 2);
    await workbench.writePrompt("Name two facts about {{topic}}.");
    await runToEnd(page, 2);

    await page.getByRole("button", { name: "History" }).click();
    const history = page.getByTestId("history-dialog");
    await expect(history.getByRole("heading", { name: "Run history" })).toBeVisible();
    await expect(history.getByTestId("history-run-row")).toHaveCount(2);
    await expect(history.getByTestId("history-diff")).toBeVisible();
    await expectAccessible(page, "the run history comparing two runs");

    await history.getByRole("button", { name: /^Open .* v1, / }).click();
    await expect(page.getByTestId("history-banner")).toBeVisible();
    await expectAccessible(page, "a past run opened read-only");
  });

  for (const [path, heading] of [
    ["/settings/keys", "API keys"],
    ["/settings/prices", "Prices"],
    ["/settings/limits", "Limits"],
  ] as const) {
    test(`the settings page ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
      await expectAccessible(page, path);
    });
  }
});
