import { expect, test, type Page } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Testing Plan 7 (View Modes) of the workbench spec: the editor panel takes 65% of the width while
// the editor has focus (focus mode) and 30% otherwise (balanced), with a 300 ms spring between.

const FOCUS = 0.65;
const BALANCED = 0.3;
const TOLERANCE = 0.02;

/** The editor panel's share of the main area's width, 0..1. */
function panelShare(page: Page): Promise<number> {
  return page.getByTestId("editor-panel").evaluate((panel) => panel.getBoundingClientRect().width / panel.parentElement!.getBoundingClientRect().width);
}

async function expectShare(page: Page, share: number) {
  await expect.poll(() => panelShare(page)).toBeGreaterThan(share - TOLERANCE);
  await expect.poll(() => panelShare(page)).toBeLessThan(share + TOLERANCE);
}

async function clickOutsideEditor(page: Page) {
  await page.getByRole("heading", { name: "Variables" }).click();
}

test.describe("view modes", () => {
  test("focus on the editor widens it to 65%, blur and Run bring it back to 30%", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Say hello.", columns: [{ provider: "mock", model: "fast" }] });
    const workbench = new WorkbenchPage(page);
    const main = page.getByRole("main");
    await clickOutsideEditor(page);
    await expectShare(page, BALANCED);
    await expect(main).toHaveAttribute("data-view-mode", "balanced");
    await saveScreenshot(page, "view-mode-balanced");

    await workbench.editor.click();
    await expect(main).toHaveAttribute("data-view-mode", "focus");
    await expectShare(page, FOCUS);
    await saveScreenshot(page, "view-mode-focus");

    await clickOutsideEditor(page);
    await expectShare(page, BALANCED);

    // A click on Run (which also takes focus from the editor) ends focus mode.
    await workbench.editor.click();
    await expectShare(page, FOCUS);
    await workbench.runButton.click();
    await expectShare(page, BALANCED);
    await workbench.expectDone(1);

    // Ctrl+Enter leaves focus in the editor, and still balances the panels for the results.
    await workbench.editor.click();
    await expectShare(page, FOCUS);
    const before = new URL(page.url()).searchParams.get("run");
    await page.keyboard.press("Control+Enter");
    await expect(workbench.editor).toBeFocused();
    await expectShare(page, BALANCED);
    await expect.poll(() => new URL(page.url()).searchParams.get("run")).not.toBe(before);
    await workbench.expectDone(1);
  });

  test("a click at a person's pace on Run, with the editor focused, starts the run", async ({ page }) => {
    // The press blurs the editor; if the panel shrank at once, Run would slide out from under the
    // pointer before the button came up and the click would land elsewhere. A person holds a
    // button down for about a tenth of a second, so the press here lasts 150 ms.
    await openFreshWorkbench(page, { text: "Say hello.", columns: [{ provider: "mock", model: "fast" }] });
    const workbench = new WorkbenchPage(page);
    await workbench.editor.click();
    await expectShare(page, FOCUS);
    const box = (await workbench.runButton.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(150);
    await page.mouse.up();
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    await expectShare(page, BALANCED);
    await workbench.expectDone(1);
  });

  test("the switch is a 300 ms spring: under way early on, at the end by 300 ms", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Say hello." });
    await clickOutsideEditor(page);
    await expectShare(page, BALANCED);
    const panel = page.getByTestId("editor-panel");
    expect(await panel.evaluate((element) => getComputedStyle(element).transitionDuration)).toBe("0.3s");
    expect(await panel.evaluate((element) => getComputedStyle(element).transitionProperty)).toBe("width");

    // Focus the editor and sample the width each frame for 450 ms, in the page, so no round trip
    // blurs the timing. The spring (cubic-bezier(0.34, 1.36, 0.64, 1)) is at 101% of the way by
    // half-time and overshoots a little, so "between the two widths" is checked before 120 ms.
    const samples = await page.evaluate(
      () =>
        new Promise<{ at: number; share: number }[]>((resolve) => {
          const panelElement = document.querySelector<HTMLElement>('[data-testid="editor-panel"]')!;
          const share = () => panelElement.getBoundingClientRect().width / panelElement.parentElement!.getBoundingClientRect().width;
          const taken: { at: number; share: number }[] = [];
          document.querySelector<HTMLElement>(".cm-content")!.focus();
          const start = performance.now();
          const tick = () => {
            const at = performance.now() - start;
            taken.push({ at, share: share() });
            if (at < 450) requestAnimationFrame(tick);
            else resolve(taken);
          };
          requestAnimationFrame(tick);
        }),
    );
    const early = samples.filter((sample) => sample.at >= 30 && sample.at <= 120);
    expect(early.length, JSON.stringify(samples)).toBeGreaterThan(0);
    for (const sample of early) {
      expect(sample.share, `at ${Math.round(sample.at)} ms`).toBeGreaterThan(BALANCED + TOLERANCE);
      expect(sample.share, `at ${Math.round(sample.at)} ms`).toBeLessThan(FOCUS - TOLERANCE / 4);
    }
    // Growing all the way there, and settled once the 300 ms are over.
    expect(early.at(-1)!.share).toBeGreaterThan(early[0].share);
    const late = samples.filter((sample) => sample.at >= 340);
    expect(late.length).toBeGreaterThan(0);
    for (const sample of late) expect(Math.abs(sample.share - FOCUS)).toBeLessThan(0.005);
  });

  test("the mode survives a reload", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Say hello." });
    await new WorkbenchPage(page).editor.click();
    await expectShare(page, FOCUS);
    expect(await page.evaluate(() => localStorage.getItem("parallaxr.viewMode"))).toBe("focus");

    await page.reload();
    await expect(page.getByTestId("prompt-name")).toBeVisible();
    await expect(page.getByRole("main")).toHaveAttribute("data-view-mode", "focus");
    await expectShare(page, FOCUS);
    await expect(new WorkbenchPage(page).editor).not.toBeFocused();

    // And balanced is kept too. (The reloaded page does not focus the editor itself, so it takes
    // a focus and a blur to leave focus mode.)
    await new WorkbenchPage(page).editor.click();
    await clickOutsideEditor(page);
    await expectShare(page, BALANCED);
    await page.reload();
    await expect(page.getByTestId("prompt-name")).toBeVisible();
    await expect(page.getByRole("main")).toHaveAttribute("data-view-mode", "balanced");
    await expectShare(page, BALANCED);
  });
});
