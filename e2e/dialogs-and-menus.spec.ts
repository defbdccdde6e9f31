import { expect, test, type Page } from "@playwright/test";
import { createPrompt, openFreshWorkbench, uniqueName } from "./helpers/workbench-setup";
import { WorkbenchPage } from "./workbench-page";

// The dialogs (@radix-ui/react-dialog) and the prompts menu (@radix-ui/react-dropdown-menu) as a
// keyboard and a mouse use them: where the focus goes on opening and closing, what Escape, Tab, a
// click outside and the arrow keys do. e2e/accessibility.spec.ts covers the picker, the preview,
// the validation and the history dialogs the same way.

/** Whether the focused element sits in an open dialog. */
const focusInDialog = (page: Page) => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null);

test.describe("dialogs and menus", () => {
  test("the prompts menu is walked with the keyboard: arrows, Home and End, typeahead, Escape and Tab", async ({ page }) => {
    // Made first, so the page lists it; the name starts with letters no other prompt starts with.
    const other = await createPrompt(page.request, { name: uniqueName("Zq typeahead"), text: "Another prompt." });
    const { prompt } = await openFreshWorkbench(page, { text: "Pick a fruit." });
    const menuButton = page.getByTestId("prompt-menu-button");
    const menu = page.getByRole("menu", { name: "Prompts" });
    const activeItem = menu.getByRole("menuitemradio", { name: prompt.name });
    const deleteItem = menu.getByRole("menuitem", { name: `Delete “${prompt.name}”…` });

    // ArrowDown opens it on the active prompt.
    await menuButton.focus();
    await page.keyboard.press("ArrowDown");
    await expect(menu).toBeVisible();
    await expect(menuButton).toHaveAttribute("aria-expanded", "true");
    await expect(activeItem).toBeFocused();
    await expect(activeItem).toHaveAttribute("aria-checked", "true");

    await page.keyboard.press("End");
    await expect(deleteItem).toBeFocused();
    await page.keyboard.press("Home");
    await expect(menu.getByRole("menuitemradio").first()).toBeFocused();
    // Down from the last item wraps to the first (once End has landed: the menu moves focus a
    // frame later, and an ArrowDown sent before that walked down from the first item instead).
    await page.keyboard.press("End");
    await expect(deleteItem).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitemradio").first()).toBeFocused();

    // Typing a name's first letters goes to it.
    await page.keyboard.type("zq");
    await expect(menu.getByRole("menuitemradio", { name: other.name })).toBeFocused();

    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");

    // ArrowUp opens it on the last item; Tab closes it, the focus back on the button.
    await page.keyboard.press("ArrowUp");
    await expect(deleteItem).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();

    // Enter on an item switches to that prompt and closes the menu.
    await page.keyboard.press("Enter");
    await expect(activeItem).toBeFocused();
    await page.keyboard.type("zq");
    // Enter once the typeahead has moved the focus (it lands a frame later; an Enter sent before
    // it picked the prompt that was already active).
    await expect(menu.getByRole("menuitemradio", { name: other.name })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(menu).toBeHidden();
    await expect(page.getByTestId("prompt-name")).toHaveText(other.name);
    await expect(menuButton).toBeFocused();

    // A click opens it on the active prompt too; a click elsewhere closes it and lands there.
    await menuButton.click();
    await expect(menu.getByRole("menuitemradio", { name: other.name })).toBeFocused();
    await page.getByTestId("history-button").click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole("dialog", { name: "Run history" })).toBeVisible();
  });

  test("on an earlier run shown read-only, switching and deleting are offered but blocked, saying why", async ({ page }) => {
    const other = await createPrompt(page.request, { text: "Another prompt." });
    const { prompt } = await openFreshWorkbench(page, { text: "Say hello.", columns: [{ provider: "mock", model: "fast" }] });
    const workbench = new WorkbenchPage(page);
    await workbench.clickRun();
    await workbench.expectDone(1);
    const runId = new URL(page.url()).searchParams.get("run");
    await page.goto(`/?run=${runId}&view=history`);
    await expect(page.getByTestId("prompt-name")).toHaveText(prompt.name);
    await expect(workbench.runButton).toBeDisabled();

    const menu = page.getByRole("menu", { name: "Prompts" });
    await page.getByTestId("prompt-menu-button").click();
    const otherItem = menu.getByRole("menuitemradio", { name: other.name });
    const deleteItem = menu.getByRole("menuitem", { name: `Delete “${prompt.name}”…` });
    await expect(otherItem).toHaveAttribute("aria-disabled", "true");
    await expect(otherItem).toHaveAttribute("title", /.+/);
    await expect(deleteItem).toHaveAttribute("aria-disabled", "true");
    // Still reachable with the keyboard, so its reason can be read; picking it does nothing.
    await page.keyboard.press("End");
    await expect(deleteItem).toBeFocused();
    await page.keyboard.press("Enter");
    // force: Playwright waits for an aria-disabled element to be enabled before it clicks.
    await otherItem.click({ force: true });
    await expect(menu).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByTestId("prompt-name")).toHaveText(prompt.name);
    // Creating stays allowed.
    await expect(menu.getByRole("menuitem", { name: "New generator prompt" })).not.toHaveAttribute("aria-disabled");
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  });

  test("the parameters, cell and delete dialogs keep the focus, lock the page's scrolling and give the focus back", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, {
      text: "Name a fact about {{topic}}.",
      rows: [{ topic: "apples" }, { topic: "pears" }],
    });
    const workbench = new WorkbenchPage(page);

    // The parameters: a form, so a click outside does not throw the typing away.
    const paramsButton = page.getByRole("button", { name: /^Parameters of column 1/ });
    await paramsButton.focus();
    await page.keyboard.press("Enter");
    const params = page.getByRole("dialog", { name: "Parameters · mock / echo" });
    await expect(params).toBeVisible();
    await expect(params).toHaveAccessibleDescription(/Empty fields use the provider's default/);
    await expect(params.getByLabel("Temperature")).toBeFocused();
    await params.getByLabel("Temperature").fill("0.5");
    for (let step = 0; step < 9; step++) {
      await page.keyboard.press("Tab");
      expect(await focusInDialog(page), `Tab ${step + 1} left the dialog`).toBe(true);
    }
    await page.mouse.click(8, 8);
    await expect(params).toBeVisible();
    await expect(params.getByLabel("Temperature")).toHaveValue("0.5");
    await page.keyboard.press("Escape");
    await expect(params).toBeHidden();
    await expect(paramsButton).toBeFocused();
    // Opened again, it starts from the column's saved parameters (none), not the abandoned typing.
    await page.keyboard.press("Enter");
    await expect(params.getByLabel("Temperature")).toHaveValue("");
    await params.getByRole("button", { name: "Cancel" }).click();
    await expect(params).toBeHidden();

    // A cell's details: the page behind does not scroll, and a click outside closes it.
    await workbench.clickRun();
    await workbench.expectDone(2);
    const cell = workbench.cell(1, "mock / echo");
    await cell.click();
    const details = page.getByRole("dialog", { name: "Row 1, mock / echo" });
    await expect(details).toBeVisible();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
    await page.mouse.click(8, 8);
    await expect(details).toBeHidden();
    await expect(cell).toBeFocused();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe("hidden");

    // The delete question, opened from the menu: Cancel has the focus; Escape gives it to the menu's button.
    const menuButton = page.getByTestId("prompt-menu-button");
    await menuButton.click();
    await page.getByRole("menuitem", { name: `Delete “${prompt.name}”…` }).click();
    const confirm = page.getByRole("dialog", { name: `Delete “${prompt.name}”?` });
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.mouse.click(8, 8);
    await expect(confirm).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(confirm).toBeHidden();
    await expect(menuButton).toBeFocused();
    // Nothing of the closed menu or dialog is left blocking the page.
    await menuButton.click();
    await expect(page.getByRole("menu", { name: "Prompts" })).toBeVisible();
    await page.keyboard.press("Escape");
  });
});
