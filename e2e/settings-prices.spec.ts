import { expect, test, type Page } from "@playwright/test";
import { saveScreenshot } from "./workbench-page";

const yourPrices = (page: Page) => page.getByRole("list", { name: "Your prices" });
const referencePrices = (page: Page) => page.getByRole("list", { name: "Reference prices" });
const addForm = (page: Page) => page.getByRole("form", { name: "Add a price" });

test.describe("settings: prices", () => {
  test("adds, edits and removes a price, and overrides one from the reference", async ({ page }) => {
    await page.goto("/settings/prices");
    await expect(page.getByRole("heading", { name: "Prices", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Settings pages" }).getByRole("link", { name: "Prices" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // The reference list, with its date and note, read-only.
    await expect(page.getByText(/^Checked \d/)).toBeVisible();
    await expect(page.getByText(/Local and mock models are free/)).toBeVisible();
    const mini = referencePrices(page).getByRole("listitem", { name: "openai / gpt-4o-mini" });
    await expect(mini).toContainText("$0.15 / 1M");
    await expect(mini).toContainText("$0.60 / 1M");

    // Add.
    const form = addForm(page);
    await form.getByLabel("Provider").selectOption("openai");
    await form.getByLabel("Model id").fill("my-tuned-model");
    await form.getByLabel("Input price").fill("0.3");
    await form.getByLabel("Output price").fill("1.25");
    await form.getByRole("button", { name: "Add price" }).click();
    const added = yourPrices(page).getByRole("listitem", { name: "openai / my-tuned-model" });
    await expect(added).toContainText("$0.30 / 1M");
    await expect(added).toContainText("$1.25 / 1M");
    await expect(form.getByLabel("Model id")).toHaveValue("");

    // Edit inline.
    await added.getByRole("button", { name: "Edit openai / my-tuned-model" }).click();
    await added.getByLabel("Input price for openai / my-tuned-model").fill("0.075");
    await added.getByRole("button", { name: "Save" }).click();
    await expect(added).toContainText("$0.075 / 1M");
    await expect(added.getByRole("button", { name: "Edit openai / my-tuned-model" })).toBeVisible();

    // Override a reference price: it is copied into the person's list, open for editing.
    await mini.getByRole("button", { name: "Override openai / gpt-4o-mini" }).click();
    const copied = yourPrices(page).getByRole("listitem", { name: "openai / gpt-4o-mini" });
    await expect(copied.getByLabel("Input price for openai / gpt-4o-mini")).toHaveValue("0.15");
    await expect(copied.getByLabel("Input price for openai / gpt-4o-mini")).toBeFocused();
    await copied.getByLabel("Output price for openai / gpt-4o-mini").fill("0.5");
    await copied.getByRole("button", { name: "Save" }).click();
    await expect(copied).toContainText("$0.50 / 1M");
    await expect(mini).toContainText("Overridden");

    const prices = (await (await page.request.get("/api/v1/prices")).json()) as { prices: { model: string; outputPerMTok: number }[] };
    expect(prices.prices.find((price) => price.model === "gpt-4o-mini")?.outputPerMTok).toBe(0.5);

    await saveScreenshot(page, "settings-prices");

    // Remove.
    await added.getByRole("button", { name: "Remove openai / my-tuned-model" }).click();
    await expect(added).toBeHidden();
    await expect(copied).toBeVisible();
  });

  test("shows the API's message next to the row for a negative price", async ({ page }) => {
    const answer = await page.request.put("/api/v1/prices", {
      data: { provider: "openai", model: "negative", inputPerMTok: -1, outputPerMTok: 1 },
    });
    expect(answer.status()).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };

    await page.goto("/settings/prices");
    const form = addForm(page);
    await form.getByLabel("Provider").selectOption("openai");
    await form.getByLabel("Model id").fill("negative");
    await form.getByLabel("Input price").fill("-1");
    await form.getByLabel("Output price").fill("1");
    await form.getByRole("button", { name: "Add price" }).click();
    await expect(form.getByRole("alert")).toHaveText(error.message);
    await expect(form.getByLabel("Input price")).toHaveAttribute("aria-invalid", "true");
    await saveScreenshot(page, "settings-prices-error");
  });
});

// Limits live on their own settings page, beside Prices.
test.describe("settings: limits", () => {
  // The limits are the server's for every later spec: 120 mock calls a minute would slow every run
  // after this one (the large-grid spec measured 7 cells/s instead of ~270), so they are lifted after.
  test.afterEach(async ({ request }) => {
    const lifted = await request.put("/api/v1/limits/mock", {
      data: { maxConcurrency: null, requestsPerMinute: null, tokensPerMinute: null },
    });
    expect(lifted.ok()).toBe(true);
  });

  test("saves a provider's limits; empty means no limit", async ({ page }) => {
    await page.goto("/settings/limits");
    await expect(page.getByRole("heading", { name: "Rate limits", level: 1 })).toBeVisible();
    const mock = page.getByRole("region", { name: "mock", exact: true });
    await mock.getByLabel("Max concurrent requests for mock").fill("3");
    await mock.getByLabel("Requests per minute for mock").fill("120");
    await mock.getByRole("button", { name: "Save limits for mock" }).click();
    await expect(mock.getByText("Saved")).toBeVisible();
    const { limits } = (await (await page.request.get("/api/v1/limits")).json()) as {
      limits: { provider: string; maxConcurrency: number | null; requestsPerMinute: number | null; tokensPerMinute: number | null }[];
    };
    expect(limits.find((limit) => limit.provider === "mock")).toMatchObject({
      maxConcurrency: 3,
      requestsPerMinute: 120,
      tokensPerMinute: null,
    });

    await mock.getByLabel("Max concurrent requests for mock").fill("0");
    await mock.getByRole("button", { name: "Save limits for mock" }).click();
    await expect(mock.getByRole("alert")).toContainText("whole number");
    await saveScreenshot(page, "settings-limits");
  });

  test("clears the response cache from Settings -> Limits", async ({ page, request }) => {
    // one answered cell puts one answer in the cache
    const run = await (
      await request.post("/api/v1/runs", { data: { prompt: `Cache me ${Date.now()}`, models: [{ provider: "mock", model: "fast" }] } })
    ).json();
    await expect.poll(async () => (await (await request.get(`/api/v1/runs/${run.id}`)).json()).status).toBe("completed");
    await page.goto("/settings/limits");
    const cache = page.getByRole("region", { name: "Response cache" });
    await cache.getByRole("button", { name: "Clear cache" }).click();
    await expect(cache.getByText(/^Cleared \d+ cached answers?\.$/)).toBeVisible();
    await saveScreenshot(page, "settings-limits-cache");
  });
});
