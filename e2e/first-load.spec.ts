import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startTestServer, type TestServer } from "./helpers/server";
import { saveScreenshot } from "./workbench-page";

// Testing Plan 8 (First-Load Behavior) of the workbench spec, on a server of its own with an empty
// data folder: the first visit seeds an example prompt, grader and dataset and opens them with the
// first mock model, so the grid is not empty; reloads and further seeds add nothing.

const PORT = 3311;
let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startTestServer({ port: PORT, dataDir: mkdtempSync(path.join(tmpdir(), "parallaxr-first-load-")) });
});

test.afterAll(async () => {
  await server?.kill();
});

test("the first visit opens the seeded example, and seeding again adds nothing", async ({ page }) => {
  test.setTimeout(60_000);
  const url = (route: string) => `${server.url}${route}`;
  type Prompt = { name: string; type: string };
  const listPrompts = async () => ((await (await page.request.get(url("/api/v1/prompts"))).json()) as { prompts: Prompt[] }).prompts;
  // Nothing is there before the first visit.
  expect(await listPrompts()).toEqual([]);

  await page.goto(url("/"));
  await expect(page.getByTestId("prompt-name")).toHaveText("Explain it simply");
  await expect(page.getByTestId("prompt-version")).toHaveText("v1");
  await expect(page.getByRole("textbox", { name: "Prompt" })).toContainText("Explain {{topic}} to {{audience}}");
  await expect(page.getByRole("list", { name: "Detected variables" }).getByRole("listitem")).toHaveText(["{{topic}}", "{{audience}}"]);
  const summary = page.getByTestId("dataset-summary");
  await expect(summary).toContainText("topics.csv");
  await expect(summary).toContainText("5 rows");

  // One column, the first mock model, and a row for each of the dataset's five rows.
  const modelHeaders = page.getByRole("columnheader", { name: /mock \/ / });
  await expect(modelHeaders).toHaveCount(1);
  await expect(modelHeaders).toContainText("mock / echo");
  for (let row = 1; row <= 5; row++)
    await expect(page.getByRole("group", { name: new RegExp(`^Row ${row}, mock / echo: `) })).toBeVisible();
  await expect(page.getByRole("group", { name: /^Row 6, / })).toHaveCount(0);

  const graderSelect = page.getByTestId("grader-select");
  await expect(graderSelect.getByRole("option", { name: "Clarity grader" })).toHaveCount(1);
  await expect(graderSelect.locator("option:checked")).toHaveText("Clarity grader");
  await saveScreenshot(page, "first-load");

  // Two reloads and a third seed: still one of each.
  await page.reload();
  await expect(page.getByTestId("prompt-name")).toHaveText("Explain it simply");
  await page.reload();
  await expect(page.getByTestId("prompt-name")).toHaveText("Explain it simply");
  await expect(page.getByRole("columnheader", { name: /mock \/ / })).toHaveCount(1);
  const seeded = await page.request.post(url("/api/v1/seed"));
  expect(seeded.ok()).toBe(true);
  expect(await seeded.json()).toEqual({ seeded: false });

  const prompts = await listPrompts();
  expect(prompts.filter((prompt) => prompt.name === "Explain it simply")).toHaveLength(1);
  expect(prompts.filter((prompt) => prompt.name === "Clarity grader")).toHaveLength(1);
  expect(prompts).toHaveLength(2);
  const datasets = (await (await page.request.get(url("/api/v1/datasets"))).json()) as { name: string }[];
  expect(datasets.filter((dataset) => dataset.name === "topics.csv")).toHaveLength(1);
  const models = ((await (await page.request.get(url("/api/v1/models"))).json()) as { models: { provider: string; model: string }[] })
    .models;
  const keys = models.map((model) => `${model.provider}/${model.model}`);
  expect(new Set(keys).size, keys.join(", ")).toBe(keys.length);
  expect(keys.filter((key) => key === "mock/echo")).toHaveLength(1);
  const setup = (await (await page.request.get(url("/api/v1/workbench"))).json()) as { columns: { provider: string; model: string }[] };
  expect(setup.columns).toEqual([expect.objectContaining({ provider: "mock", model: "echo" })]);

  // The example runs as it is, and its grader grades even the mock's echoes: grades that differ
  // by row (a mock grades with a made-up grade, the same for the same answer), not one for all.
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-progress")).toHaveText("5 / 5 done", { timeout: 30_000 });
  const badges = page.getByTestId("grade-badge");
  await expect(badges).toHaveCount(5);
  const grades = await badges.allTextContents();
  for (const grade of grades) expect(grade).toMatch(/^(0|1)\.\d0$/);
  expect(new Set(grades).size, `grades ${grades.join(", ")}`).toBeGreaterThan(1);
  await saveScreenshot(page, "first-load-graded");
});
