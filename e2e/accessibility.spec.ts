import { expect, test, type Locator, type Page } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Keyboard and screen reader basics of the workbench page: every control is reachable with Tab
// and shows a focus ring, the grid is one Tab stop walked with the arrow keys, and cells, badges,
// the summary row, the run status and the dialogs have accessible names.

const TOPICS = [{ topic: "apples" }, { topic: "pears" }, { topic: "plums" }];
const TWO_COLUMNS = [
  { provider: "mock", model: "echo" },
  { provider: "mock", model: "fast" },
];
// mock/echo grades too and echoes the grader prompt, so each row gets the grade it asks for.
const GRADER = "Judge this answer: {{output}}\n<response>{{expected_grade}}</response>";
const GRADED_ROWS = [
  { topic: "apples", expected_grade: "0.0" },
  { topic: "pears", expected_grade: "0.5" },
  { topic: "plums", expected_grade: "1.0" },
];

/** What a keyboard user sees of the focused element. */
type FocusStop = {
  name: string;
  focusVisible: boolean;
  /** The focus ring is drawn: an outline of 2px or more, or a box-shadow ring (on the element or, for a hidden file input, its label). */
  ring: boolean;
  /** The element and its ancestors' opacity multiplied: 0 for a button shown only on hover. */
  opacity: number;
  area: number;
  gridCell: boolean;
  inTable: boolean;
  inDialog: boolean;
};

async function focusStop(page: Page): Promise<FocusStop> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) {
      return { name: "(body)", focusVisible: false, ring: false, opacity: 0, area: 0, gridCell: false, inTable: false, inDialog: false };
    }
    const hasRing = (node: Element) => {
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
      return outline || (style.boxShadow !== "none" && style.boxShadow !== "");
    };
    const label = element instanceof HTMLInputElement ? (element.labels?.[0] ?? null) : null;
    const ringHolder = hasRing(element) ? element : label && hasRing(label) ? label : null;
    let opacity = 1;
    for (let node: HTMLElement | null = element; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
    const box = (label ?? element).getBoundingClientRect();
    const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
    return {
      name,
      focusVisible: element.matches(":focus-visible"),
      ring: ringHolder !== null,
      opacity,
      area: box.width * box.height,
      gridCell: element.dataset.gridRow !== undefined,
      inTable: element.closest("table") !== null,
      inDialog: element.closest('[role="dialog"]') !== null,
    };
  });
}

/** Stops the keyboard cannot see or use: no :focus-visible, no ring, or an invisible element. */
function badStops(stops: FocusStop[]): string[] {
  return stops
    .filter((stop) => !stop.focusVisible || !stop.ring || stop.opacity < 0.9 || stop.area < 16)
    .map((stop) => `${stop.name} (focus-visible ${stop.focusVisible}, ring ${stop.ring}, opacity ${stop.opacity}, area ${stop.area})`);
}

async function press(page: Page, key: string, times: number): Promise<FocusStop[]> {
  const stops: FocusStop[] = [];
  for (let step = 0; step < times; step++) {
    await page.keyboard.press(key);
    stops.push(await focusStop(page));
  }
  return stops;
}

async function runAndWait(page: Page, total: number) {
  const workbench = new WorkbenchPage(page);
  await workbench.runButton.click();
  await expect(page).toHaveURL(/[?&]run=/);
  await workbench.expectDone(total);
  await expect(page.getByTestId("run-status")).toHaveText("Completed");
  return workbench;
}

/** Presses Tab in an open dialog and checks the focus never leaves it. */
async function expectFocusTrapped(page: Page, dialog: Locator, presses = 8) {
  await expect(dialog).toBeVisible();
  for (let step = 0; step < presses; step++) {
    await page.keyboard.press("Tab");
    const stop = await focusStop(page);
    expect(stop.inDialog, `Tab ${step + 1} in the dialog moved the focus to "${stop.name}"`).toBe(true);
  }
}

/** Accessible names as the browser computes them, from the page's ARIA snapshot: controls without one. */
async function namelessControls(page: Page): Promise<string[]> {
  const snapshot = await page.locator("body").ariaSnapshot();
  // Roles that need a name (a group may go without one, like the "Plan and budget" <details>).
  const roles =
    "button|link|textbox|combobox|checkbox|radio|spinbutton|slider|switch|menuitem|tab|searchbox|listbox|option|dialog|progressbar|meter|img";
  return snapshot
    .split("\n")
    .filter((line) => new RegExp(`^\\s*- (${roles})(\\s*\\[[^\\]]*\\])*:?\\s*$`).test(line))
    .map((line) => line.trim());
}

/**
 * In the page: controls whose name (aria-label, aria-labelledby, label, text or title) is empty,
 * and elements that look clickable (cursor: pointer) but cannot get the keyboard focus.
 */
async function sweep(page: Page): Promise<{ nameless: string[]; unreachable: string[] }> {
  const nameless = await page
    .locator("button, a[href], input:not([type=hidden]), select, textarea, [role=button]")
    .evaluateAll((elements) =>
      elements
        .filter((element) => {
          const labelledBy = (element.getAttribute("aria-labelledby") ?? "")
            .split(/\s+/)
            .map((id) => document.getElementById(id)?.textContent ?? "")
            .join(" ");
          const labels =
            element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement
              ? Array.from(element.labels ?? [])
                  .map((label) => label.textContent ?? "")
                  .join(" ")
              : "";
          const name =
            element.getAttribute("aria-label") ||
            labelledBy.trim() ||
            labels.trim() ||
            element.textContent?.trim() ||
            element.getAttribute("title");
          return !name;
        })
        .map((element) => element.outerHTML.slice(0, 160)),
    );
  const unreachable = await page.locator("body *").evaluateAll((elements) => {
    const focusable = "button, a[href], input, select, textarea, summary, label, [tabindex]";
    return elements
      .filter((element) => {
        if (!(element instanceof HTMLElement) || element.closest("[inert], dialog:not([open])")) return false;
        const style = getComputedStyle(element);
        if (style.cursor !== "pointer" || style.visibility === "hidden") return false;
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        // The pointer cursor is inherited: only the outermost element that sets it counts.
        const parent = element.parentElement;
        if (parent && getComputedStyle(parent).cursor === "pointer") return false;
        return element.closest(focusable) === null && element.querySelector(focusable) === null;
      })
      .map((element) => element.outerHTML.slice(0, 160));
  });
  return { nameless, unreachable };
}

test.describe("accessibility", () => {
  test("Tab walks the toolbar, the column headers, + and one stop in the grid, each with a focus ring; Shift+Tab walks back", async ({
    page,
  }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: TOPICS, columns: TWO_COLUMNS });
    await runAndWait(page, 6);

    // From the metric pill, as a keyboard user arriving from the left panel.
    const pill = page.getByTestId("metric-pill");
    await pill.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(pill).toBeFocused();
    const stops = [await focusStop(page), ...(await press(page, "Tab", 16))];
    const names = stops.map((stop) => stop.name);
    const gridAt = stops.findIndex((stop) => stop.gridCell);
    expect(gridAt, `the grid is reached: ${names.join(" → ")}`).toBeGreaterThan(0);
    expect(names.slice(0, gridAt + 2)).toEqual([
      "Metric: Grade. Press to show Tokens",
      "Compact rows",
      "Grader",
      "Upload dataset",
      "Stored datasets",
      // The run's own line, under the pills.
      "Clear results",
      "Export this run's cells",
      "Column 1: mock / echo, change model",
      "Parameters of column 1",
      "Remove column 1: mock / echo",
      "Column 2: mock / fast, change model",
      "Parameters of column 2",
      "Remove column 2: mock / fast",
      "Add model",
      expect.stringMatching(/^Row 1, mock \/ echo: ok/),
      // The focused cell's own control (the thumbs) follows it; no other cell does.
      "Grade row 1, mock / echo: not graded, press to mark pass",
    ]);
    const afterGrid = stops.slice(gridAt + 2);
    expect(
      afterGrid.filter((stop) => stop.inTable),
      `after the grid: ${afterGrid.map((stop) => stop.name).join(" → ")}`,
    ).toEqual([]);
    expect(stops.filter((stop) => stop.gridCell)).toHaveLength(1);
    // Every stop up to the grid's can be seen: :focus-visible, a 2px ring, not transparent.
    expect(badStops(stops.slice(0, gridAt + 2))).toEqual([]);

    // The toolbar as a keyboard user sees it: the Upload pill with its ring.
    await pill.focus();
    await page.keyboard.press("Shift+Tab");
    await press(page, "Tab", 4);
    await expect(workbench.uploadInput).toBeFocused();
    await saveScreenshot(page, "focus-ring-toolbar");

    // Back from the cell to the pill with Shift+Tab, through the same stops.
    await workbench.cell(1, "mock / echo").focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    await expect(workbench.cell(2, "mock / fast")).toBeFocused();
    const back = await press(page, "Shift+Tab", gridAt);
    expect(back.map((stop) => stop.name)).toEqual(names.slice(0, gridAt).reverse());
    expect(badStops(back)).toEqual([]);
    // The Tab stop stays on the cell last used (roving tabindex).
    await press(page, "Tab", gridAt);
    await expect(workbench.cell(2, "mock / fast")).toBeFocused();
  });

  test("while a run is active, Pause and Cancel are in the Tab order after the toolbar's pills, with focus rings", async ({ page }) => {
    await openFreshWorkbench(page, {
      text: "Name a fact about {{topic}}.",
      rows: TOPICS,
      // A slow column keeps the run active for the walk; Cancel ends it.
      columns: [{ provider: "mock", model: "echo", params: { latencyMs: 20_000 } }],
    });
    const workbench = new WorkbenchPage(page);
    await workbench.runButton.click();
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();

    const pill = page.getByTestId("metric-pill");
    await pill.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    // The grader can't change during a run, so it is skipped; the run's line follows the pills.
    const stops = await press(page, "Tab", 6);
    expect(stops.map((stop) => stop.name)).toEqual([
      "Compact rows",
      "Upload dataset",
      "Stored datasets",
      "Pause",
      "Cancel",
      "Export this run's cells",
    ]);
    expect(badStops(stops)).toEqual([]);
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByRole("button", { name: "Cancel", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    // Cancel asks first, and the answer under the focus is the safe one.
    const confirm = page.getByRole("dialog", { name: "Cancel this run?" });
    await expect(confirm.getByRole("button", { name: "Keep running" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(confirm.getByRole("button", { name: "Cancel run" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("run-status")).toHaveText("Cancelled");
  });

  test("manual grading by keyboard: arrows move, Enter opens the cell, Escape returns to it, Tab reaches the thumbs", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: TOPICS, columns: TWO_COLUMNS });
    expect(prompt.id).toBeTruthy();
    const workbench = await runAndWait(page, 6);
    const runId = new URL(page.url()).searchParams.get("run")!;

    // Into the grid with Tab from "+", then the arrow keys.
    await workbench.addModelButton.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(workbench.cell(1, "mock / echo")).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(workbench.cell(1, "mock / fast")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(workbench.cell(2, "mock / fast")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(workbench.cell(2, "mock / echo")).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight"); // stays in the last column
    await expect(workbench.cell(2, "mock / fast")).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowLeft");
    const cell = workbench.cell(1, "mock / echo");
    await expect(cell).toBeFocused();
    expect(badStops([await focusStop(page)])).toEqual([]);
    await saveScreenshot(page, "focus-ring-grid-cell");

    // Enter opens the cell's dialog, named after the row and the model.
    await page.keyboard.press("Enter");
    const modal = page.getByRole("dialog", { name: "Row 1, mock / echo" });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole("region", { name: "Output" })).toContainText("Name a fact about apples.");
    await saveScreenshot(page, "cell-modal-keyboard");
    await expectFocusTrapped(page, modal);
    await page.keyboard.press("Escape");
    await expect(modal).toBeHidden();
    await expect(cell).toBeFocused();

    // The thumbs are the focused cell's next Tab stop; Space and Enter grade.
    await page.keyboard.press("Tab");
    const thumbs = cell.getByRole("button", { name: /^Grade row 1, mock \/ echo:/ });
    await expect(thumbs).toBeFocused();
    expect(badStops([await focusStop(page)])).toEqual([]);
    await page.keyboard.press("Space");
    await expect(thumbs).toHaveAccessibleName("Grade row 1, mock / echo: pass, press to mark fail");
    await expect(cell).toHaveAccessibleName(/^Row 1, mock \/ echo: ok, grade 1\.00/);
    await page.keyboard.press("Enter");
    await expect(thumbs).toHaveAccessibleName("Grade row 1, mock / echo: fail, press to mark pass");
    await expect(thumbs).toBeFocused();
    await expect
      .poll(async () => {
        const response = await page.request.get(`/api/v1/runs/${runId}`);
        const cells = ((await response.json()) as { cells: { row: number; column: number; manualGrade: number | null }[] }).cells;
        return cells.find((item) => item.row === 0 && item.column === 0)?.manualGrade;
      })
      .toBe(0);
    await page.keyboard.press("Shift+Tab");
    await expect(cell).toBeFocused();
  });

  test("grader mode: the grade badge is a named button; Enter shows the grader's output in the cell and Escape hides it", async ({
    page,
  }) => {
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: GRADED_ROWS, grader: GRADER, columns: TWO_COLUMNS });
    const workbench = await runAndWait(page, 6);
    const cell = workbench.cell(2, "mock / echo");
    await expect(cell).toHaveAccessibleName(/^Row 2, mock \/ echo: ok, grade 0\.50/);

    await cell.focus();
    await page.keyboard.press("Tab");
    const badge = cell.getByTestId("grade-badge");
    await expect(badge).toBeFocused();
    await expect(badge).toHaveRole("button");
    await expect(badge).toHaveAccessibleName(/^grade 0\.50 for row 2, mock \/ echo: show the grader's output$/);
    expect(badStops([await focusStop(page)])).toEqual([]);
    await expect(badge).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Enter");
    await expect(cell.getByRole("region", { name: "Grader output" })).toContainText("<response>0.5</response>");
    await expect(badge).toHaveAttribute("aria-expanded", "true");
    await expect(badge).toHaveAccessibleName(/grade 0\.50.*hide the grader's output/i);
    // The badge's Enter is not the cell's: no dialog.
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(cell.getByRole("region", { name: "Grader output" })).toHaveCount(0);
    await expect(badge).toBeFocused();
  });

  test("cells, badges, summary cells, run status and progress have names that carry their values", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: GRADED_ROWS, grader: GRADER, columns: TWO_COLUMNS });
    const workbench = await runAndWait(page, 6);

    await expect(page.getByRole("status").filter({ hasText: "Completed" })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Run progress" })).toHaveAttribute("aria-valuetext", "6 of 6 cells done");

    const cell = workbench.cell(3, "mock / fast");
    const summary = page.getByTestId("summary-cell");
    await expect(cell).toHaveAccessibleName(/^Row 3, mock \/ fast: ok, grade 1\.00$/);
    await expect(cell.getByTestId("grade-badge")).toHaveAccessibleName(/^grade 1\.00 for row 3, mock \/ fast: show the grader's output$/);
    await expect(summary.first()).toHaveAccessibleName("Average grade, column 1: 0.50, 3 graded");

    const metrics = [
      {
        name: "Tokens",
        cell: /: ok, tokens (about )?\d+(\.\d)?k? in, \d+(\.\d)?k? out$/,
        badge: /^tokens (about )?\d/,
        summary: /^Average tokens in \| out, column 2: \S+ \| \S+/,
      },
      { name: "Cost", cell: /: ok, (cost \$[\d.]+|no price)$/, badge: /^(cost \$[\d.]+|no price)$/, summary: /^Average cost, column 2: / },
      {
        name: "Latency",
        cell: /: ok, latency \d+(\.\d+)? m?s$/,
        badge: /^latency \d/,
        summary: /^Average latency, column 2: \d+(\.\d+)? m?s/,
      },
    ] as const;
    for (const metric of metrics) {
      await workbench.showMetric(metric.name);
      await expect(cell).toHaveAccessibleName(new RegExp(`^Row 3, mock / fast${metric.cell.source}`));
      await expect(cell.getByRole("img").last()).toHaveAccessibleName(metric.badge);
      await expect(summary.nth(1)).toHaveAccessibleName(metric.summary);
    }
  });

  test("dialogs have names, keep the focus inside, and give it back to their opener; the toast is a status", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    const { datasetId } = await openFreshWorkbench(page, {
      text: "Name a fact about {{topic}}.",
      rows: TOPICS,
      datasetName: "a11y-topics.csv",
    });
    expect(datasetId).toBeTruthy();

    // The model picker, opened from "+" with the keyboard.
    await workbench.addModelButton.focus();
    await page.keyboard.press("Enter");
    const picker = page.getByRole("dialog", { name: "Add a model" });
    await expectFocusTrapped(page, picker);
    await page.keyboard.press("Escape");
    await expect(picker).toBeHidden();
    await expect(workbench.addModelButton).toBeFocused();

    // The dataset preview.
    const preview = page.getByRole("button", { name: "Preview a11y-topics.csv" });
    await preview.focus();
    await page.keyboard.press("Enter");
    const previewDialog = page.getByRole("dialog", { name: /a11y-topics\.csv/ });
    await expectFocusTrapped(page, previewDialog, 4);
    await page.keyboard.press("Escape");
    await expect(previewDialog).toBeHidden();
    await expect(preview).toBeFocused();

    // The validation dialog: a variable the dataset lacks.
    await workbench.writePrompt("Name a fact about {{fruit}}.");
    await page.keyboard.press("Control+Enter");
    const validation = page.getByRole("dialog", { name: "The run can't start yet" });
    await expectFocusTrapped(page, validation, 4);
    await page.keyboard.press("Escape");
    await expect(validation).toBeHidden();
    await expect(workbench.editor).toBeFocused();

    // The run history, after a run.
    await workbench.writePrompt("Name a fact about {{topic}}.");
    await runAndWait(page, 3);
    const historyButton = page.getByTestId("history-button");
    await historyButton.focus();
    await page.keyboard.press("Enter");
    const history = page.getByRole("dialog", { name: "Run history" });
    await expectFocusTrapped(page, history, 6);
    await page.keyboard.press("Escape");
    await expect(history).toBeHidden();
    await expect(historyButton).toBeFocused();

    // A toast after an upload is a status a screen reader reads out.
    await workbench.uploadDataset("cities.csv");
    const toast = page.getByTestId("toast").filter({ hasText: "cities.csv" });
    await expect(toast).toBeVisible();
    await expect(toast).toHaveRole("status");
  });

  test("sweep: every control has a name and everything that looks clickable can get the focus (empty, completed, dialog open)", async ({
    page,
  }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}." });
    const empty = await sweep(page);
    const emptyAria = await namelessControls(page);

    await openFreshWorkbench(page, { text: "Name a fact about {{topic}}.", rows: GRADED_ROWS, grader: GRADER, columns: TWO_COLUMNS });
    await runAndWait(page, 6);
    const completed = await sweep(page);
    const completedAria = await namelessControls(page);

    await workbench.cell(1, "mock / echo").click();
    await expect(page.getByRole("dialog", { name: "Row 1, mock / echo" })).toBeVisible();
    const dialog = await sweep(page);
    const dialogAria = await namelessControls(page);
    await page.keyboard.press("Escape");

    expect({ empty, completed, dialog }).toEqual({
      empty: { nameless: [], unreachable: [] },
      completed: { nameless: [], unreachable: [] },
      dialog: { nameless: [], unreachable: [] },
    });
    expect({ emptyAria, completedAria, dialogAria }).toEqual({ emptyAria: [], completedAria: [], dialogAria: [] });
  });
});
