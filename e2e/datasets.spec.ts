import { expect, test, type Page } from "@playwright/test";
import { WorkbenchPage, saveScreenshot } from "./workbench-page";
import { openFreshWorkbench, uniqueName } from "./helpers/workbench-setup";

// Datasets from the toolbar: upload (spinner, toast, summary), preview of the first 50 rows, a
// broken file's error toast, JSON, and the choice kept on the server across a reload; the same
// file kept once, the Upload pill's menu (choose, rename, delete) and Detach.

/** A CSV file of `count` rows (id, city, note), made in memory: "city-1" ... "city-N". */
function citiesCsv(count: number): string {
  const lines = ["id,city,note"];
  for (let index = 1; index <= count; index += 1) lines.push(`${index},city-${index},"note ${index}, with a comma"`);
  return lines.join("\n") + "\n";
}

function csvFile(name: string, text: string) {
  return { name, mimeType: "text/csv", buffer: Buffer.from(text) };
}

/** The dataset the server keeps as the workbench's active one. */
async function activeDatasetId(page: Page): Promise<string | null> {
  const response = await page.request.get("/api/v1/workbench");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { datasetId: string | null }).datasetId;
}

test.describe("datasets", () => {
  test("uploading a CSV shows a spinner, then a toast that leaves after about 3 s, and the summary", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Describe {{city}}." });
    const name = `${uniqueName("cities").replaceAll(" ", "-")}.csv`;

    // Hold the upload at the server's door so the busy pill can be seen, then let it through.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/datasets", async (route) => {
      if (route.request().method() === "POST") await released;
      await route.continue();
    });

    await workbench.uploadInput.setInputFiles(csvFile(name, citiesCsv(120)));
    const busyPill = page.locator("label[aria-busy=true]");
    await expect(busyPill).toHaveText("Uploading dataset…");
    await expect(busyPill.locator("svg.animate-spin")).toBeVisible();
    await expect(page.getByLabel("Uploading dataset…")).toBeDisabled();

    release();
    const toast = page.getByTestId("toast").filter({ hasText: name });
    await expect(toast).toHaveText(`Loaded ${name}: 120 rows, 3 columns`);
    const shownAt = Date.now();
    await expect(toast).toHaveAttribute("data-kind", "success");
    await expect(toast).toHaveRole("status");
    await expect(page.getByLabel("Upload dataset")).toBeEnabled();
    await expect(page.locator("label[aria-busy=true]")).toHaveCount(0);
    await saveScreenshot(page, "upload-toast");

    const summary = page.getByTestId("dataset-summary");
    await expect(summary).toContainText(name);
    await expect(summary).toContainText("120 rows");
    await expect(summary).toContainText("Columns: id, city, note");

    // The toast leaves by itself after about 3 s (the pointer is not on it).
    await expect(toast).toBeHidden({ timeout: 6_000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(2_300);
    expect(shownFor).toBeLessThan(5_000);
  });

  test("Preview shows the first 50 of 120 rows as text", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Describe {{city}}." });
    const name = `${uniqueName("preview").replaceAll(" ", "-")}.csv`;
    // A value that would be markup if it were rendered as HTML.
    const text = citiesCsv(120).replace("1,city-1,", "1,<b>city-1</b>,");
    await workbench.uploadInput.setInputFiles(csvFile(name, text));
    await expect(page.getByTestId("dataset-summary")).toContainText(name);
    await page.getByRole("button", { name: "Dismiss notification" }).click();

    await page.getByRole("button", { name: `Preview ${name}` }).click();
    const dialog = page.getByTestId("dataset-preview-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleName(name);
    await expect(dialog).toHaveAccessibleDescription("First 50 of 120 rows");
    const table = dialog.getByRole("table", { name: "First 50 of 120 rows" });
    await expect(table.getByRole("columnheader")).toHaveText(["Row", "id", "city", "note"]);
    // 50 body rows plus the header row.
    await expect(table.getByRole("row")).toHaveCount(51);
    await expect(table.getByRole("row").nth(1)).toHaveText(["1", "1", "<b>city-1</b>", "note 1, with a comma"].join(""));
    await expect(table.getByRole("row").last()).toContainText("city-50");
    await expect(table).not.toContainText("city-51");
    await expect(dialog.locator("b")).toHaveCount(0);
    await saveScreenshot(page, "dataset-preview");

    await dialog.getByRole("button", { name: "OK" }).click();
    await expect(dialog).toBeHidden();
  });

  test("a broken CSV gives an error toast naming the file, the row and the fix", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Describe {{city}}." });
    const before = await activeDatasetId(page);

    await workbench.uploadInput.setInputFiles(csvFile("broken-cities.csv", "city,country\nParis,France\nLyon,France,extra\nNice,France\n"));
    const toast = page.getByTestId("toast").filter({ hasText: "broken-cities.csv" });
    await expect(toast).toHaveAttribute("data-kind", "error");
    await expect(toast).toHaveRole("alert");
    await expect(toast).toHaveText("broken-cities.csv, row 3: row has 3 fields but the header has 2. Quote values that contain commas.");
    await expect(page.getByTestId("dataset-empty")).toBeVisible();
    await saveScreenshot(page, "upload-error-toast");
    // Nothing was stored or chosen.
    expect(await activeDatasetId(page)).toBe(before);
    const datasets = (await (await page.request.get("/api/v1/datasets")).json()) as { name: string }[];
    expect(datasets.map((dataset) => dataset.name)).not.toContain("broken-cities.csv");
  });

  test("a semicolon-separated CSV (a European spreadsheet export) is read, and the toast says so", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Compare {{a}} with {{b}}." });
    const name = `${uniqueName("excel").replaceAll(" ", "-")}.csv`;
    await workbench.uploadInput.setInputFiles(csvFile(name, 'a;b\n"1,5";2\n"2,25";3\n'));
    const toast = page.getByTestId("toast").filter({ hasText: name });
    await expect(toast).toHaveAttribute("data-kind", "success");
    await expect(toast).toHaveText(`Loaded ${name}: 2 rows, 2 columns, separated by semicolons`);
    await saveScreenshot(page, "upload-semicolon-toast");
    await expect(page.getByTestId("dataset-summary")).toContainText("Columns: a, b");
    await page.getByRole("button", { name: `Preview ${name}` }).click();
    const table = page.getByTestId("dataset-preview-dialog").getByRole("table");
    await expect(table.getByRole("row").nth(1)).toContainText("1,5");
    await expect(table.getByRole("row").nth(2)).toContainText("2,25");
  });

  test("a JSON upload works and stays the active dataset after a reload", async ({ page }) => {
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Describe {{city}} in {{country}}.", rows: [{ city: "Oslo", country: "Norway" }] });
    const name = `${uniqueName("places").replaceAll(" ", "-")}.json`;
    const rows = [
      { city: "Paris", country: "France" },
      { city: "Kyoto", country: "Japan" },
      { city: "Lima", country: "Peru" },
    ];
    await workbench.uploadInput.setInputFiles({ name, mimeType: "application/json", buffer: Buffer.from(JSON.stringify(rows)) });
    await expect(page.getByTestId("toast").filter({ hasText: name })).toHaveText(`Loaded ${name}: 3 rows, 2 columns`);
    const summary = page.getByTestId("dataset-summary");
    await expect(summary).toContainText(name);
    await expect(summary).toContainText("3 rows");

    // The choice is the server's, not this page's memory.
    const stored = (await (await page.request.get("/api/v1/datasets")).json()) as { id: string; name: string; rowCount: number }[];
    const uploaded = stored.find((dataset) => dataset.name === name);
    expect(uploaded?.rowCount).toBe(3);
    await expect.poll(() => activeDatasetId(page)).toBe(uploaded!.id);

    await page.reload();
    await expect(page.getByTestId("dataset-summary")).toContainText(name);
    await expect(page.getByTestId("dataset-summary")).toContainText("3 rows");
    await page.getByRole("button", { name: `Preview ${name}` }).click();
    const table = page.getByTestId("dataset-preview-dialog").getByRole("table");
    await expect(table.getByRole("row").nth(2)).toHaveText(["2", "Kyoto", "Japan"].join(""));
  });

  test("the same file uploaded twice is kept once; the Upload pill's menu chooses, renames and deletes datasets", async ({ page }) => {
    test.setTimeout(60_000);
    const workbench = new WorkbenchPage(page);
    await openFreshWorkbench(page, { text: "Describe {{city}}." });
    const tag = uniqueName("menu").replaceAll(" ", "-");
    const first = `${tag}-a.csv`;
    const again = `${tag}-a-again.csv`;
    const other = `${tag}-b.csv`;
    const text = `city,note\n${tag} Paris,one\n${tag} Lyon,two\n${tag} Nice,three\n`;
    const toast = (name: string) => page.getByTestId("toast").filter({ hasText: name });

    await workbench.uploadInput.setInputFiles(csvFile(first, text));
    await expect(toast(first)).toHaveText(`Loaded ${first}: 3 rows, 2 columns`);
    await workbench.uploadInput.setInputFiles(csvFile(again, text));
    await expect(toast(again)).toHaveText(`${again} was stored already: using it (3 rows, 2 columns)`);
    await workbench.uploadInput.setInputFiles(csvFile(other, `city\n${tag} Oslo\n`));
    await expect(toast(other)).toHaveText(`Loaded ${other}: 1 row, 1 column`);
    await expect(page.getByTestId("dataset-summary")).toContainText(other);

    // One stored copy of the file, under the name it was last uploaded as.
    const listed = (await (await page.request.get("/api/v1/datasets")).json()) as { id: string; name: string }[];
    const mine = listed.filter((dataset) => dataset.name.startsWith(tag));
    expect(mine.map((dataset) => dataset.name).sort()).toEqual([again, other].sort());
    const againId = mine.find((dataset) => dataset.name === again)!.id;
    const otherId = mine.find((dataset) => dataset.name === other)!.id;

    // The menu on the Upload pill lists them, the active one ticked; choosing another loads it.
    await page.getByRole("button", { name: "Stored datasets" }).click();
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitemradio", { name: new RegExp(`^${other}`) })).toHaveAttribute("aria-checked", "true");
    await expect(menu.getByRole("menuitemradio", { name: new RegExp(`^${again}`) })).toContainText("3 rows");
    await saveScreenshot(page, "dataset-menu");
    await menu.getByRole("menuitemradio", { name: new RegExp(`^${again}`) }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByTestId("dataset-summary")).toContainText(again);
    await expect(page.getByTestId("dataset-summary")).toContainText("3 rows");
    await expect.poll(() => activeDatasetId(page)).toBe(againId);

    // Manage: rename the active one, delete the other (no run used it: gone for good).
    await page.getByRole("button", { name: "Stored datasets" }).click();
    await page.getByRole("menuitem", { name: "Manage datasets…" }).click();
    const dialog = page.getByTestId("manage-datasets-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: `Rename ${again}` }).click();
    const renamed = `${tag} cities (clean)`;
    await dialog.getByRole("textbox", { name: `New name for ${again}` }).fill(renamed);
    await dialog.getByRole("textbox", { name: `New name for ${again}` }).press("Enter");
    await expect(dialog.getByRole("button", { name: `Rename ${renamed}` })).toBeVisible();
    await expect(page.getByTestId("dataset-summary")).toContainText(renamed);
    await dialog.getByRole("button", { name: `Delete ${other}` }).click();
    await expect(dialog).toContainText(`Delete ${other}? A run that used it keeps it for its history.`);
    await saveScreenshot(page, "dataset-manage-delete");
    await dialog.getByRole("button", { name: `Yes, delete ${other}` }).click();
    await expect(dialog.getByText(other)).toHaveCount(0);
    expect((await page.request.get(`/api/v1/datasets/${otherId}`)).status()).toBe(404);

    // Deleting the active dataset leaves the workbench without one.
    await dialog.getByRole("button", { name: `Delete ${renamed}` }).click();
    await dialog.getByRole("button", { name: `Yes, delete ${renamed}` }).click();
    await expect(dialog.getByText(renamed)).toHaveCount(0);
    await expect(page.getByTestId("dataset-empty")).toBeVisible();
    await expect.poll(() => activeDatasetId(page)).toBeNull();
  });

  test("Detach leaves the workbench without a dataset, and a prompt without variables then runs once", async ({ page }) => {
    test.setTimeout(60_000);
    const workbench = new WorkbenchPage(page);
    const tag = uniqueName("detach");
    const { datasetId } = await openFreshWorkbench(page, {
      text: "Name a colour.",
      rows: [{ n: `${tag} 1` }, { n: `${tag} 2` }, { n: `${tag} 3` }],
      columns: [{ provider: "mock", model: "fast" }],
    });
    const summary = page.getByTestId("dataset-summary");
    await expect(summary).toContainText("3 rows");
    await summary.getByRole("button", { name: /^Detach / }).click();
    await expect(page.getByTestId("dataset-empty")).toContainText("runs once");
    await expect.poll(() => activeDatasetId(page)).toBeNull();
    await saveScreenshot(page, "dataset-detached");

    await workbench.runWithKeyboard();
    await workbench.expectDone(1);
    await expect(workbench.cell(1, "mock / fast")).toBeVisible();
    await expect(workbench.cell(2, "mock / fast")).toHaveCount(0);
    const runId = new URL(page.url()).searchParams.get("run");
    const run = (await (await page.request.get(`/api/v1/runs/${runId}`)).json()) as { datasetId: string | null; rowCount: number };
    // The spec's live run: one row, and no dataset stored for it.
    expect(run).toMatchObject({ datasetId: null, rowCount: 1 });
    await saveScreenshot(page, "dataset-detached-run");

    // Detached is the kept setup; the dataset itself stays stored, to be chosen again.
    await page.reload();
    await expect(page.getByTestId("dataset-empty")).toBeVisible();
    const listed = (await (await page.request.get("/api/v1/datasets")).json()) as { id: string }[];
    expect(listed.map((dataset) => dataset.id)).toContain(datasetId);
  });
});
