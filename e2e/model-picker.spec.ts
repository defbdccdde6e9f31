import { createServer, type AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { openFreshWorkbench } from "./helpers/workbench-setup";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";

// The server's database is shared by every spec of a Playwright run: remove the keys saved here.
test.afterEach(async ({ request }) => {
  for (const provider of ["openai", "openrouter"]) await request.delete(`/api/v1/keys/${provider}`);
});

/** A local port nobody listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function openPicker(page: Page) {
  await openFreshWorkbench(page, { text: "Pick a model." });
  const workbench = new WorkbenchPage(page);
  await workbench.addModelButton.click();
  const picker = page.getByRole("dialog", { name: "Add a model" });
  await expect(picker).toBeVisible();
  return { workbench, picker };
}

test.describe("model picker", () => {
  test("groups the mock models under mock, narrows as you type, and picks with the keyboard", async ({ page }) => {
    const { workbench, picker } = await openPicker(page);
    const filter = picker.getByRole("textbox", { name: "Filter models" });
    await expect(filter).toBeFocused();

    const mock = picker.getByRole("list", { name: "mock", exact: true });
    await expect(mock.getByRole("button")).toHaveCount(5);
    await expect(mock.getByRole("button", { name: "mock / echo" })).toBeVisible();
    await expect(mock.getByRole("button", { name: "mock / slow" })).toHaveAccessibleDescription(/about 2 s/);

    await filter.fill("slo");
    await expect(picker.locator("button[data-model-option]")).toHaveCount(1);
    await expect(mock.getByRole("button", { name: "mock / slow" })).toBeVisible();
    await saveScreenshot(page, "model-picker-filtered");

    // Arrow down to the match, Enter adds it.
    await page.keyboard.press("ArrowDown");
    await expect(mock.getByRole("button", { name: "mock / slow" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(picker).toBeHidden();
    await expect(page.getByRole("columnheader", { name: /mock \/ slow/ })).toBeVisible();

    // The filter starts empty again; Enter in it takes the first match.
    await workbench.addModelButton.click();
    await expect(filter).toHaveValue("");
    await expect(filter).toBeFocused();
    await page.keyboard.type("fast");
    await expect(picker.locator("button[data-model-option]")).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("columnheader", { name: /mock \/ fast/ })).toBeVisible();

    // A filter that matches nothing says so; Escape closes and gives focus back to "+".
    await workbench.addModelButton.click();
    await page.keyboard.type("no-such-model");
    await expect(picker).toContainText("No models match “no-such-model”.");
    await page.keyboard.press("Escape");
    await expect(picker).toBeHidden();
    await expect(workbench.addModelButton).toBeFocused();
  });

  test("lists providers that are not set up, each with a link to add a key", async ({ page }) => {
    const { picker } = await openPicker(page);
    const notSetUp = picker.getByRole("list", { name: "Not set up" });
    await expect(notSetUp).toContainText("Anthropic");
    await expect(notSetUp.getByText("OpenAI", { exact: true })).toBeVisible();
    await expect(notSetUp.getByRole("link", { name: "Add a key for Anthropic" })).toHaveAttribute("href", "/settings/keys#anthropic");
    // A keyless server needs its address instead.
    await expect(notSetUp.getByRole("link", { name: /^Add a base URL for OpenAI-compatible/ })).toBeVisible();

    await notSetUp.getByRole("link", { name: "Add a key for Anthropic" }).click();
    await expect(page).toHaveURL(/\/settings\/keys#anthropic$/);
    await expect(page.getByLabel("API key for Anthropic", { exact: true })).toBeFocused();
  });

  test("adds a custom model id for a configured provider, and shows what each model offers", async ({ page, request }) => {
    // OpenAI lists its models from the shipped table; the address is never called here.
    const saved = await request.put("/api/v1/keys/openai", {
      data: { apiKey: "sk-test-parallaxr-picker-00000000000000000000c0de", baseUrl: `http://127.0.0.1:${await closedPort()}/v1` },
    });
    expect(saved.ok()).toBe(true);
    // OpenRouter asks its server for the list: here nobody answers, so it is listed as unavailable.
    const savedOpenRouter = await request.put("/api/v1/keys/openrouter", {
      data: { apiKey: "sk-or-test-parallaxr-picker-000000000000000000dead", baseUrl: `http://127.0.0.1:${await closedPort()}/api/v1` },
    });
    expect(savedOpenRouter.ok()).toBe(true);

    const { picker } = await openPicker(page);
    const openai = picker.getByRole("list", { name: "OpenAI", exact: true });
    await expect(openai.getByRole("button", { name: "openai / gpt-4o", exact: true })).toHaveAccessibleDescription(/128k context/);
    await expect(picker.getByRole("list", { name: "Not set up" }).getByText("OpenAI", { exact: true })).toHaveCount(0);
    await saveScreenshot(page, "model-picker");

    // Further down: a configured provider that could not list its models, muted, and the
    // providers not set up.
    const unreachable = picker.getByText(/^Could not reach OpenRouter/);
    await unreachable.scrollIntoViewIfNeeded();
    await expect(unreachable).toContainText("check the base URL");
    await picker.getByRole("list", { name: "Not set up" }).scrollIntoViewIfNeeded();
    await saveScreenshot(page, "model-picker-providers");

    // An id the list does not have: pick the provider, type the id, Add.
    await picker.getByRole("combobox", { name: "Provider of the custom model" }).selectOption({ label: "OpenAI" });
    await picker.getByRole("textbox", { name: "Custom model id" }).fill("my-model");
    await picker.getByRole("button", { name: "Add", exact: true }).click();
    await expect(picker).toBeHidden();
    await expect(page.getByRole("columnheader", { name: /openai \/ my-model/ })).toBeVisible();

    // An empty id is refused in place.
    await page.getByRole("button", { name: "Add model" }).click();
    await picker.getByRole("button", { name: "Add", exact: true }).click();
    await expect(picker.getByRole("alert")).toHaveText("Type the model id, as the provider spells it.");
  });
});
