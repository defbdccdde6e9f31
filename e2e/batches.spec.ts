import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { unzipSync, strFromU8 } from "fflate";
import { expectAccessible } from "./helpers/axe";

// The /batches page as a person meets it, on the keyless mock image model: build a batch from two
// small files (one dropped on the page, one chosen), see a matrix problem at its line, the plan and
// its cost, run it, watch it complete, filter the gallery, open an image with its receipt, read
// run.json, download the run folder, re-run with tweaks and reopen the batch at its address; and
// stop a slow run, which ends cancelled.

const PROMPTS = "# two prompts, a comment and a blank line\nA red fox in fresh snow\n\nA lighthouse at <b>dusk</b>\n";

const MATRIX = `version: 1
defaults:
  n: 1
  output_format: png
matrix:
  - provider: mock
    model: mock-image
    size: [64x64, 96x96]
    seed: [1, 2]
limits:
  concurrency: 2
`;

// The same matrix without its model: an error at the block's line (6).
const MATRIX_WITHOUT_MODEL = MATRIX.replace("    model: mock-image\n", "");

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 900 });
    await page.screenshot({ path: `test-results/batches-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Drops a file on an element as a person dragging it from the desktop would. */
async function dropFile(page: Page, target: string, name: string, text: string) {
  const transfer = await page.evaluateHandle(
    ({ name, text }) => {
      const data = new DataTransfer();
      data.items.add(new File([text], name, { type: "text/plain" }));
      return data;
    },
    { name, text },
  );
  await page.dispatchEvent(target, "dragover", { dataTransfer: transfer });
  await page.dispatchEvent(target, "drop", { dataTransfer: transfer });
}

test.describe("batches page", () => {
  test("builds from two files, runs on the mock image model, filters the gallery, opens an image with its receipt, downloads the folder, re-runs and reopens", async ({
    page,
  }) => {
    await page.goto("/batches");
    await expect(page.getByRole("heading", { name: "Batches", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Batches" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const review = page.getByRole("button", { name: "Review and run" });
    await expect(review).toBeDisabled();

    // The prompts, dropped on their box: the count skips the comment and the blank line.
    await dropFile(page, "section:has(h2:text('Prompts'))", "food.txt", PROMPTS);
    await expect(page.getByLabel("Prompts file name")).toHaveValue("food.txt");
    await expect(page.getByText("2 prompts", { exact: true })).toBeVisible();
    const preview = page.getByRole("list", { name: "First and last prompts" });
    await expect(preview.getByRole("listitem")).toHaveCount(2);
    await expect(preview).toContainText("p-0001");
    await expect(preview).toContainText("A lighthouse at <b>dusk</b>");
    await expect(preview.locator("b")).toHaveCount(0);

    // A matrix with a problem: named with its file and line, marked at that line, nothing to run.
    await page
      .getByLabel("Choose matrix")
      .setInputFiles({ name: "grid.yaml", mimeType: "text/yaml", buffer: Buffer.from(MATRIX_WITHOUT_MODEL) });
    const problems = page.getByRole("list", { name: "Problems in the matrix" });
    await expect(problems).toContainText("grid.yaml, line 6");
    await expect(problems).toContainText("has no model");
    await expect(page.locator(".cm-lintRange-error")).toHaveCount(1);
    await expect(review).toBeDisabled();
    await expect(page.getByText("Fix the problems above to run.")).toBeVisible();

    // Fixed by choosing the whole file: blocks, combinations in run order, the plan.
    await page.getByLabel("Choose matrix").setInputFiles({ name: "grid.yaml", mimeType: "text/yaml", buffer: Buffer.from(MATRIX) });
    await expect(problems).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Matrix blocks" })).toContainText(
      "provider: mock · model: mock-image · size: [64x64, 96x96] · seed: [1, 2]",
    );
    await expect(page.getByRole("list", { name: "Matrix blocks" })).toContainText("4 combinations");
    await expect(page.getByText("4 combinations × 2 prompts = 8 jobs")).toBeVisible();
    const combinations = page.getByRole("table", { name: "Combinations of the matrix, in run order" });
    await expect(combinations.getByRole("row")).toHaveCount(5);
    await expect(combinations.getByRole("row").nth(2)).toContainText("64x64");
    await expect(combinations.getByRole("row").nth(2)).toContainText("2");
    const plan = page.getByRole("region", { name: "3. Plan" });
    await expect(plan.getByText("Total jobs")).toBeVisible();
    await expect(plan.locator("dl")).toContainText("Total jobs8");
    await expect(plan.locator("dl")).toContainText("Total images8");
    await expect(plan.locator("dl")).toContainText("Estimated cost$0.00");
    await expect(plan.getByRole("row", { name: /mock \/ mock-image/ })).toContainText("$0.00");

    // The range filter narrows the prompts and the plan; cleared, all run.
    await page.getByLabel("Prompt range").fill("2-2");
    await expect(page.getByText("1 of 2 prompts in the range")).toBeVisible();
    await expect(plan.locator("dl")).toContainText("Total jobs4");
    await page.getByLabel("Prompt range").fill("");
    await expect(plan.locator("dl")).toContainText("Total jobs8");

    // Limits: the matrix's concurrency is the placeholder; a malformed provider cap is refused.
    await expect(page.getByLabel("Concurrency", { exact: true })).toHaveAttribute("placeholder", "2");
    await page.getByLabel("Provider concurrency").fill("mock");
    await expect(page.getByRole("list", { name: "Problems in the limits" })).toContainText("provider=N");
    await expect(review).toBeDisabled();
    await page.getByLabel("Provider concurrency").fill("mock=2");
    await page.getByLabel("Budget (USD)").fill("1");
    await expect(review).toBeEnabled();
    await expectAccessible(page, "batches builder, ready");
    await screenshots(page, "builder");

    // Confirm: the dialog says what will run; Back keeps the builder, Start runs it.
    await review.click();
    const confirm = page.getByRole("dialog", { name: "Start this batch?" });
    await expect(confirm).toContainText("8 of 8 jobs will run (8 images planned), estimated $0.00");
    await expect(confirm).toContainText("budget $1.00, mode estimate, 2 at once");
    await expectAccessible(page, "batches builder, confirm");
    await confirm.getByRole("button", { name: "Start batch" }).click();
    await expect(page).toHaveURL(/\/batches\?id=[0-9a-f-]{36}$/);
    const batchUrl = page.url();

    const summary = page.locator("section[aria-labelledby=batch-summary-heading]");
    await expect(summary.getByText(/^Completed: 8 of 8 jobs finished/)).toBeVisible({ timeout: 60_000 });
    await expect(summary).toContainText("8 succeeded · 0 failed · 0 skipped");
    await expect(summary.getByRole("definition").filter({ hasText: "$1.00" })).toContainText("of $1.00");
    const status = page.getByRole("table", { name: "Status" });
    await expect(status.getByRole("row", { name: /mock \/ mock-image/ })).toContainText("8");
    const allRow = status.getByRole("row", { name: /^All/ });
    await expect(allRow.getByRole("cell")).toHaveText(["0", "0", "8", "0", "0", "8"]);

    // The gallery: 8 images, each with its prompt as alt text and its parameters.
    const gallery = page.getByRole("list", { name: "Images" });
    await expect(gallery.getByRole("listitem")).toHaveCount(8);
    await expect(gallery.getByRole("img", { name: "A red fox in fresh snow" })).toHaveCount(4);
    const loaded = await gallery
      .getByRole("img")
      .first()
      .evaluate(async (image: HTMLImageElement) => {
        await image.decode();
        return { width: image.naturalWidth, height: image.naturalHeight };
      });
    expect([64, 96]).toContain(loaded.width);
    await expect(page.getByText("8 images", { exact: true })).toBeVisible();
    await expectAccessible(page, "batches page, batch completed");
    await screenshots(page, "completed");

    // Filter by a matrix parameter and by prompt, then clear.
    await page.getByLabel("size", { exact: true }).selectOption("64x64");
    await expect(gallery.getByRole("listitem")).toHaveCount(4);
    await expect(page.getByText("4 of 8 images")).toBeVisible();
    await page.getByLabel("Prompt", { exact: true }).selectOption("p-0002");
    await expect(gallery.getByRole("listitem")).toHaveCount(2);
    await expect(gallery.getByRole("img", { name: "A lighthouse at <b>dusk</b>" })).toHaveCount(2);
    await expect(page.getByLabel("provider", { exact: true })).toHaveValue("");

    // Open one from the keyboard: full size, its parameters, its receipt as text; Escape returns.
    const opener = gallery.getByRole("button").first();
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByTestId("batch-image-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading").first()).toHaveText(/^mock-\d{8}T\d{6}Z-j-\d{6}-00\.png$/);
    await expect(dialog).toContainText("A lighthouse at <b>dusk</b>");
    const receipt = dialog.getByLabel("Receipt");
    await expect(receipt).toContainText('"provider": "mock"');
    await expect(receipt).toContainText('"size": "64x64"');
    await expect(receipt).not.toContainText(/api[_-]?key|authorization/i);
    await expect(dialog.locator("b")).toHaveCount(0);
    await expectAccessible(page, "batches page, image open");
    await screenshots(page, "image");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(gallery.getByRole("listitem")).toHaveCount(8);

    // The manifest, viewed and saved; the run folder as a zip holding it, the inputs and every file.
    await page.getByRole("button", { name: "View run.json" }).click();
    const manifestView = page.getByLabel("run.json");
    await expect(manifestView).toContainText('"schema_version": 1');
    await expect(manifestView).toContainText('"status": "completed"');
    const savingManifest = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download run.json" }).click();
    const manifest = JSON.parse(readFileSync((await (await savingManifest).path())!, "utf8"));
    expect(manifest.jobs).toHaveLength(8);
    expect(manifest.inputs).toMatchObject({ prompts_path: "food.txt", matrix_path: "grid.yaml", prompt_count: 2, expanded_jobs: 8 });
    const savingZip = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download the run folder (.zip)" }).click();
    const zip = await savingZip;
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    const entries = unzipSync(readFileSync((await zip.path())!));
    const names = Object.keys(entries).map((name) => name.split("/").pop()!);
    expect(names).toEqual(expect.arrayContaining(["run.json", "food.txt", "grid.yaml"]));
    expect(names.filter((name) => /^mock-.*\.png$/.test(name))).toHaveLength(8);
    expect(names.filter((name) => /^receipt-mock-.*\.json$/.test(name))).toHaveLength(8);
    const foodEntry = Object.keys(entries).find((name) => name.endsWith("food.txt"))!;
    expect(strFromU8(entries[foodEntry])).toBe(PROMPTS);

    // Re-run with tweaks: the builder opens on the same two files.
    await page.getByRole("button", { name: "Re-run with tweaks" }).click();
    await expect(page).toHaveURL(/\/batches$/);
    await expect(page.getByRole("textbox", { name: "Prompts", exact: true })).toContainText("A red fox in fresh snow");
    await expect(page.getByRole("textbox", { name: "Matrix", exact: true })).toContainText("model: mock-image");
    await expect(plan.locator("dl")).toContainText("Total jobs8");

    // Past batches list it; its address reopens it, finished, with its gallery.
    const past = page.locator("section[aria-labelledby=past-batches-heading]");
    const listed = past.getByRole("button").first();
    await expect(listed).toContainText("food.txt × grid.yaml");
    await expect(listed).toContainText("8 succeeded");
    await page.goto(batchUrl);
    await expect(page.getByText(/^Completed: 8 of 8 jobs finished/)).toBeVisible();
    await expect(gallery.getByRole("listitem")).toHaveCount(8);
  });

  test("pauses, resumes and stops a slow run; Stop asks first and the run ends cancelled", async ({ page }) => {
    await page.goto("/batches");
    await page.getByLabel("Choose prompts").setInputFiles({
      name: "slow.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("one\ntwo\nthree\nfour\nfive\nsix\n"),
    });
    await page.getByLabel("Choose matrix").setInputFiles({
      name: "slow.json",
      mimeType: "application/json",
      buffer: Buffer.from(
        JSON.stringify({
          version: 1,
          matrix: [{ provider: "mock", model: "mock-image", size: "32x32", provider_options: { mock_latency_ms: 3000 } }],
        }),
      ),
    });
    await page.getByLabel("Concurrency", { exact: true }).fill("1");
    await page.getByRole("button", { name: "Review and run" }).click();
    await page.getByRole("dialog", { name: "Start this batch?" }).getByRole("button", { name: "Start batch" }).click();
    await expect(page).toHaveURL(/\/batches\?id=/);

    const line = page.locator("section[aria-labelledby=batch-summary-heading] p[aria-live]");
    await expect(line).toHaveText(/^(Running|Planned): /);
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(line).toHaveText(/^Paused: /);
    await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
    await screenshots(page, "paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(line).toHaveText(/^Running: /);

    // Stop asks; "Keep running" leaves it running and gives the focus back to Stop.
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.click();
    const ask = page.getByRole("dialog", { name: "Stop this batch?" });
    await expect(ask).toContainText("marked cancelled");
    await expectAccessible(page, "batches page, stop asked");
    await ask.getByRole("button", { name: "Keep running" }).click();
    await expect(ask).toBeHidden();
    await expect(stop).toBeFocused();
    await stop.click();
    await ask.getByRole("button", { name: "Stop batch" }).click();
    await expect(line).toHaveText(/^Cancelled: /, { timeout: 20_000 });
    await expect(page.getByRole("button", { name: "Pause" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
    // Fewer than all six made: the run stopped before its end and kept what it had.
    const made = Number((await line.textContent())!.match(/(\d+) succeeded/)![1]);
    expect(made).toBeLessThan(6);
    await expect(page.getByRole("list", { name: "Images" }).getByRole("listitem")).toHaveCount(made);
    await expect(page.getByRole("button", { name: "Re-run with tweaks" })).toBeVisible();
    await screenshots(page, "cancelled");
  });
});
