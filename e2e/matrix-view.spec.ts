import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { expectAccessible } from "./helpers/axe";

// The Matrix view (/evals/matrix, issue 13) as a person meets it: upload two prompt versions and
// two inputs (one holding markup), name two keyless mock models, see the plan and its estimate,
// run it, watch the 2 x 2 x 2 grid fill to 8 evals, open one (its output shown as text), read a
// comparison laid out as its markdown, download the batch as a zip, and reopen it by ?id=.

// Markup an output echoes back: it must show as these characters, never as an element.
const MARKUP = '<img src=x onerror="window.__pwned=1">';

const file = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 900 });
    await page.screenshot({ path: `test-results/matrix-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function addModel(page: Page, name: string) {
  await page.getByLabel("Model", { exact: true }).fill(name);
  await page.getByLabel("Model", { exact: true }).press("Enter");
  await expect(page.getByRole("list", { name: "Models" }).getByText(name, { exact: true })).toBeVisible();
}

test.describe("matrix view", () => {
  test("two prompt files x two mock models x two inputs: plan, run, the grid of 8, an eval as text, a comparison, the zip, reopen", async ({
    page,
  }) => {
    await page.goto("/evals");
    await page.getByRole("navigation", { name: "Evals views" }).getByRole("link", { name: "Matrix" }).click();
    await expect(page).toHaveURL(/\/evals\/matrix$/);
    await expect(page.getByRole("heading", { name: "Matrix", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Evals views" }).getByRole("link", { name: "Matrix" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const seePlan = page.getByRole("button", { name: "See the plan" });
    await expect(seePlan).toBeDisabled();
    await expect(page.getByText("Add a prompt version, a model, an input to plan.")).toBeVisible();

    await page
      .getByLabel("Prompt files")
      .setInputFiles([file("v1.txt", "Summarize {{input_id}}:\n\n{{input}}"), file("v2.md", "Key points of {{transcript}}")]);
    const versions = page.getByRole("list", { name: "Prompt versions" });
    await expect(versions.getByRole("listitem")).toHaveCount(2);
    await expect(versions).toContainText("v1.txt");
    await expect(versions).toContainText("v2.md");
    // A file whose name cannot be a version is refused with what to do.
    await page.getByLabel("Prompt files").setInputFiles([file("my prompt.txt", "x")]);
    await expect(page.getByText(/my prompt\.txt: "my prompt" cannot name a version or input\. Rename the file/)).toBeVisible();
    await expect(versions.getByRole("listitem")).toHaveCount(2);

    await page
      .getByLabel("Input files")
      .setInputFiles([
        file("tech-talk-01.md", `# Example Tech Talk\n\nCompilers ${MARKUP} and parsers.`),
        file("interview-02.txt", "An interview."),
      ]);
    await expect(page.getByRole("list", { name: "Inputs" }).getByRole("listitem")).toHaveCount(2);

    await addModel(page, "mock/echo");
    await page.getByLabel("Model", { exact: true }).fill("mock/fast");
    await page.getByRole("button", { name: "Add model" }).click();
    await expect(page.getByRole("list", { name: "Models" }).getByRole("listitem")).toHaveCount(2);
    // The spec's Groq short names are shown with the ids they stand for.
    await expect(page.getByText(/llama-3\.3-70b → groq\/llama-3\.3-70b-versatile/)).toBeVisible();

    // A model without a price is estimated as unknown, never $0; then it is taken out again.
    await addModel(page, "groq/unpriced-model-x");
    await seePlan.click();
    const plan = page.getByRole("region", { name: "Plan" });
    await expect(plan).toContainText("2 prompt versions × 3 models × 2 inputs = 12 evals");
    await expect(plan.getByRole("row", { name: /^groq\/unpriced-model-x/ })).toContainText("unknown (no price)");
    await expect(plan).toContainText("not counting 1 unpriced model: groq/unpriced-model-x");
    await page.getByRole("button", { name: "Remove groq/unpriced-model-x" }).click();
    // The plan was for another matrix: it goes until asked for again.
    await expect(plan).toHaveCount(0);
    await seePlan.click();
    await expect(plan).toContainText("2 prompt versions × 2 models × 2 inputs = 8 evals");
    await expect(plan.getByRole("row", { name: /^mock\/echo/ })).toContainText("$0.0000");
    await expect(plan.getByRole("row", { name: /^Total/ })).toContainText("8");
    await expectAccessible(page, "matrix view, plan");
    await screenshots(page, "plan");

    await plan.getByRole("button", { name: "Run 8 evals" }).click();
    await expect(page).toHaveURL(/\/evals\/matrix\?id=[0-9a-f-]{36}$/);
    const matrixUrl = page.url();
    const grid = page.getByRole("table", { name: /Matrix: a row per input/ });
    await expect(grid.getByRole("columnheader", { name: "v1", exact: true })).toBeVisible();
    await expect(page.getByText(/^Done: 8 of 8 evals · 0 errors/)).toBeVisible({ timeout: 30_000 });
    await expect(grid.getByRole("button", { name: /: Done/ })).toHaveCount(8);
    await expect(grid.getByRole("row")).toHaveCount(4);
    const cell = grid.getByRole("button", { name: /^tech-talk-01, v1 on mock\/echo: Done/ });
    await expect(cell).toContainText(/\d+ in \/ \d+ out/);
    await expect(cell).toContainText(/\$0\.00 · \d+\.\d s/);
    await expectAccessible(page, "matrix view, grid done");
    await screenshots(page, "grid");

    // Open an eval from the keyboard: its output is the markup as text; Escape closes, focus returns.
    await cell.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "v1 + mock/echo + tech-talk-01" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Tokens in");
    await expect(dialog).toContainText(MARKUP);
    await expect(dialog.locator("img")).toHaveCount(0);
    await expect(dialog).toContainText(/\d{8}_\d{6}_v1_mock-echo_tech-talk-01/);
    await expectAccessible(page, "matrix view, eval open");
    await screenshots(page, "eval");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(cell).toBeFocused();

    // A comparison, laid out as its markdown: front matter, title, facts, the versions side by side.
    const comparisons = page.getByRole("region", { name: "Comparisons" });
    await comparisons
      .getByRole("navigation", { name: "Prompt Comparisons" })
      .getByRole("button", { name: "tech-talk-01: v1 vs v2 (mock/echo)" })
      .click();
    const title = comparisons.getByRole("heading", { name: "Prompt Comparison: tech-talk-01" });
    await expect(title).toBeFocused();
    const frontMatter = comparisons.getByRole("definition").filter({ hasText: "prompt_comparison" });
    await expect(frontMatter).toHaveCount(1);
    await expect(comparisons.getByRole("region", { name: "Version v1" })).toContainText(MARKUP);
    await expect(comparisons.getByRole("region", { name: "Version v2" })).toContainText("Key points of");
    await expect(comparisons.getByRole("region", { name: "Version v1" })).toContainText(/Tokens\s*[\d,]+ input \/ [\d,]+ output/);
    await expect(comparisons.getByText("Example Tech Talk", { exact: true })).toBeVisible();
    await expect(page.locator("main img")).toHaveCount(0);
    await expectAccessible(page, "matrix view, comparison open");
    await screenshots(page, "comparison");
    // The page scrolls inside main, so the comparison below the fold is taken on its own.
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: width === 1280 ? 800 : 900 });
      await comparisons.getByRole("article").screenshot({ path: `test-results/matrix-comparison-sections-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The batch folder as a zip: runs, the summary and the comparisons with their index.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download the batch (.zip)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^\d{8}_\d{6}_matrix\.zip$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");
    const files = unzipSync(new Uint8Array(bytes));
    const summaryPath = Object.keys(files).find((name) => /^batches\/\d{8}_\d{6}_matrix\/summary\.json$/.test(name));
    expect(summaryPath).toBeDefined();
    expect(JSON.parse(strFromU8(files[summaryPath!]))).toMatchObject({ total_runs: 8, successful_runs: 8, failed_runs: 0 });
    expect(Object.keys(files).filter((name) => name.startsWith("runs/"))).toHaveLength(8);

    // Reopen: from the list of past matrices, and by its address.
    await page.getByRole("button", { name: "New matrix" }).click();
    await expect(page).toHaveURL(/\/evals\/matrix$/);
    const past = page.getByRole("region", { name: "Past matrices" });
    const listed = past.getByRole("button").first();
    await expect(listed).toContainText("v1, v2 × mock/echo, mock/fast × 2 inputs: 8 of 8 done");
    await listed.click();
    await expect(page).toHaveURL(matrixUrl);
    await expect(page.getByText(/^Done: 8 of 8 evals/)).toBeVisible();
    await page.goto(matrixUrl);
    await expect(grid.getByRole("button", { name: /: Done/ })).toHaveCount(8);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  test("a saved prompt's version and a dataset's rows as inputs; above 100 evals Run asks the spec's question first", async ({
    page,
    request,
  }) => {
    const prompt = await request.post("/api/v1/prompts", { data: { name: "summary", text: "Summarize {{input}}" } });
    expect(prompt.status()).toBe(201);
    const rows = Array.from({ length: 101 }, (_, index) => ({ slug: `talk ${index + 1}`, body: `Talk number ${index + 1}.` }));
    const dataset = await request.post("/api/v1/datasets", { data: { name: "talks", rows } });
    expect(dataset.status()).toBe(201);

    await page.goto("/evals/matrix");
    await page.getByLabel("Saved prompt").selectOption({ label: "summary" });
    // A select's name holds its chosen option too ("Version v1"): found by role and the start of its name.
    await expect(page.getByRole("combobox", { name: /^Version/ })).toHaveValue("1");
    await page.getByRole("button", { name: "Add summary@v1" }).click();
    await expect(page.getByRole("list", { name: "Prompt versions" })).toContainText("summary@v1");

    await page.getByLabel("Dataset").selectOption({ label: "talks (101 rows)" });
    await page.getByLabel("Input column").selectOption("body");
    await page.getByLabel("Id from").selectOption("slug");
    await page.getByRole("button", { name: "Add 101 rows" }).click();
    const inputs = page.getByRole("list", { name: "Inputs" });
    await expect(inputs.getByRole("listitem")).toHaveCount(101);
    // "talk 1" is not a name a run id can carry: it is written talk-1, and the page says so.
    await expect(inputs.getByRole("listitem").first()).toContainText("talk-1");
    await expect(page.getByText('Row 1: id "talk 1" is written talk-1.')).toBeVisible();

    await addModel(page, "mock/fast");
    await page.getByRole("button", { name: "See the plan" }).click();
    const plan = page.getByRole("region", { name: "Plan" });
    await expect(plan).toContainText("1 prompt version × 1 model × 101 inputs = 101 evals");
    await screenshots(page, "dataset-plan");

    await plan.getByRole("button", { name: "Run 101 evals" }).click();
    const confirm = page.getByRole("dialog", { name: "Run this matrix?" });
    await expect(confirm).toContainText("This will run 101 evals. Estimated cost: $0.0000. Continue? [y/N]");
    // No is the default answer, as [y/N] says.
    await expect(confirm.getByRole("button", { name: "No" })).toBeFocused();
    await expectAccessible(page, "matrix view, confirmation");
    await screenshots(page, "confirm");
    await page.keyboard.press("Enter");
    await expect(confirm).toBeHidden();
    await expect(page).toHaveURL(/\/evals\/matrix$/);

    await plan.getByRole("button", { name: "Run 101 evals" }).click();
    await confirm.getByRole("button", { name: "Yes, run 101 evals" }).click();
    await expect(page).toHaveURL(/\/evals\/matrix\?id=/);
    await expect(page.getByText(/^Done: 101 of 101 evals · 0 errors/)).toBeVisible({ timeout: 45_000 });
    const grid = page.getByRole("table", { name: /Matrix: a row per input/ });
    await grid.getByRole("button", { name: /^talk-1, summary@v1 on mock\/fast: Done/ }).click();
    await expect(page.getByRole("dialog", { name: "summary@v1 + mock/fast + talk-1" })).toContainText("Summarize Talk number 1.");
  });
});
