import { expect, test, type Locator, type Page } from "@playwright/test";
import { WorkbenchPage, saveScreenshot, saveScreenshotsAtSizes } from "./workbench-page";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { rgbOf } from "./helpers/colors";

// The run history of a prompt: two runs of different text, graded by hand to different averages,
// listed newest first, compared (text diff and grade change per model), and the earlier one
// opened read-only and left again.

const V1 = "Describe {{city}}.\nBe brief.";
const V2 = "Describe {{city}}.\nAdd one fact.";
const FAST = "mock / fast";
const ECHO = "mock / echo";

type HistoryRun = { id: string; version: number | null; models: { model: string; averageGrade: number | null; gradedCells: number }[] };

/** Grades a cell by hand: clicks its thumbs until it shows pass or fail. */
async function gradeCell(workbench: WorkbenchPage, row: number, column: string, pass: boolean) {
  const thumbs = workbench.cell(row, column).getByTestId("thumbs-button");
  const wanted = pass ? "pass" : "fail";
  for (let click = 0; click < 2; click += 1) {
    if ((await thumbs.getAttribute("data-manual-grade")) === wanted) break;
    await expect(thumbs).not.toHaveAttribute("aria-busy", "true");
    await thumbs.click();
  }
  await expect(thumbs).toHaveAttribute("data-manual-grade", wanted);
  await expect(thumbs).not.toHaveAttribute("aria-busy", "true");
}

/** "Prompt abc v1, 26 Nov 12:20": a version's label, with the name it ran under and the date it first ran. */
function versionLabel(name: string, version: number): RegExp {
  return new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} v${version}, \\d{1,2} [A-Z][a-z]{2} \\d{2}:\\d{2}$`);
}

/** Every row's Export and Open buttons are whole inside the history list, which needs no sideways scrolling. */
async function expectHistoryFits(page: Page) {
  const dialog = page.getByTestId("history-dialog");
  const list = dialog.getByTestId("history-list");
  const listBox = await list.boundingBox();
  if (!listBox) throw new Error("the history list is not laid out");
  const widths = await list.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(widths.scroll, "the history list scrolls sideways").toBeLessThanOrEqual(widths.client);
  for (const button of [
    ...(await dialog.getByTestId("history-open-button").all()),
    ...(await dialog.getByTestId("export-run-button").all()),
  ]) {
    const box = await button.boundingBox();
    if (!box) throw new Error("a button is not laid out");
    expect(box.x, `${await button.getAttribute("aria-label")} starts left of the list`).toBeGreaterThanOrEqual(listBox.x);
    expect(box.x + box.width, `${await button.getAttribute("aria-label")} is cut off`).toBeLessThanOrEqual(listBox.x + listBox.width);
  }
}

async function runIdInUrl(page: Page): Promise<string | null> {
  return new URL(page.url()).searchParams.get("run");
}

test.describe("run history", () => {
  test("lists two runs with their grades, compares them, and opens the earlier one read-only", async ({ page }) => {
    test.setTimeout(60_000);
    const workbench = new WorkbenchPage(page);
    const { prompt } = await openFreshWorkbench(page, {
      text: V1,
      rows: [{ city: "Paris" }, { city: "Lima" }],
      columns: [
        { provider: "mock", model: "fast" },
        { provider: "mock", model: "echo" },
      ],
    });

    // v1: fast passes one of two (0.50), echo both (1.00).
    await workbench.runWithKeyboard();
    await workbench.expectDone(4);
    const firstRunId = await runIdInUrl(page);
    await gradeCell(workbench, 1, FAST, true);
    await gradeCell(workbench, 2, FAST, false);
    await gradeCell(workbench, 1, ECHO, true);
    await gradeCell(workbench, 2, ECHO, true);

    // v2: fast passes both (1.00, +0.50), echo none (0.00, −1.00).
    await workbench.writePrompt(V2);
    await workbench.runButton.click();
    await expect.poll(() => runIdInUrl(page)).not.toBe(firstRunId);
    await workbench.expectDone(4);
    await gradeCell(workbench, 1, FAST, true);
    await gradeCell(workbench, 2, FAST, true);
    await gradeCell(workbench, 1, ECHO, false);
    await gradeCell(workbench, 2, ECHO, false);

    // The server has the grades before the dialog asks for them.
    const averages = async () => {
      const body = (await (await page.request.get(`/api/v1/prompts/${prompt.id}/runs`)).json()) as { runs: HistoryRun[] };
      return body.runs.map((run) => [run.version, ...run.models.map((model) => `${model.model} ${model.averageGrade?.toFixed(2)}`)]);
    };
    await expect.poll(averages).toEqual([
      [2, "fast 1.00", "echo 0.00"],
      [1, "fast 0.50", "echo 1.00"],
    ]);

    // The list: newest first, each model's average grade.
    await page.getByRole("button", { name: "History" }).click();
    const dialog = page.getByTestId("history-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { name: "Run history" })).toBeVisible();
    const rows = dialog.getByTestId("history-run-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByTestId("history-version")).toHaveText(versionLabel(prompt.name, 2));
    await expect(rows.nth(1).getByTestId("history-version")).toHaveText(versionLabel(prompt.name, 1));
    // One line per model; who graded is said once per run, above them.
    const modelLines = (row: Locator) => row.getByRole("listitem");
    await expect(modelLines(rows.nth(0))).toHaveText([/^fast\s*1\.00/, /^echo\s*0\.00/]);
    await expect(modelLines(rows.nth(1))).toHaveText([/^fast\s*0\.50/, /^echo\s*1\.00/]);
    await expect(rows.nth(0).getByTestId("history-graded-by")).toHaveText("graded by hand");
    await expect(rows.nth(0)).toContainText("completed");
    await expect(rows.nth(0)).toContainText("2 rows");
    // The run on screen is marked.
    await expect(rows.nth(0)).toHaveAttribute("aria-current", "true");
    await saveScreenshotsAtSizes(page, "history-dialog", () => expectHistoryFits(page));

    // Compare: the newest two are ticked; unticking one hides the comparison, ticking it back shows it.
    const compareV1 = dialog.getByRole("checkbox", { name: /^Compare .* v1, / });
    const compareV2 = dialog.getByRole("checkbox", { name: /^Compare .* v2, / });
    await expect(compareV1).toBeChecked();
    await expect(compareV2).toBeChecked();
    await compareV1.uncheck();
    await expect(dialog.getByText("Tick two runs above to compare them.")).toBeVisible();
    await compareV1.check();

    const diff = dialog.getByTestId("history-diff");
    await expect(diff).toContainText("+1 −1 lines changed");
    const added = diff.getByRole("row").filter({ hasText: "Add one fact." });
    const removed = diff.getByRole("row").filter({ hasText: "Be brief." });
    const same = diff.getByRole("row").filter({ hasText: "Describe {{city}}." });
    await expect(added.getByRole("cell").nth(2)).toHaveText("+added");
    await expect(removed.getByRole("cell").nth(2)).toHaveText("-removed");
    await expect(same.getByRole("cell").nth(2)).toHaveText(/^\s*unchanged$/);
    // Added lines green, removed lines red.
    const [addedR, addedG] = await rgbOf(added.getByRole("cell").nth(3));
    const [removedR, removedG] = await rgbOf(removed.getByRole("cell").nth(3));
    expect(addedG).toBeGreaterThan(addedR);
    expect(removedR).toBeGreaterThan(removedG);

    const changes = dialog.getByRole("table", { name: /^Change per model from .* v1, .* to .* v2, / });
    const fastChange = changes.getByRole("row", { name: /^fast/ });
    const echoChange = changes.getByRole("row", { name: /^echo/ });
    await expect(fastChange.getByRole("cell").first()).toHaveText(/0\.50\s*→\s*to\s*1\.00/);
    await expect(fastChange.getByTestId("grade-change")).toHaveText("+0.50");
    await expect(echoChange.getByTestId("grade-change")).toHaveText("\u22121.00");
    const [betterR, betterG] = await rgbOf(fastChange.getByTestId("grade-change"));
    const [worseR, worseG] = await rgbOf(echoChange.getByTestId("grade-change"));
    expect(betterG, "a better grade is green").toBeGreaterThan(betterR);
    expect(worseR, "a worse grade is red").toBeGreaterThan(worseG);
    await dialog.getByRole("heading", { name: "Compare" }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, "history-compare");

    // Paired by dataset row (both runs on the same two rows): fast 1 of 2 -> 2 of 2, one discordant
    // row, Newcombe's interval [-27.3, +90.5] covers 0; echo 2 of 2 -> 0 of 2, [-100, -7.0] does not,
    // but two discordant rows give the exact McNemar test p = 0.5: not distinguishable either.
    const paired = dialog.getByRole("table", { name: /^Paired difference per model, .* v2, .* minus .* v1, / });
    const fastPaired = paired.getByRole("row", { name: /^fast/ });
    const echoPaired = paired.getByRole("row", { name: /^echo/ });
    await expect(fastPaired.getByRole("rowheader")).toHaveText(/pass rate, 2 rows/);
    await expect(fastPaired.getByRole("cell").nth(0)).toHaveText("50.0% ± 35.4%");
    await expect(fastPaired.getByRole("cell").nth(1)).toHaveText("100.0% ± 0.0%");
    await expect(fastPaired.getByTestId("paired-interval")).toHaveText("+50.0 pts [\u221227.3 pts, +90.5 pts]");
    await expect(fastPaired.getByRole("cell").nth(3)).toHaveText("1.000");
    await expect(fastPaired.getByRole("cell").nth(4)).toHaveText("14");
    await expect(fastPaired.getByTestId("paired-verdict")).toHaveText("not distinguishable");
    await expect(echoPaired.getByTestId("paired-interval")).toHaveText("\u2212100.0 pts [\u2212100.0 pts, \u22127.0 pts]");
    await expect(echoPaired.getByRole("cell").nth(3)).toHaveText("0.500");
    await expect(echoPaired.getByTestId("paired-verdict")).toHaveText("not distinguishable");
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByTestId("paired-comparison").scrollIntoViewIfNeeded();
    await page.screenshot({ path: "test-results/history-paired-1280.png" });
    if (viewport) await page.setViewportSize(viewport);

    // Open v1: read-only, with its own text and grades, and no controls that change it.
    await dialog.getByRole("button", { name: /^Open .* v1, / }).click();
    await expect(dialog).toBeHidden();
    const banner = page.getByTestId("history-banner");
    await expect(banner).toContainText(/Earlier run of v1, .*: read-only\./);
    await expect(page).toHaveURL(new RegExp(`[?&]run=${firstRunId}.*view=history|view=history.*run=${firstRunId}`));
    const oldEditor = page.getByRole("textbox", { name: "Prompt of the earlier run, version 1 (read-only)" });
    await expect(oldEditor).toHaveText(V1.replaceAll("\n", ""));
    await expect(oldEditor).toHaveAttribute("aria-readonly", "true");
    // Typing changes nothing (CodeMirror's read-only state still allows selecting and copying).
    await oldEditor.click();
    await page.keyboard.type("XYZ");
    await expect(oldEditor).toHaveText(V1.replaceAll("\n", ""));
    await expect(page.getByTestId("thumbs-button")).toHaveCount(0);
    await expect(page.getByTestId("rerun-button")).toHaveCount(0);
    await expect(workbench.cell(2, FAST).getByRole("img", { name: "Graded by hand: fail" })).toBeVisible();
    await expect(workbench.cell(1, ECHO).getByRole("img", { name: "Graded by hand: pass" })).toBeVisible();
    await expect(workbench.runButton).toBeDisabled();
    await expect(page.getByRole("button", { name: "Add model" })).toBeDisabled();
    await saveScreenshot(page, "history-readonly");

    // Back to the current run: v2's text, editable, thumbs again.
    await banner.getByRole("button", { name: "Back to the current run" }).click();
    await expect(banner).toBeHidden();
    await expect(page).not.toHaveURL(/view=history/);
    await expect(workbench.editor).toHaveText(V2.replaceAll("\n", ""));
    await expect(workbench.editor).not.toHaveAttribute("aria-readonly", "true");
    await expect(workbench.cell(1, FAST).getByTestId("thumbs-button")).toHaveAttribute("data-manual-grade", "pass");
    await expect(workbench.cell(1, ECHO).getByTestId("thumbs-button")).toHaveAttribute("data-manual-grade", "fail");
    await expect(workbench.runButton).toBeEnabled();
  });

  test("tells two texts apart that both ran as v1, before and after a rename, by name and date", async ({ page }) => {
    test.setTimeout(60_000);
    const workbench = new WorkbenchPage(page);
    const { prompt } = await openFreshWorkbench(page, {
      text: "Summarise {{city}}.",
      rows: [{ city: "Paris" }],
      columns: [{ provider: "mock", model: "fast" }],
    });
    await workbench.runWithKeyboard();
    await workbench.expectDone(1);
    const firstRunId = await runIdInUrl(page);

    // A rename starts the version at 1 again, and the next run keeps it there whatever the text.
    const newName = `${prompt.name} short`;
    await page.getByTestId("prompt-name").click();
    await page.getByRole("textbox", { name: "Prompt name" }).fill(newName);
    await page.getByRole("textbox", { name: "Prompt name" }).press("Enter");
    await expect(page.getByTestId("prompt-name")).toHaveText(newName);
    await workbench.writePrompt("Summarise {{city}} in one line.");
    await workbench.runButton.click();
    await expect.poll(() => runIdInUrl(page)).not.toBe(firstRunId);
    await workbench.expectDone(1);
    await expect(page.getByTestId("prompt-version")).toHaveText("v1");

    await page.getByRole("button", { name: "History" }).click();
    const dialog = page.getByTestId("history-dialog");
    const rows = dialog.getByTestId("history-run-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).getByTestId("history-version")).toHaveText(versionLabel(newName, 1));
    await expect(rows.nth(1).getByTestId("history-version")).toHaveText(versionLabel(prompt.name, 1));

    // The comparison names both by name and date, and shows the two texts' difference.
    const heading = dialog.getByRole("heading", { name: /^Prompt · / });
    await expect(heading).toHaveText(
      new RegExp(`^Prompt · ${versionLabel(prompt.name, 1).source.slice(1, -1)} → ${versionLabel(newName, 1).source.slice(1, -1)}$`),
    );
    await expect(dialog.getByTestId("history-diff")).toContainText("+1 −1 lines changed");
    await saveScreenshot(page, "history-renamed-versions");
  });

  test("says two runs on different datasets cannot be paired, and why", async ({ page }) => {
    test.setTimeout(60_000);
    const workbench = new WorkbenchPage(page);
    const { prompt } = await openFreshWorkbench(page, {
      text: "Name {{city}}.",
      rows: [{ city: "Paris" }],
      columns: [{ provider: "mock", model: "fast" }],
    });
    await workbench.runWithKeyboard();
    await workbench.expectDone(1);
    // A second run of the same prompt on other rows: a dataset of its own.
    const created = await page.request.post("/api/v1/runs", {
      data: { promptId: prompt.id, rows: [{ city: "Oslo" }, { city: "Quito" }], models: [{ provider: "mock", model: "fast" }] },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await expect
      .poll(async () => ((await (await page.request.get(`/api/v1/runs/${id}`)).json()) as { status: string }).status)
      .toBe("completed");

    await page.getByRole("button", { name: "History" }).click();
    const dialog = page.getByTestId("history-dialog");
    await expect(dialog.getByTestId("history-run-row")).toHaveCount(2);
    await expect(dialog.getByTestId("paired-comparison")).toContainText(
      "Not paired: These runs used different datasets, so their rows cannot be paired: compare two runs on the same dataset.",
    );
    await expect(dialog.getByRole("table", { name: /^Paired difference/ })).toHaveCount(0);
  });
});
