import { expect, test } from "@playwright/test";
import { saveScreenshot } from "./workbench-page";

// A fake key, never valid anywhere.
const BFL_KEY = "bfl-test-parallaxr-e2e-000000000000000000000c0de";

test.afterEach(async ({ request }) => {
  await request.delete("/api/v1/keys/flux");
});

test("Settings -> Keys takes a FLUX key for the image models, bound to the base URL it is saved with", async ({ page, request }) => {
  const answers: Promise<string>[] = [];
  page.on("response", (response) => answers.push(response.text().catch(() => "")));

  await page.goto("/settings/keys");
  const flux = page.getByRole("region", { name: "Black Forest Labs (FLUX)", exact: true });
  await expect(flux).toContainText("No key");
  await expect(flux.getByLabel("Base URL for Black Forest Labs (FLUX) (optional)", { exact: true })).toHaveAttribute(
    "placeholder",
    "https://api.bfl.ai",
  );
  await flux.getByLabel("API key for Black Forest Labs (FLUX)", { exact: true }).fill(BFL_KEY);
  await flux.getByLabel("Base URL for Black Forest Labs (FLUX) (optional)", { exact: true }).fill("https://api.eu.bfl.ai");
  await flux.getByRole("button", { name: "Save" }).click();
  await expect(flux).toContainText("Key ending in c0de");
  await flux.evaluate((element) => element.scrollIntoView({ block: "center" }));
  await saveScreenshot(page, "settings-keys-flux");

  // The list the page reads holds the last four characters and the base URL, never the key.
  const listed = await (await request.get("/api/v1/keys")).json();
  expect(listed.keys).toEqual(
    expect.arrayContaining([expect.objectContaining({ provider: "flux", last4: "c0de", baseUrl: "https://api.eu.bfl.ai" })]),
  );
  expect(JSON.stringify(listed)).not.toContain(BFL_KEY);
  expect((await Promise.all(answers)).join("\n")).not.toContain(BFL_KEY);

  // FLUX has no text models: the model picker does not offer it.
  const models = await (await request.get("/api/v1/models")).json();
  expect(JSON.stringify(models.models ?? models)).not.toContain('"provider":"flux"');
});
