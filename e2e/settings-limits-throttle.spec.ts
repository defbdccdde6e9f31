import { expect, test } from "@playwright/test";
import { saveScreenshot } from "./workbench-page";

// Settings -> Limits shows each credential Parallaxr throttled after 429s (each mock model is one
// of its own) with a Reset that lifts it.

type Limit = { provider: string; adaptiveLimit: number | null };

async function limits(request: import("@playwright/test").APIRequestContext): Promise<Limit[]> {
  return ((await (await request.get("/api/v1/limits")).json()) as { limits: Limit[] }).limits;
}

test.describe("Settings -> Limits throttles", () => {
  test("mock/flaky's 429s throttle mock/flaky alone, and Reset lifts it", async ({ page, request }) => {
    // one cell of mock/flaky answering 429, with no second attempt: the engine throttles the credential
    const created = await request.post("/api/v1/runs", {
      data: {
        prompt: `Throttle me ${Date.now()}`,
        models: [{ provider: "mock", model: "flaky", params: { rateLimitRate: 1, retryAfterSeconds: 0.01 } }],
        maxAttempts: 1,
        cache: false,
      },
    });
    expect(created.status()).toBe(201);
    const run = (await created.json()) as { id: string };
    await expect.poll(async () => (await (await request.get(`/api/v1/runs/${run.id}`)).json()).status).toBe("completed");
    await expect
      .poll(async () => (await limits(request)).find((limit) => limit.provider === "mock/flaky")?.adaptiveLimit ?? null)
      .not.toBeNull();
    expect((await limits(request)).find((limit) => limit.provider === "mock")?.adaptiveLimit ?? null).toBeNull();

    await page.goto("/settings/limits");
    const mock = page.getByRole("region", { name: "mock", exact: true });
    const throttled = mock.getByRole("list", { name: "Throttled after rate limits: mock" });
    await expect(throttled.getByRole("listitem")).toHaveCount(1);
    await expect(throttled.getByRole("listitem")).toContainText(/^mock\/flaky: throttled to \d+ concurrent requests? after rate limits/);
    await saveScreenshot(page, "settings-limits-throttled");

    await throttled.getByRole("button", { name: "Reset the throttle of mock/flaky" }).click();
    await expect(throttled).toBeHidden();
    expect((await limits(request)).find((limit) => limit.provider === "mock/flaky")?.adaptiveLimit ?? null).toBeNull();
    await saveScreenshot(page, "settings-limits-reset");
  });
});
