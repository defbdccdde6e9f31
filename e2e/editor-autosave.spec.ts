import { expect, test, type Page } from "@playwright/test";
import { createPrompt, getPrompt, openFreshWorkbench, uniqueName } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// Testing Plan 1 (Editor & Autosave) of the workbench spec, and the keyboard basics of the left
// panel. Every test opens a workbench of its own (openFreshWorkbench), so the order does not matter.

const runIdOf = (page: Page) => new URL(page.url()).searchParams.get("run");

/** Clicks Run and waits until this new run has finished every cell. */
async function runToEnd(page: Page, cells = 1) {
  const before = runIdOf(page);
  await new WorkbenchPage(page).runButton.click();
  await expect.poll(() => runIdOf(page)).not.toBe(before);
  await expect(page.getByTestId("run-progress")).toHaveText(`${cells} / ${cells} done`, { timeout: 20_000 });
  return runIdOf(page)!;
}

/** Clicks somewhere that takes focus away from the editor (the Variables heading). */
async function clickOutsideEditor(page: Page) {
  await page.getByRole("heading", { name: "Variables" }).click();
}

test.describe("editor and autosave", () => {
  test("highlights variables, tags and json in distinct colours and marks a variable the dataset lacks", async ({ page }) => {
    await openFreshWorkbench(page, {
      text: "Explain {{topic}} in the style of {{tone}}.\nAnswer as JSON inside <response></response>.",
      rows: [
        { topic: "tides", notes: "for a child" },
        { topic: "rain", notes: "short" },
      ],
      datasetName: "topics-with-notes.csv",
    });
    const editor = page.getByTestId("prompt-editor");

    const variable = editor.locator(".cm-template-variable", { hasText: "{{topic}}" });
    const tag = editor.locator(".cm-template-tag").first();
    const json = editor.locator(".cm-template-json");
    await expect(variable).toBeVisible();
    await expect(tag).toHaveText("<response>");
    await expect(json).toHaveText("JSON");
    const colours = await Promise.all(
      [variable, tag, json].map((locator) => locator.evaluate((element) => getComputedStyle(element).color)),
    );
    // Purple variables, teal tags, amber json: three different colours, none the plain text's.
    expect(colours).toEqual(["rgb(79, 75, 196)", "rgb(15, 118, 110)", "rgb(180, 83, 9)"]);
    const plain = await editor
      .locator(".cm-line")
      .first()
      .evaluate((element) => getComputedStyle(element).color);
    expect(colours).not.toContain(plain);

    // {{tone}} is no column of the dataset: underlined in the editor, outlined as a chip.
    const missing = editor.locator(".cm-template-variable-missing");
    await expect(missing).toHaveText("{{tone}}");
    await expect(missing).toHaveAttribute("title", "Not a column of topics-with-notes.csv");
    expect(await missing.evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe("underline");
    await expect(editor.locator(".cm-template-variable", { hasText: "{{topic}}" })).not.toHaveClass(/cm-template-variable-missing/);
    const chips = page.getByRole("list", { name: "Detected variables" }).getByRole("listitem");
    await expect(chips).toHaveText(["{{topic}}", "{{tone}}"]);
    await expect(chips.nth(1)).toHaveAttribute("data-missing", "true");
    await expect(chips.nth(1)).toHaveAccessibleName("tone, not in the dataset");
    await expect(chips.nth(0)).not.toHaveAttribute("data-missing");
    await expect(page.getByText("Not in topics-with-notes.csv: {{tone}}")).toBeVisible();
    // The extra column is allowed, and pointed out.
    await expect(page.getByText("Columns not used: notes")).toBeVisible();
    await saveScreenshot(page, "editor-highlighting");
  });

  test("saves the text on blur without a new version", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Write a haiku." });
    const workbench = new WorkbenchPage(page);
    await workbench.writePrompt("Write a haiku about the sea.");
    await expect(page.getByTestId("prompt-save-state")).toHaveText("Unsaved changes");
    expect((await getPrompt(page.request, prompt.id)).text).toBe("Write a haiku.");

    await clickOutsideEditor(page);
    await expect(page.getByTestId("prompt-save-state")).toHaveText("Saved");
    await expect.poll(async () => (await getPrompt(page.request, prompt.id)).text).toBe("Write a haiku about the sea.");
    expect((await getPrompt(page.request, prompt.id)).versionCounter).toBe(prompt.versionCounter);
    await expect(page.getByTestId("prompt-version")).toHaveText("v1");
  });

  test("saves typed text while typing, without a blur", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Write a haiku." });
    const workbench = new WorkbenchPage(page);
    await workbench.writePrompt("Write a haiku about rain.");
    await expect(workbench.editor).toBeFocused();
    // Once typing pauses, the draft is on the server, with no new version and the editor still focused.
    await expect.poll(async () => (await getPrompt(page.request, prompt.id)).text).toBe("Write a haiku about rain.");
    await expect(page.getByTestId("prompt-save-state")).toHaveText("Saved");
    await expect(workbench.editor).toBeFocused();
    expect((await getPrompt(page.request, prompt.id)).versionCounter).toBe(prompt.versionCounter);
  });

  test("keeps text typed and a column added just before the page is left", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Write a haiku." });
    const workbench = new WorkbenchPage(page);
    await workbench.addModel("mock / fast");
    await workbench.writePrompt("Write a haiku about snow.");
    // Leave at once, before any autosave would have waited long enough: the page flushes on its way out.
    await page.reload();
    await expect(page.getByTestId("prompt-name")).toHaveText(prompt.name);
    await expect(workbench.editor).toHaveText("Write a haiku about snow.");
    await expect(page.getByRole("columnheader", { name: /mock \/ fast/ })).toBeVisible();
    expect((await getPrompt(page.request, prompt.id)).text).toBe("Write a haiku about snow.");

    // The same on closing the tab, from a second tab of the same browser.
    const second = await page.context().newPage();
    await second.goto("/");
    await expect(second.getByRole("textbox", { name: "Prompt" })).toHaveText("Write a haiku about snow.");
    await new WorkbenchPage(second).writePrompt("Write a haiku about hail.");
    await second.close({ runBeforeUnload: true });
    await expect.poll(async () => (await getPrompt(page.request, prompt.id)).text).toBe("Write a haiku about hail.");
  });

  test("saves the text when switching prompts, and shows each prompt's own text", async ({ page }) => {
    const other = await createPrompt(page.request, { name: uniqueName("Other prompt"), text: "The other prompt's text." });
    const { prompt } = await openFreshWorkbench(page, { text: "First text." });
    const workbench = new WorkbenchPage(page);
    await workbench.writePrompt("First text, edited.");

    // Straight to the menu: the click on its button is also the editor's blur, but the switch
    // itself must not lose the text either way.
    await page.getByTestId("prompt-menu-button").click();
    await page.getByRole("menuitemradio").filter({ hasText: other.name }).click();
    await expect(page.getByTestId("prompt-name")).toHaveText(other.name);
    await expect(workbench.editor).toHaveText("The other prompt's text.");
    expect((await getPrompt(page.request, prompt.id)).text).toBe("First text, edited.");

    await page.getByTestId("prompt-menu-button").click();
    await page.getByRole("menuitemradio").filter({ hasText: prompt.name }).click();
    await expect(page.getByTestId("prompt-name")).toHaveText(prompt.name);
    await expect(workbench.editor).toHaveText("First text, edited.");
    expect((await getPrompt(page.request, other.id)).text).toBe("The other prompt's text.");
  });

  test("saves the text before a run started with Ctrl+Enter straight from typing", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Say hello.", columns: [{ provider: "mock", model: "fast" }] });
    const workbench = new WorkbenchPage(page);
    await workbench.editor.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText("Say hello in French.");
    // No blur: the run must still use (and save) what was just typed.
    await page.keyboard.press("Control+Enter");
    await expect(page).toHaveURL(/[?&]run=[\w-]+/);
    await workbench.expectDone(1);
    const run = (await (await page.request.get(`/api/v1/runs/${runIdOf(page)}`)).json()) as { prompt: string };
    expect(run.prompt).toBe("Say hello in French.");
    expect((await getPrompt(page.request, prompt.id)).text).toBe("Say hello in French.");
  });

  test("the version goes up only on a run whose text changed since the last run", async ({ page }) => {
    test.setTimeout(45_000);
    const { prompt } = await openFreshWorkbench(page, { text: "Count to three.", columns: [{ provider: "mock", model: "fast" }] });
    const workbench = new WorkbenchPage(page);
    const version = page.getByTestId("prompt-version");
    const runVersion = async (id: string) =>
      ((await (await page.request.get(`/api/v1/runs/${id}`)).json()) as { promptVersion: number }).promptVersion;

    await expect(version).toHaveText("v1");
    expect(await runVersion(await runToEnd(page))).toBe(1);
    await expect(version).toHaveText("v1");
    expect(await runVersion(await runToEnd(page))).toBe(1);
    await expect(version).toHaveText("v1");

    // An edit is saved (on blur) but is no new version until it runs.
    await workbench.writePrompt("Count to four.");
    await clickOutsideEditor(page);
    await expect.poll(async () => (await getPrompt(page.request, prompt.id)).text).toBe("Count to four.");
    expect((await getPrompt(page.request, prompt.id)).versionCounter).toBe(1);
    await expect(version).toHaveText("v1");

    expect(await runVersion(await runToEnd(page))).toBe(2);
    await expect(version).toHaveText("v2");
    expect(await runVersion(await runToEnd(page))).toBe(2);
    await expect(version).toHaveText("v2");
    expect((await getPrompt(page.request, prompt.id)).versionCounter).toBe(2);
  });

  test("renames inline: Escape keeps the old name, Enter renames and starts again at v1", async ({ page }) => {
    test.setTimeout(45_000);
    const { prompt } = await openFreshWorkbench(page, { text: "Name a colour.", columns: [{ provider: "mock", model: "fast" }] });
    const workbench = new WorkbenchPage(page);
    await runToEnd(page);
    await workbench.writePrompt("Name two colours.");
    await runToEnd(page);
    await expect(page.getByTestId("prompt-version")).toHaveText("v2");

    const name = page.getByTestId("prompt-name");
    const input = page.getByRole("textbox", { name: "Prompt name" });
    await name.click();
    await expect(input).toBeFocused();
    await input.fill("Not this name");
    await input.press("Escape");
    await expect(name).toHaveText(prompt.name);
    await expect(name).toBeFocused();
    expect((await getPrompt(page.request, prompt.id)).name).toBe(prompt.name);

    const newName = uniqueName("Colour namer");
    await name.click();
    await input.fill(newName);
    // The field gets the header's room (the save state steps aside), enough for a name like this.
    expect((await input.boundingBox())!.width).toBeGreaterThanOrEqual(200);
    await saveScreenshot(page, "rename-inline");
    await input.press("Enter");
    await expect(name).toHaveText(newName);
    await expect(page.getByTestId("prompt-version")).toHaveText("v1");
    const saved = await getPrompt(page.request, prompt.id);
    expect(saved).toMatchObject({ name: newName, versionCounter: 1 });
  });

  test("creates generator and grader prompts from the menu and deletes one for good", async ({ page }) => {
    const { prompt } = await openFreshWorkbench(page, { text: "Pick a fruit." });
    const name = page.getByTestId("prompt-name");
    const menuButton = page.getByTestId("prompt-menu-button");
    const menu = page.getByRole("menu", { name: "Prompts" });

    await menuButton.click();
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("menuitemradio", { checked: true })).toContainText(prompt.name);
    await expect(menu.getByRole("group", { name: "Graders" })).toBeVisible();
    await saveScreenshot(page, "prompt-menu");

    // A new generator opens empty.
    await menu.getByRole("menuitem", { name: "New generator prompt" }).click();
    await expect(name).toHaveText(/^Untitled prompt( \d+)?$/);
    // Empty, so the editor shows its placeholder.
    await expect(page.getByTestId("prompt-editor").locator(".cm-placeholder")).toBeVisible();
    const generatorName = (await name.textContent())!;
    const listed = async () =>
      ((await (await page.request.get("/api/v1/prompts")).json()) as { prompts: { id: string; name: string; type: string }[] }).prompts;
    const generator = (await listed()).find((item) => item.name === generatorName);
    expect(generator?.type).toBe("generator");

    // A new grader opens with the starter text and is offered as a grader at once.
    await menuButton.click();
    await menu.getByRole("menuitem", { name: "New grader prompt" }).click();
    await expect(name).toHaveText(/^Untitled grader( \d+)?$/);
    await expect(new WorkbenchPage(page).editor).toContainText("{{output}}");
    const graderName = (await name.textContent())!;
    const grader = (await listed()).find((item) => item.name === graderName)!;
    expect(grader.type).toBe("grader");
    await expect(page.getByTestId("grader-select").getByRole("option", { name: graderName, exact: true })).toHaveCount(1);

    // Delete the grader: a confirmation first, Cancel keeps it, Delete removes it for good.
    await menuButton.click();
    await menu.getByRole("menuitem", { name: `Delete “${graderName}”…` }).click();
    const confirm = page.getByRole("dialog", { name: `Delete “${graderName}”?` });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("This is permanent");
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await saveScreenshot(page, "delete-confirm");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    expect((await page.request.get(`/api/v1/prompts/${grader.id}`)).status()).toBe(200);

    await menuButton.click();
    await menu.getByRole("menuitem", { name: `Delete “${graderName}”…` }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(confirm).toBeHidden();
    await expect.poll(async () => (await page.request.get(`/api/v1/prompts/${grader.id}`)).status()).toBe(404);
    await expect(name).not.toHaveText(graderName);
    await expect(page.getByTestId("grader-select").getByRole("option", { name: graderName, exact: true })).toHaveCount(0);
    await menuButton.click();
    await expect(menu.getByRole("menuitemradio").filter({ hasText: graderName })).toHaveCount(0);
    await page.keyboard.press("Escape");

    // Tidy up the untitled generator, so later tests' menus stay short.
    await page.request.delete(`/api/v1/prompts/${generator!.id}`);
  });

  test("Ctrl+Shift+Z toggles line wrapping and the fold gutter hides indented lines", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Steps:\n  first indented step\n  second indented step\nThe end." });
    const editor = page.getByTestId("prompt-editor");
    await expect(editor).toHaveAttribute("data-wrap", "on");
    await expect(editor.locator(".cm-content")).toHaveClass(/cm-lineWrapping/);
    await new WorkbenchPage(page).editor.click();
    await page.keyboard.press("Control+Shift+Z");
    await expect(editor).toHaveAttribute("data-wrap", "off");
    await expect(editor.locator(".cm-content")).not.toHaveClass(/cm-lineWrapping/);
    await expect(editor).toContainText("Wrap off");
    await page.keyboard.press("Control+Shift+Z");
    await expect(editor).toHaveAttribute("data-wrap", "on");
    await expect(editor.locator(".cm-content")).toHaveClass(/cm-lineWrapping/);

    const indented = editor.locator(".cm-line", { hasText: "first indented step" });
    await expect(indented).toBeVisible();
    // The first line's fold marker (the gutter has one element per line, plus a spacer).
    const marker = editor
      .locator(".cm-foldGutter .cm-gutterElement")
      .filter({ has: page.locator("[title='Fold line']") })
      .first();
    await marker.click();
    await expect(indented).toHaveCount(0);
    await expect(editor.locator(".cm-line", { hasText: "second indented step" })).toHaveCount(0);
    await expect(editor.locator(".cm-line", { hasText: "The end." })).toBeVisible();
    await expect(editor.locator(".cm-foldPlaceholder")).toBeVisible();
    await editor.locator(".cm-foldPlaceholder").click();
    await expect(indented).toBeVisible();
  });

  test("every control of the left panel is reached with Tab and shows a focus ring", async ({ page }) => {
    await openFreshWorkbench(page, { text: "Describe {{city}}.", rows: [{ city: "Lyon" }] });
    await expect(page.getByTestId("dataset-summary")).toBeVisible();
    await page.getByTestId("prompt-name").focus();
    await page.getByTestId("prompt-name").blur();
    // Start from the top of the page, as a keyboard user would after loading it: a click on the
    // header's empty right end (past its links, which fill the header's height).
    const header = await page.locator("header").boundingBox();
    await page.locator("body").click({ position: { x: Math.round(header!.x + header!.width - 10), y: 5 } });

    const panel = page.getByTestId("editor-panel");
    type Stop = { name: string; inPanel: boolean; focusVisible: boolean; outline: string; ring: string };
    const stops: Stop[] = [];
    for (let step = 0; step < 14 && !stops.some((stop) => stop.name === "Plan and budget"); step++) {
      await page.keyboard.press("Tab");
      stops.push(
        await panel.evaluate((panelElement) => {
          const element = document.activeElement as HTMLElement;
          const style = getComputedStyle(element);
          // The editor's ring is drawn by its frame (focus-within), not by the text area itself.
          const frame = element.closest(".focus-within\\:ring-2") as HTMLElement | null;
          return {
            name: element.classList.contains("cm-content")
              ? "editor"
              : (element.getAttribute("aria-label") ?? element.textContent?.trim().replace(/\s+/g, " ") ?? ""),
            inPanel: panelElement.contains(element),
            focusVisible: element.matches(":focus-visible"),
            outline: `${style.outlineStyle} ${style.outlineWidth}`,
            ring: frame ? getComputedStyle(frame).boxShadow : "none",
          };
        }),
      );
    }
    const panelStops = stops.filter((stop) => stop.inPanel);
    const names = panelStops.map((stop) => stop.name);
    const expected = [/^Prompt /, /^Prompts$/, /^History/, /^editor$/, /^Run/, /^Preview /, /^Plan and budget$/];
    // In this order (other stops, such as the plan's own controls, may come between).
    let at = 0;
    for (const pattern of expected) {
      const found = names.findIndex((name, index) => index >= at && pattern.test(name));
      expect(found, `${pattern} among the Tab stops ${JSON.stringify(names)}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
      const stop = panelStops[found];
      expect(stop.focusVisible, `${stop.name} matches :focus-visible`).toBe(true);
      if (stop.name === "editor") expect(stop.ring, "the editor's frame shows a ring").not.toBe("none");
      else expect(stop.outline, `${stop.name} has an outline`).toMatch(/^(solid|auto|dashed|dotted|double) [1-9]/);
    }
  });
});
