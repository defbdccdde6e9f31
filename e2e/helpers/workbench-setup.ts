// Sets the workbench up through the API before a test opens it, so each test starts from a known
// prompt, dataset, grader and columns however the tests before it left the (shared) server.
import { expect, type APIRequestContext, type Page } from "@playwright/test";

export type PromptInfo = { id: string; name: string; type: "generator" | "grader"; text: string; versionCounter: number };
export type ColumnSetup = { provider: string; model: string; params?: Record<string, unknown> };

let counter = 0;
/** A name no other test uses, so lists and menus find exactly this prompt. */
export function uniqueName(base: string): string {
  counter += 1;
  return `${base} ${Date.now().toString(36)}${counter}`;
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<T> {
  expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

export async function createPrompt(
  request: APIRequestContext,
  input: { name?: string; text: string; type?: "generator" | "grader" },
): Promise<PromptInfo> {
  return ok(
    await request.post("/api/v1/prompts", {
      data: {
        name: input.name ?? uniqueName(input.type === "grader" ? "Grader" : "Prompt"),
        text: input.text,
        type: input.type ?? "generator",
      },
    }),
  );
}

export async function getPrompt(request: APIRequestContext, id: string): Promise<PromptInfo> {
  return ok(await request.get(`/api/v1/prompts/${id}`));
}

export async function createDataset(request: APIRequestContext, name: string, rows: Record<string, string>[]): Promise<{ id: string }> {
  return ok(await request.post("/api/v1/datasets", { data: { name, rows } }));
}

/** Points the workbench at these; a field left out is reset (no dataset, no grader, one echo column). */
export async function setWorkbench(
  request: APIRequestContext,
  setup: { activePromptId: string; datasetId?: string | null; graderPromptId?: string | null; columns?: ColumnSetup[] },
): Promise<void> {
  await ok(
    await request.patch("/api/v1/workbench", {
      data: {
        activePromptId: setup.activePromptId,
        datasetId: setup.datasetId ?? null,
        graderPromptId: setup.graderPromptId ?? null,
        columns: (setup.columns ?? [{ provider: "mock", model: "echo" }]).map((column) => ({ params: {}, ...column })),
      },
    }),
  );
}

/** Seeds the first-visit examples (once per user), so a seed never lands in the middle of a test. */
export async function seedExamples(request: APIRequestContext): Promise<void> {
  await ok(await request.post("/api/v1/seed"));
}

/** Waits until the workbench has loaded its dataset and columns: before that, Run is disabled. */
export async function waitForSetup(page: Page): Promise<void> {
  await expect(page.getByRole("main")).toHaveAttribute("aria-busy", "false");
}

/**
 * A workbench with a new prompt of this text, optionally a dataset, a grader and columns, opened
 * in the page. Seeds first (as a first visit would) so the seed never lands in the middle of a test.
 */
export async function openFreshWorkbench(
  page: Page,
  options: {
    text: string;
    rows?: Record<string, string>[];
    datasetName?: string;
    grader?: string;
    columns?: ColumnSetup[];
    query?: string;
  },
): Promise<{ prompt: PromptInfo; grader: PromptInfo | null; datasetId: string | null }> {
  const request = page.request;
  await seedExamples(request);
  const prompt = await createPrompt(request, { text: options.text });
  const grader = options.grader ? await createPrompt(request, { text: options.grader, type: "grader" }) : null;
  const dataset = options.rows ? await createDataset(request, options.datasetName ?? uniqueName("rows") + ".csv", options.rows) : null;
  await setWorkbench(request, {
    activePromptId: prompt.id,
    datasetId: dataset?.id ?? null,
    graderPromptId: grader?.id ?? null,
    columns: options.columns,
  });
  await page.goto(`/${options.query ?? ""}`);
  await expect(page.getByTestId("prompt-name")).toHaveText(prompt.name);
  await waitForSetup(page);
  return { prompt, grader, datasetId: dataset?.id ?? null };
}
