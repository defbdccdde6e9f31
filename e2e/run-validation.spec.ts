import { expect, test, type Page } from "@playwright/test";
import {
  createDataset,
  createPrompt,
  openFreshWorkbench,
  seedExamples,
  setWorkbench,
  uniqueName,
  waitForSetup,
} from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Testing Plan 2 (Run Validation) of the workbench spec: Run checks the prompt's and the grader's
// {{variables}} against the dataset before anything is created, and says what is missing in a dialog.

const validationDialog = (page: Page) => page.getByRole("dialog", { name: "The run can't start yet" });

async function runCount(page: Page, promptId: string): Promise<number> {
  const response = await page.request.get(`/api/v1/prompts/${promptId}/runs`);
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { runs: unknown[] };
  return body.runs.length;
}

test.describe("run validation", () => {
  test("blocks a run whose variables are no dataset columns, naming each one in a dialog", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, {
      text: "Describe {{city}} for {{reader}} in a {{tone}} voice.",
      rows: [{ city: "Lyon" }, { city: "Porto" }],
      datasetName: "cities-only.csv",
    });
    const workbench = new WorkbenchPage(page);
    await workbench.runButton.click();
    const dialog = validationDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("list", { name: "Missing variables of the prompt" }).getByRole("listitem")).toHaveText([
      "{{reader}}",
      "{{tone}}",
    ]);
    await expect(dialog).toContainText("not columns of cities-only.csv");
    await expect(dialog).toContainText("Its columns are: city.");
    await saveScreenshot(page, "validation-dialog");
    await dialog.getByRole("button", { name: "OK" }).click();
    await expect(dialog).toBeHidden();
    expect(new URL(page.url()).searchParams.get("run")).toBeNull();
    expect(await runCount(page, prompt.id)).toBe(0);

    // Once the prompt uses only the dataset's column, Ctrl+Enter starts the run.
    await workbench.writePrompt("Describe {{city}}.");
    await page.keyboard.press("Control+Enter");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    await workbench.expectDone(2);
  });

  test("without a dataset, a prompt with variables is blocked and one without runs once", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Summarise {{article}}." });
    const workbench = new WorkbenchPage(page);
    await workbench.editor.click();
    await page.keyboard.press("Control+Enter");
    const dialog = validationDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("no dataset is loaded");
    await expect(dialog.getByRole("listitem")).toHaveText(["{{article}}"]);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    expect(await runCount(page, prompt.id)).toBe(0);

    await workbench.writePrompt("Summarise the news of the day.");
    await workbench.runButton.click();
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    await workbench.expectDone(1);
    await expect(workbench.cell(1, "mock / echo")).toContainText("Summarise the news of the day.");
    await expect(workbench.cell(2, "mock / echo")).toHaveCount(0);
    const run = (await (await page.request.get(`/api/v1/runs/${new URL(page.url()).searchParams.get("run")}`)).json()) as {
      rowCount: number;
      status: string;
    };
    expect(run).toMatchObject({ rowCount: 1, status: "completed" });
  });

  test("Ctrl+Enter before the dataset has loaded waits instead of calling its columns missing", async ({ page }) => {
    // Seeded first, as a first visit would, so the seed does not replace this setup.
    await seedExamples(page.request);
    const prompt = await createPrompt(page.request, { text: "Describe {{city}}." });
    const dataset = await createDataset(page.request, uniqueName("cities") + ".csv", [{ city: "Lyon" }, { city: "Porto" }]);
    await setWorkbench(page.request, { activePromptId: prompt.id, datasetId: dataset.id });
    // Hold the dataset back, as a slow server would, while the prompt is already shown.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === `/api/v1/datasets/${dataset.id}`,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const workbench = new WorkbenchPage(page);
    await page.goto("/");
    await expect(page.getByTestId("prompt-name")).toHaveText(prompt.name);
    await expect(page.getByRole("main")).toHaveAttribute("aria-busy", "true");
    await expect(workbench.runButton).toBeDisabled();
    await expect(workbench.runButton).toHaveAttribute("title", "The workbench is still loading");
    await expect(page.getByTestId("dataset-loading")).toHaveText("Loading…");
    await expect(page.getByTestId("dataset-empty")).toHaveCount(0);
    await saveScreenshot(page, "workbench-loading");

    await workbench.editor.click();
    await page.keyboard.press("Control+Enter");
    // Give a wrongly started check time to show its dialog.
    await page.waitForTimeout(300);
    await expect(validationDialog(page)).toBeHidden();
    expect(new URL(page.url()).searchParams.get("run")).toBeNull();

    release();
    await waitForSetup(page);
    await expect(workbench.runButton).toBeEnabled();
    await workbench.runWithKeyboard();
    await workbench.expectDone(2);
    expect(await runCount(page, prompt.id)).toBe(1);
  });

  test("extra dataset columns do not stop a run", async ({ page }) => {
    await openFreshWorkbench(page, {
      text: "Name a dish from {{city}}.",
      rows: [
        { city: "Lyon", country: "France", notes: "rivers" },
        { city: "Porto", country: "Portugal", notes: "bridges" },
      ],
    });
    const workbench = new WorkbenchPage(page);
    await expect(page.getByText("Columns not used: country, notes")).toBeVisible();
    await workbench.runButton.click();
    await expect(validationDialog(page)).toBeHidden();
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    await workbench.expectDone(2);
    await expect(workbench.cell(2, "mock / echo")).toContainText("Name a dish from Porto.");
  });

  test("a grader may use dataset columns and {{output}}, nothing else", async ({ page }) => {
    const rows = [
      { city: "Lyon", expected_grade: "0.2" },
      { city: "Porto", expected_grade: "0.9" },
    ];
    const blocked = await openFreshWorkbench(page, {
      text: "Name a dish from {{city}}.",
      rows,
      grader: "Judge {{output}} against {{rubric}}.\n<response>{{expected_grade}}</response>",
    });
    const graderName = blocked.grader!.name;
    await expect(page.getByTestId("grader-select").locator("option:checked")).toHaveText(graderName);
    const workbench = new WorkbenchPage(page);
    await workbench.runButton.click();
    const dialog = validationDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`The grader “${graderName}” uses these variables`);
    await expect(dialog.getByRole("list", { name: "Missing variables of the grader" }).getByRole("listitem")).toHaveText(["{{rubric}}"]);
    // The prompt itself is fine, so only the grader's list shows.
    await expect(dialog.getByRole("list", { name: "Missing variables of the prompt" })).toHaveCount(0);
    await saveScreenshot(page, "grader-validation-dialog");
    await dialog.getByRole("button", { name: "OK" }).click();
    expect(await runCount(page, blocked.prompt.id)).toBe(0);

    // Only {{output}} and columns: the run starts, and the grader grades each cell.
    const allowed = await openFreshWorkbench(page, {
      text: "Name a dish from {{city}}.",
      rows,
      grader: "Judge {{output}} for {{city}}.\n<response>{{expected_grade}}</response>",
    });
    await workbench.runButton.click();
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    await workbench.expectDone(2);
    await expect(dialog).toBeHidden();
    expect(await runCount(page, allowed.prompt.id)).toBe(1);
    const run = (await (await page.request.get(`/api/v1/runs/${new URL(page.url()).searchParams.get("run")}`)).json()) as {
      cells: { row: number; grade: number | null }[];
    };
    expect(run.cells.map((cell) => cell.grade).sort()).toEqual([0.2, 0.9]);
  });
});
