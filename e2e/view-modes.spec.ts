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
  return page
    .getByTestId("editor-panel")
    .evaluate((panel) => panel.getBoundingClientRect().width / panel.parentElement!.getBoundingClientRect().width);
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

    // Focus the editor and catch the width transition it starts. Its progress is read by seeking
    // the transition itself (Web Animations), not by sampling frames against the wall clock: on a
    // loaded machine a frame or React's render can come late, and the curve is what is checked.
    const measured = await page.evaluate(
      () =>
        new Promise<{ startedAfter: number; duration: unknown; easing: string; endTime: unknown; shares: { at: number; share: number }[] }>(
          (resolve, reject) => {
            const panelElement = document.querySelector<HTMLElement>('[data-testid="editor-panel"]')!;
            const share = () => panelElement.getBoundingClientRect().width / panelElement.parentElement!.getBoundingClientRect().width;
            const focusedAt = performance.now();
            document.querySelector<HTMLElement>(".cm-content")!.focus();
            const look = () => {
              const transition = panelElement
                .getAnimations()
                .find((animation): animation is CSSTransition => (animation as CSSTransition).transitionProperty === "width");
              if (!transition) {
                if (performance.now() - focusedAt > 2_000) reject(new Error("no width transition within 2 s of the focus"));
                else requestAnimationFrame(look);
                return;
              }
              const startedAfter = performance.now() - focusedAt;
              transition.pause();
              const shares = [0, 30, 60, 90, 120, 150, 200, 250, 300].map((at) => {
                transition.currentTime = at;
                return { at, share: share() };
              });
              const timing = transition.effect!.getComputedTiming();
              resolve({ startedAfter, duration: timing.duration, easing: timing.easing ?? "", endTime: timing.endTime, shares });
              transition.finish();
            };
            look();
          },
        ),
    );
    const at = (ms: number) => measured.shares.find((sample) => sample.at === ms)!.share;
    // The switch starts within a few frames of the focus, and lasts 300 ms on the spring's curve.
    expect(measured.startedAfter).toBeLessThan(250);
    expect(measured).toMatchObject({ duration: 300, endTime: 300, easing: "cubic-bezier(0.34, 1.36, 0.64, 1)" });
    // Under way early on: between the two widths from 30 to 120 ms, and growing.
    for (const ms of [30, 60, 90, 120]) {
      expect(at(ms), `at ${ms} ms`).toBeGreaterThan(BALANCED + TOLERANCE);
      expect(at(ms), `at ${ms} ms`).toBeLessThan(FOCUS - TOLERANCE / 4);
    }
    expect(at(30)).toBeLessThan(at(60));
    expect(at(60)).toBeLessThan(at(90));
    // A spring: past the target a little after half-time, back on it at 300 ms.
    expect(Math.max(at(150), at(200), at(250))).toBeGreaterThan(FOCUS);
    expect(Math.max(at(150), at(200), at(250))).toBeLessThan(FOCUS + 0.05);
    expect(Math.abs(at(300) - FOCUS)).toBeLessThan(0.005);
    await expectShare(page, FOCUS);
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
