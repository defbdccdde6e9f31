import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { waitForSetup } from "./helpers/workbench-setup";

/** The fixtures folder beside the tests. */
export const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);

/** Saves a screenshot for a person to look at, under e2e-artifacts/. */
export async function saveScreenshot(page: Page, name: string) {
  await page.screenshot({ path: `e2e-artifacts/${name}.png` });
}

/** The window sizes a layout is looked at in: the narrowest supported desktop and a common laptop. */
export const LOOKED_AT_SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

/** Waits until no finite animation or transition runs (the panels' widths, a fade); pulsing skeletons run on. */
export async function waitForTransitions(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      const timing = animation.effect?.getComputedTiming();
      return animation.playState !== "running" || timing?.iterations === Infinity;
    }),
  );
}

/**
 * Saves a screenshot at each of LOOKED_AT_SIZES (name-1280.png, name-1440.png), running `check`
 * at each size first, and leaves the window as it found it.
 */
export async function saveScreenshotsAtSizes(page: Page, name: string, check?: () => Promise<void>) {
  const original = page.viewportSize();
  for (const size of LOOKED_AT_SIZES) {
    await page.setViewportSize(size);
    await waitForTransitions(page);
    await check?.();
    await saveScreenshot(page, `${name}-${size.width}`);
  }
  if (original) await page.setViewportSize(original);
}

/** What a person sees and uses on the workbench, by role, label and text. */
export class WorkbenchPage {
  readonly editor: Locator;
  readonly runButton: Locator;
  readonly addModelButton: Locator;
  readonly uploadInput: Locator;
  readonly progress: Locator;
  readonly grid: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByRole("textbox", { name: "Prompt" });
    this.runButton = page.getByTestId("run-button");
    this.addModelButton = page.getByRole("button", { name: "Add model" });
    this.uploadInput = page.getByLabel("Upload dataset");
    this.progress = page.getByTestId("run-progress");
    this.grid = page.getByRole("table");
  }

  async open(query = "") {
    await this.page.goto(`/${query}`);
    // The first column appears once the setup has loaded.
    await expect(this.page.getByRole("columnheader", { name: /mock \/ / }).first()).toBeVisible();
    await waitForSetup(this.page);
  }

  /** Switches what every cell badge and the summary row show, e.g. to "Tokens". */
  async showMetric(name: "Grade" | "Tokens" | "Cost" | "Latency") {
    const pill = this.page.getByTestId("metric-pill");
    for (let step = 0; step < 4; step++) {
      if ((await pill.getAttribute("aria-label"))?.startsWith(`Metric: ${name}.`)) return;
      await pill.click();
    }
    await expect(pill).toHaveAttribute("aria-label", new RegExp(`^Metric: ${name}\\.`));
  }

  /** Replaces the prompt text, as if typed. */
  async writePrompt(text: string) {
    await this.editor.click();
    await this.page.keyboard.press("ControlOrMeta+A");
    await this.page.keyboard.insertText(text);
    await expect(this.editor).toHaveText(text.replaceAll("\n", ""));
  }

  async uploadDataset(fileName: string) {
    await this.uploadInput.setInputFiles(fixture(fileName));
  }

  async addModel(name: string) {
    await this.addModelButton.click();
    await this.page.getByRole("dialog", { name: "Add a model" }).getByRole("button", { name }).click();
  }

  /** Clicks Run and waits for the new run to open, so a check after it cannot pass on the run before. */
  async clickRun() {
    const before = new URL(this.page.url()).searchParams.get("run");
    await this.runButton.click();
    await expect.poll(() => new URL(this.page.url()).searchParams.get("run")).not.toBe(before);
  }

  /** Presses Ctrl+Enter in the editor and waits for the run's id in the address bar. */
  async runWithKeyboard() {
    await waitForSetup(this.page);
    await this.editor.click();
    await this.page.keyboard.press("Control+Enter");
    await expect(this.page).toHaveURL(/[?&]run=[\w-]+/);
  }

  /** A grid cell by its accessible name, e.g. cell(3, "mock / echo") for "Row 3, mock / echo: ...". */
  cell(row: number, column: string): Locator {
    return this.page.getByRole("group", { name: new RegExp(`^Row ${row}, ${escapeRegExp(column)}: `) });
  }

  async expectDone(total: number) {
    await expect(this.progress).toHaveText(`${total} / ${total} done`, { timeout: 45_000 });
  }

  /** An alert with the given text (Next.js keeps an empty route announcer with role alert too). */
  alert(text: string | RegExp): Locator {
    return this.page.getByRole("alert").filter({ hasText: text });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
