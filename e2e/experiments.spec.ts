import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { expectAccessible } from "./helpers/axe";
import { saveScreenshot } from "./workbench-page";

// The experiments page as a person meets it: choose the files, see the document with its
// variables marked, run, watch rows fill in (an error row among them), download the output CSV.

const prompt = {
  name: "prompt.txt",
  mimeType: "text/plain",
  buffer: Buffer.from("Summarize the following from {{source}}:\n\nThe topic is {{topic}}. {{tone}}\n"),
};
const context = { name: "context.txt", mimeType: "text/plain", buffer: Buffer.from("Additional context: a test of the system.\n") };
const csv = {
  name: "experiments.csv",
  mimeType: "text/csv",
  buffer: Buffer.from("provider,model,source,topic\nmock,echo,Wikipedia,AI\nmock,slow,Encyclopedia,ML\nnowhere,x,Database,NLP\n"),
};

test.describe("experiments page", () => {
  test("runs an experiments CSV from the browser: live rows, an error row, the output CSV", async ({ page }) => {
    await page.goto("/experiments");
    await expect(page.getByRole("heading", { name: "Experiments", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Experiments" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const run = page.getByRole("button", { name: "Run experiments" });
    await expect(run).toBeDisabled();
    await expect(page.getByText("Choose a prompt file and an experiments CSV to run.")).toBeVisible();
    await expectAccessible(page, "experiments page, empty");

    await page.getByLabel("Prompt file").setInputFiles(prompt);
    await page.getByLabel("Context files").setInputFiles(context);
    await page.getByLabel("Experiments CSV").setInputFiles(csv);
    await expect(page.getByText("3 experiments on 3 models.")).toBeVisible();
    const preview = page.getByLabel("Document preview");
    await expect(preview).toContainText("## Document: prompt.txt");
    await expect(preview).toContainText("## Document: context.txt");
    await expect(preview.locator("mark", { hasText: "{{source}}" })).toHaveClass(/accent/);
    await expect(preview.locator("mark", { hasText: "{{tone}}" })).toHaveClass(/amber/);
    await expect(page.getByText("No column fills {{tone}}")).toBeVisible();
    await saveScreenshot(page, "experiments-ready");
    await expectAccessible(page, "experiments page, files chosen");

    await run.click();
    await expect(page).toHaveURL(/\/experiments\?id=[0-9a-f-]{36}$/);
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows).toHaveCount(4);
    // the slow mock row is still running while the first has finished: rows fill in live
    await expect(rows.nth(2)).toContainText("running…");
    await saveScreenshot(page, "experiments-running");
    await expect(page.getByText(/^Done: 3 of 3 rows/)).toBeVisible({ timeout: 20_000 });
    await expect(rows.nth(1)).toContainText("warning");
    await expect(rows.nth(1)).toContainText("Variable {{tone}} in template has no value in experiment row 1");
    await expect(rows.nth(1)).toContainText("MOCK RESPONSE");
    await expect(rows.nth(3)).toContainText("error");
    await expect(rows.nth(3)).toContainText("Unknown provider nowhere");
    await saveScreenshot(page, "experiments-done");
    await expectAccessible(page, "experiments page, a finished run");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /Download output CSV/ }).click()]);
    expect(download.suggestedFilename()).toBe("experiments-results.csv");
    const text = readFileSync(await download.path(), "utf8");
    expect(text.split("\r\n")[0]).toBe("provider,model,source,topic,status,input_tokens,context_window,output_tokens,output,error_message");
    expect(text).toContain("\r\nnowhere,x,Database,NLP,error,");
    // the same bytes as the API's file, which `parallaxr run` writes too
    const id = new URL(page.url()).searchParams.get("id")!;
    expect(await (await page.request.get(`/api/v1/experiments/${id}/output.csv`)).text()).toBe(text);

    // back to a new experiment; the run is listed and reopens
    await page.getByRole("button", { name: "New experiment" }).click();
    const past = page.getByRole("region", { name: "Past experiments" });
    await past
      .getByRole("button", { name: /experiments\.csv/ })
      .first()
      .click();
    await expect(page.getByText(/^Done: 3 of 3 rows/)).toBeVisible();
  });

  test("says which line of a broken CSV is wrong before anything runs", async ({ page }) => {
    await page.goto("/experiments");
    await page.getByLabel("Prompt file").setInputFiles(prompt);
    await page.getByLabel("Experiments CSV").setInputFiles({ ...csv, buffer: Buffer.from("provider,source\nmock,x\n") });
    await expect(page.getByRole("alert").filter({ hasText: "experiments.csv" })).toContainText(
      'experiments.csv, line 1: the header has no "model" column',
    );
    await expect(page.getByRole("button", { name: "Run experiments" })).toBeDisabled();
    await saveScreenshot(page, "experiments-bad-csv");
  });
});
