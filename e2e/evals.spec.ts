import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./helpers/axe";

// The /evals page as a person meets it: paste the spec's eval_summarizer config (a prompt file
// and an inline prompt) on a mock model, see a problem at its line, upload the prompt file, run,
// watch the grid fill, open a result, download an export, and reopen the eval from the list.

const SUMMARIZER_V1 = `name: summarizer_v1
description: "A custom prompt"
version: "1.0"
system: "You are a helpful assistant."
template: |
  Summarize this in {max_sentences} sentences:

  {text}
`;

// configs/eval_summarizer.yaml as the spec shows it, on the keyless mock model, with a second
// test case whose input holds markup (shown as text, never as HTML).
const CONFIG = `model: mock/echo
max_tokens: 256
temperature: 0.0
evaluation_threshold: 0.5  # Minimum score for tests to pass (0.0-1.0)

prompts:
  - ../prompts/summarizer_v1.yaml  # External reference
  - name: inline_prompt             # Inline definition
    template: "Summarize this in {max_sentences} sentences:\\n\\n{text}"

test_cases:
  - name: test1
    inputs: {text: "Python is a programming language.", max_sentences: 2}
    expected_contains: ["keyword"]
  - name: test2
    inputs: {text: "Rust is a <b>systems</b> language.", max_sentences: 1}
    expected_contains: ["Rust"]

metrics:
  - type: contains
  - type: response_length
    max_words: 100
`;

async function screenshots(page: Page, name: string) {
  for (const width of [1280, 1440]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 900 });
    await page.screenshot({ path: `test-results/evals-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Replaces the editor's text as a paste would. */
async function paste(page: Page, text: string) {
  const editor = page.getByRole("textbox", { name: "Eval config" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(text);
}

test.describe("evals page", () => {
  test("runs the spec's eval_summarizer from the browser: a problem at its line, the prompt file, the grid, a result, an export, the list", async ({
    page,
  }) => {
    await page.goto("/evals");
    await expect(page.getByRole("heading", { name: "Evals", level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Evals" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const run = page.getByRole("button", { name: "Run eval" });
    await expect(run).toBeDisabled();

    // A problem is named with its line and marked there in the editor, before anything runs.
    await paste(page, CONFIG.replace("temperature: 0.0", "temperature: hot"));
    const problems = page.getByRole("list", { name: "Problems in the config" });
    await expect(problems).toContainText("eval.yaml, line 3:");
    await expect(problems).toContainText("temperature");
    await expect(page.locator(".cm-lintRange-error")).toHaveCount(1);
    await expect(page.locator(".cm-line").nth(2).locator(".cm-lintRange-error")).toHaveCount(1);
    await expect(run).toBeDisabled();
    await screenshots(page, "problem");

    // Fixed: the prompt file it names is listed as missing until it is uploaded.
    await paste(page, CONFIG);
    await expect(problems).toHaveCount(0);
    await expect(page.getByText("2 prompts on 1 model over 2 test cases: 4 calls.")).toBeVisible();
    const named = page.getByRole("list", { name: "Prompt files the config names" });
    await expect(named).toContainText("../prompts/summarizer_v1.yaml");
    await expect(named).toContainText("Missing (line 7)");
    await expect(page.getByText("Upload ../prompts/summarizer_v1.yaml to run.")).toBeVisible();
    await expect(run).toBeDisabled();
    // Tab leaves the editor (it does not indent): a keyboard user is never trapped in it.
    await expect(page.getByRole("textbox", { name: "Eval config" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Prompt files", { exact: true })).toBeFocused();
    await page
      .getByLabel("Prompt files", { exact: true })
      .setInputFiles([{ name: "summarizer_v1.yaml", mimeType: "text/yaml", buffer: Buffer.from(SUMMARIZER_V1) }]);
    await expect(named).toContainText("Uploaded");
    await expect(run).toBeEnabled();
    await expectAccessible(page, "evals page, config ready");
    await screenshots(page, "ready");

    await run.click();
    await expect(page).toHaveURL(/\/evals\?id=[0-9a-f-]{36}$/);
    const evalUrl = page.url();
    const grid = page.getByRole("table", { name: /Results/ });
    await expect(grid.getByRole("columnheader", { name: /summarizer_v1/ })).toBeVisible();
    await expect(grid.getByRole("columnheader", { name: /inline_prompt/ })).toBeVisible();
    await expect(page.getByText(/^Done: 4 of 4 results/)).toBeVisible({ timeout: 30_000 });
    // test1 expects "keyword", which the echo lacks; test2 expects "Rust", which it holds.
    const test1 = grid.getByRole("row", { name: /test1/ });
    const test2 = grid.getByRole("row", { name: /test2/ });
    await expect(test1.getByRole("button")).toHaveCount(2);
    await expect(test1.getByRole("button").first()).toContainText("Fail");
    await expect(test1.getByRole("button").first()).toContainText("contains 0.00");
    await expect(test2.getByRole("button").first()).toContainText("Pass");
    await expect(test2.getByRole("button").first()).toContainText("response_length 1.00");
    await expect(grid.getByRole("columnheader", { name: /summarizer_v1/ })).toContainText("1 of 2 passed (50%)");
    await expectAccessible(page, "evals page, eval done");
    await screenshots(page, "done");

    // Open a result from the keyboard: its output as text, scores and figures; Escape closes it and focus returns.
    const cell = test2.getByRole("button", { name: /summarizer_v1 on mock\/echo: Pass/ });
    await cell.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "test2" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("summarizer_v1 on mock/echo");
    await expect(dialog).toContainText("Tokens in");
    await expect(dialog).toContainText("Cost");
    await expect(dialog.getByRole("row", { name: /contains/ })).toContainText("1.00");
    await expect(dialog).toContainText("Rust is a <b>systems</b> language.");
    await expect(dialog.locator("b")).toHaveCount(0);
    await expectAccessible(page, "evals page, result open");
    await screenshots(page, "result");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(cell).toBeFocused();

    // Download an export: the spec's name and the EvalRun's JSON.
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "JSON of summarizer_v1 on mock/echo" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^summarizer_v1_[0-9a-f]{8}_\d{8}_\d{6}\.json$/);
    const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
    expect(exported.prompt_name).toBe("summarizer_v1");
    expect(exported.results).toHaveLength(2);
    await expect(page.getByRole("link", { name: "comparison.md" })).toBeVisible();
    await expect(page.getByRole("link", { name: "JUnit XML (all runs)" })).toBeVisible();

    // Back to a new eval: the past eval is listed with its pass rates and reopens at its address.
    await page.getByRole("button", { name: "New eval" }).click();
    await expect(page).toHaveURL(/\/evals$/);
    const past = page.getByRole("region", { name: "Past evals" }).or(page.locator("section[aria-labelledby=past-evals-heading]"));
    const listed = past.getByRole("button", { name: /eval\.yaml/ }).first();
    await expect(listed).toContainText("summarizer_v1 · mock/echo: 50% passed");
    await listed.click();
    await expect(page).toHaveURL(evalUrl);
    await expect(page.getByText(/^Done: 4 of 4 results/)).toBeVisible();
    await page.goto(evalUrl);
    await expect(grid.getByRole("row", { name: /test2/ }).getByRole("button").first()).toContainText("Pass");
  });

  test("builds a config from a saved prompt and a dataset, then runs it", async ({ page, request }) => {
    const prompt = await request.post("/api/v1/prompts", {
      data: { name: "Brace keeper", text: 'Say {{topic}} as {"json": true}' },
    });
    expect(prompt.status()).toBe(201);
    const dataset = await request.post("/api/v1/datasets", {
      data: { name: "eval topics", rows: [{ topic: "Rust" }, { topic: "Go" }] },
    });
    expect(dataset.status()).toBe(201);

    await page.goto("/evals");
    await page.getByText("Build a config from saved prompts and a dataset").click();
    await page.getByRole("checkbox", { name: "Brace keeper" }).check();
    await page.getByLabel("Dataset").selectOption({ label: "eval topics (2 rows)" });
    await page.getByLabel("Model", { exact: true }).fill("mock/slow");
    await page.getByRole("button", { name: "Write the config into the editor" }).click();
    const editor = page.getByRole("textbox", { name: "Eval config" });
    await expect(editor).toContainText("model: mock/slow");
    await expect(editor).toContainText('Say {topic} as {{"json": true}}');
    await expect(page.getByText("1 prompt on 1 model over 2 test cases: 2 calls.")).toBeVisible();
    await screenshots(page, "built");

    await page.getByRole("button", { name: "Run eval" }).click();
    // The slow mock answers after about 2 s: the grid shows its rows pending, then fills in.
    const grid = page.getByRole("table", { name: /Results/ });
    await expect(grid.getByRole("row", { name: /row 2/ })).toContainText("Pending…");
    await expect(page.getByText(/^Running: /)).toBeVisible();
    await expect(page.getByText(/^Done: 2 of 2 results/)).toBeVisible({ timeout: 30_000 });
    await expect(grid.getByRole("row", { name: /row 1/ }).getByRole("button")).toContainText("Pass");
    await grid.getByRole("row", { name: /row 1/ }).getByRole("button").click();
    await expect(page.getByRole("dialog", { name: "row 1" })).toContainText('Say Rust as {"json": true}');
  });
  test("a judged result shows the judge's reasoning as text beside its score", async ({ page }) => {
    await page.goto("/evals");
    await paste(
      page,
      `model: mock/echo
prompts:
  - name: explainer
    template: "Explain {topic} in one line."
test_cases:
  - name: recursion
    inputs: {topic: recursion}
metrics:
  - type: llm_judge
    criteria: "Is it accurate? <i>Markup stays text.</i>"
`,
    );
    await page.getByRole("button", { name: "Run eval" }).click();
    await expect(page.getByText(/^Done: 1 of 1 results/)).toBeVisible({ timeout: 30_000 });
    const grid = page.getByRole("table", { name: /Results/ });
    await grid
      .getByRole("row", { name: /recursion/ })
      .getByRole("button")
      .click();
    const dialog = page.getByRole("dialog", { name: "recursion" });
    await expect(dialog.getByRole("row", { name: /llm_judge/ })).toBeVisible();
    const reasoning = dialog
      .getByRole("region", { name: "Judge's reasoning" })
      .or(dialog.locator("section", { hasText: "Judge's reasoning" }));
    await expect(reasoning).toContainText(/SCORE: [01](\.\d+)?/);
    await expect(dialog.locator("i")).toHaveCount(0);
    await expectAccessible(page, "evals page, judged result open");
    await screenshots(page, "judged");
  });
});
