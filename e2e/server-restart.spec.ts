import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startTestServer, type TestServer } from "./helpers/server";

// The server is killed (SIGKILL, as a crash or a pulled plug would) in the middle of a run and
// started again on the same PGlite folder: the run finishes, and no cell that had finished is
// executed again. The mock appends each call it receives to a log file, so calls are counted
// where they land, across both server processes.
test("a run survives the server being killed and restarted, paying for no finished cell twice", async ({ page }) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-restart-"));
  const callLog = path.join(dataDir, "mock-calls.jsonl");
  const port = 3101;
  let server: TestServer | null = await startTestServer({ port, dataDir, extraEnv: { MOCK_CALL_LOG: callLog } });
  try {
    const created = await page.request.post(`${server.url}/api/v1/runs`, {
      data: {
        prompt: "Summarise {{topic}}",
        rows: Array.from({ length: 30 }, (_, n) => ({ topic: `topic ${n}` })),
        models: [{ provider: "mock", model: "echo", params: { latencyMs: 250, jitterMs: 100 } }],
        concurrency: 3,
      },
    });
    expect(created.status()).toBe(201);
    const runId = (await created.json()).id as string;
    await page.goto(`${server.url}/?run=${runId}`);
    const readRun = async () =>
      (await (await page.request.get(`${server!.url}/api/v1/runs/${runId}`)).json()) as {
        status: string;
        counts: Record<string, number>;
        cells: Array<{ row: number; status: string }>;
      };
    await expect.poll(async () => (await readRun()).counts.ok, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
    await page.screenshot({ path: "e2e-artifacts/restart-before-kill.png" });

    const before = await readRun();
    const finishedBefore = before.cells.filter((cell) => cell.status === "ok").map((cell) => cell.row);
    expect(before.status).toBe("running");
    await server.kill();
    server = null;

    server = await startTestServer({ port, dataDir, extraEnv: { MOCK_CALL_LOG: callLog } });
    await page.goto(`${server.url}/?run=${runId}`);
    await expect.poll(async () => (await readRun()).status, { timeout: 60_000 }).toBe("completed");
    const after = await readRun();
    expect(after.counts.ok).toBe(30);
    await expect(page.getByText(/30\s*\/\s*30/).first()).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: "e2e-artifacts/restart-after-finish.png" });

    const calls = readFileSync(callLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { prompt: string });
    const callsFor = (row: number) => calls.filter((call) => call.prompt === `Summarise topic ${row}`).length;
    for (const row of finishedBefore) expect(callsFor(row), `row ${row} finished before the kill`).toBe(1);
    for (let row = 0; row < 30; row++) expect(callsFor(row), `row ${row}`).toBeGreaterThanOrEqual(1);
    // at most the cells in flight at the kill (concurrency 3) were called a second time
    expect(calls.length).toBeLessThanOrEqual(30 + 3);
  } finally {
    await server?.kill();
  }
});
