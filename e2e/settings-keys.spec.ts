import { createServer, type AddressInfo } from "node:net";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { saveScreenshot } from "./workbench-page";

// Fake keys: never valid anywhere. Each test uses its own providers and removes what it saved,
// because the server's database is shared by every spec of a Playwright run.
const OPENAI_KEY = "sk-test-parallaxr-e2e-0000000000000000000000007f3a";
const GROQ_KEY = "gsk_test_parallaxr_e2e_keyboard_00000000000000b9c2";
const OLLAMA_PROXY_TOKEN = "ollama-proxy-token-e2e-00000000d41e";

test.afterEach(async ({ request }) => {
  for (const provider of ["openai", "groq", "ollama"]) await request.delete(`/api/v1/keys/${provider}`);
});

/** A provider's row on the keys page, by its heading. */
function row(page: Page, label: string): Locator {
  return page.getByRole("region", { name: label, exact: true });
}

/**
 * A local port nobody listens on: one the system just handed out and took back. (Not a fixed
 * one such as 9: fetch refuses the ports of old services outright, before any connection.)
 */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function openKeysPage(page: Page) {
  await page.goto("/settings/keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  await expect(row(page, "OpenAI")).toBeVisible();
}

test.describe("settings: keys", () => {
  test("saves an OpenAI key write-only, keeps it after a reload, and removes it after a confirm", async ({ page }) => {
    // Every answer the browser gets, and every address it asks for, is checked for the key.
    const answers: Promise<string>[] = [];
    const addresses: string[] = [];
    page.on("request", (request) => addresses.push(request.url()));
    page.on("response", (response) => answers.push(response.text().catch(() => "")));

    await openKeysPage(page);
    await expect(page.getByText("encrypted at rest with AES-256-GCM")).toBeVisible();
    await expect(page.getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("link", { name: "Workbench" })).not.toHaveAttribute("aria-current");

    const openai = row(page, "OpenAI");
    await expect(openai).toContainText("No key");
    const keyInput = openai.getByLabel("API key for OpenAI", { exact: true });
    await expect(keyInput).toHaveAttribute("type", "password");
    await expect(keyInput).toHaveAttribute("autocomplete", "off");
    await keyInput.fill(OPENAI_KEY);
    await openai.getByRole("button", { name: "Save" }).click();

    await expect(openai).toContainText("Key ending in 7f3a");
    await expect(openai.getByRole("status")).toHaveText("Saved. The OpenAI key ends in 7f3a.");
    await expect(keyInput).toHaveValue("");
    expect(await page.content()).not.toContain(OPENAI_KEY);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(OPENAI_KEY);
    expect(page.url()).not.toContain(OPENAI_KEY);
    await saveScreenshot(page, "settings-keys");

    await page.reload();
    await expect(row(page, "OpenAI")).toContainText("Key ending in 7f3a");
    await expect(row(page, "OpenAI").getByLabel("API key for OpenAI", { exact: true })).toHaveValue("");

    // Remove asks first; Cancel keeps the key.
    const reloaded = row(page, "OpenAI");
    await reloaded.getByRole("button", { name: "Remove" }).click();
    await expect(reloaded).toContainText("Remove the OpenAI key ending in 7f3a?");
    await expect(reloaded.getByRole("button", { name: "Cancel" })).toBeFocused();
    await reloaded.getByRole("button", { name: "Cancel" }).click();
    await expect(reloaded).toContainText("Key ending in 7f3a");
    await reloaded.getByRole("button", { name: "Remove", exact: true }).click();
    await reloaded.getByRole("button", { name: "Remove key" }).click();
    await expect(reloaded).toContainText("No key");
    await expect(reloaded.getByRole("status")).toHaveText("Removed the OpenAI key.");
    await expect(reloaded.getByRole("button", { name: "Remove", exact: true })).toHaveCount(0);

    const keys = await (await page.request.get("/api/v1/keys")).json();
    expect(keys.keys.map((key: { provider: string }) => key.provider)).not.toContain("openai");

    for (const body of await Promise.all(answers)) expect(body).not.toContain(OPENAI_KEY);
    for (const address of addresses) expect(address).not.toContain(OPENAI_KEY);
  });

  test("shows the API's message beside the row when a key is too short", async ({ page }) => {
    await openKeysPage(page);
    const openai = row(page, "OpenAI");
    const keyInput = openai.getByLabel("API key for OpenAI", { exact: true });
    await keyInput.fill("sk-123");
    await openai.getByRole("button", { name: "Save" }).click();

    const alert = openai.getByRole("alert");
    await expect(alert).toContainText("too short");
    await expect(keyInput).toHaveAttribute("aria-invalid", "true");
    await expect(openai).toContainText("No key");
    await saveScreenshot(page, "settings-keys-error");

    await alert.getByRole("button", { name: "Dismiss error" }).click();
    await expect(alert).toBeHidden();
  });

  test("Test against an Ollama base URL nobody listens on reports the network error", async ({ page }) => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    await openKeysPage(page);
    const ollama = row(page, "Ollama");
    await ollama.getByLabel("Base URL for Ollama", { exact: true }).fill(baseUrl);
    // The API stores a base URL with a key for now; for Ollama that is the token of a proxy in front.
    await ollama.getByLabel("API key for Ollama (optional)", { exact: true }).fill(OLLAMA_PROXY_TOKEN);
    await ollama.getByRole("button", { name: "Save" }).click();
    await expect(ollama).toContainText("Key ending in d41e");
    await expect(ollama.getByLabel("Base URL for Ollama", { exact: true })).toHaveValue(baseUrl);

    await ollama.getByRole("button", { name: "Test" }).click();
    const model = ollama.getByLabel("Test with model for Ollama");
    await expect(model).toBeFocused();
    await expect(model).toHaveValue("llama3.2");
    await model.press("Enter");

    const status = ollama.getByRole("status");
    await expect(status).toContainText("Could not reach Ollama");
    await expect(status).toContainText("check the base URL");
    // Still the page, working: nothing crashed.
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await expect(ollama.getByRole("button", { name: "Run test" })).toBeEnabled();
    await ollama.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await saveScreenshot(page, "settings-keys-test-failed");
  });

  test("shows the one base URL each saved key is sent to, and asks for the key again to change it", async ({ page }) => {
    const ollamaUrl = `http://127.0.0.1:${await closedPort()}`;
    await openKeysPage(page);

    // A key saved without a base URL goes to the vendor's default, and the row says so.
    const openai = row(page, "OpenAI");
    await openai.getByLabel("API key for OpenAI", { exact: true }).fill(OPENAI_KEY);
    await openai.getByRole("button", { name: "Save" }).click();
    await expect(openai).toContainText("Key ending in 7f3a");
    await expect(openai).toContainText("Sent only to https://api.openai.com/v1 (default)");

    // A vendor's own base URL is taken with the key entered beside it.
    const groq = row(page, "Groq");
    await groq.getByLabel("API key for Groq", { exact: true }).fill(GROQ_KEY);
    await groq.getByLabel("Base URL for Groq (optional)", { exact: true }).fill("https://groq-gateway.example.com/openai/v1/");
    await groq.getByRole("button", { name: "Save" }).click();
    await expect(groq).toContainText("Sent only to https://groq-gateway.example.com/openai/v1");
    await expect(groq.getByLabel("Base URL for Groq (optional)", { exact: true })).toHaveValue(
      "https://groq-gateway.example.com/openai/v1",
    );

    // A keyless server: the URL alone.
    const ollama = row(page, "Ollama");
    await ollama.getByLabel("Base URL for Ollama", { exact: true }).fill(ollamaUrl);
    await ollama.getByRole("button", { name: "Save" }).click();
    await expect(ollama).toContainText("Base URL saved, no key");
    await expect(ollama).toContainText(`Calls ${ollamaUrl}`);

    // Moving the OpenAI key elsewhere without entering it again is refused, here and by the API.
    await openai.getByLabel("Base URL for OpenAI (optional)", { exact: true }).fill("http://127.0.0.1:9/v1");
    await openai.getByRole("button", { name: "Save" }).click();
    await expect(openai.getByRole("alert")).toContainText("needed again to change the base URL");
    const moved = await page.request.put("/api/v1/keys/openai", { data: { baseUrl: "http://127.0.0.1:9/v1" } });
    expect(moved.status()).toBe(400);
    expect((await moved.json()).error.message).toContain("bound to the base URL it was saved with");
    await openai.getByRole("alert").getByRole("button", { name: "Dismiss error" }).click();
    await openai.getByLabel("Base URL for OpenAI (optional)", { exact: true }).fill("");

    await page.reload();
    await expect(row(page, "OpenAI")).toContainText("Sent only to https://api.openai.com/v1 (default)");
    await expect(row(page, "Groq")).toContainText("Sent only to https://groq-gateway.example.com/openai/v1");
    // Tall enough to show every row with a saved entry.
    await page.setViewportSize({ width: 1280, height: 1300 });
    await page.screenshot({ path: "e2e-artifacts/settings-keys-base-url.png", fullPage: true });
  });

  test("every control is reachable with the keyboard, and a key can be saved and removed with it", async ({ page }) => {
    await openKeysPage(page);

    // Walk the page with Tab and note each control, by row.
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("Control+Home");
    const reached: string[] = [];
    for (let step = 0; step < 60; step++) {
      await page.keyboard.press("Tab");
      reached.push(
        await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          if (!element || element === document.body) return "";
          const rowName = element.closest("section")?.querySelector("h2")?.textContent ?? "";
          const name =
            (element as HTMLInputElement).labels?.[0]?.textContent ?? element.getAttribute("aria-label") ?? element.textContent ?? "";
          return `${rowName}: ${name.trim()}`;
        }),
      );
    }
    for (const name of [": Workbench", ": Settings", "OpenAI: API key for OpenAI", "OpenAI: Save", "OpenAI: Test", "Anthropic: Save"]) {
      expect(reached).toContain(name);
    }
    expect(reached).toContain("OpenRouter: Base URL for OpenRouter (optional)");
    expect(reached).toContain("OpenAI: Base URL for OpenAI (optional)");
    expect(reached).toContain("Ollama: Base URL for Ollama");
    expect(reached.some((name) => name.startsWith("OpenAI-compatible") && name.endsWith(": Test"))).toBe(true);

    // Save with Enter in the key input, then Remove and confirm without the mouse.
    const groq = row(page, "Groq");
    const keyInput = groq.getByLabel("API key for Groq", { exact: true });
    await keyInput.focus();
    await page.keyboard.type(GROQ_KEY);
    await page.keyboard.press("Enter");
    await expect(groq).toContainText("Key ending in b9c2");
    await expect(keyInput).toHaveValue("");

    await page.keyboard.press("Tab"); // Base URL
    await page.keyboard.press("Tab"); // Save
    await page.keyboard.press("Tab"); // Test
    await page.keyboard.press("Tab"); // Remove
    await expect(groq.getByRole("button", { name: "Remove", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(groq.getByRole("button", { name: "Cancel" })).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(groq.getByRole("button", { name: "Remove key" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(groq).toContainText("No key");
    await expect(keyInput).toBeFocused();
  });
});
