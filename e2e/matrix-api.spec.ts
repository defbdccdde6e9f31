import { expect, test } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";

// The matrix API over real HTTP against the production server (issue 13): the request gate in
// front of it, a 2 x 2 x 2 matrix run by the server's worker on keyless mock models, and its
// files (summary.json, a comparison, the zip) as a client downloads them.

const BODY = {
  prompts: [
    { version: "v1", fileName: "v1.txt", text: "Summarize {{input_id}}:\n\n{{input}}" },
    { version: "v2", fileName: "v2.yaml", text: "name: summary\ntemplate: |\n  Key points:\n  {transcript}\n" },
  ],
  models: ["mock/fast", "mock/echo"],
  inputs: [
    { id: "tech-talk-01", text: "# Example Tech Talk\n\nCompilers." },
    { id: "interview-02", text: "An interview." },
  ],
};

test.describe("matrix API", () => {
  test("the request gate holds for POST /api/v1/matrix: another origin 403, text/plain 415, an unknown field 400", async ({ request }) => {
    const crossOrigin = await request.post("/api/v1/matrix", { headers: { origin: "http://evil.example" }, data: BODY });
    expect(crossOrigin.status()).toBe(403);
    const text = await request.post("/api/v1/matrix", { headers: { "content-type": "text/plain" }, data: JSON.stringify(BODY) });
    expect(text.status()).toBe(415);
    const unknown = await request.post("/api/v1/matrix", { data: { ...BODY, max_concurrent: 3 } });
    expect(unknown.status()).toBe(400);
    expect((await unknown.json()).error.message).toContain('unknown field "max_concurrent"');
  });

  test("a dry run, then a 2 x 2 x 2 matrix to its summary, comparisons and zip", async ({ request }) => {
    const dry = await request.post("/api/v1/matrix", { data: { ...BODY, dryRun: true } });
    expect(dry.status()).toBe(200);
    expect((await dry.json()).plan.evals).toBe(8);

    const created = await request.post("/api/v1/matrix", { data: BODY });
    expect(created.status()).toBe(201);
    const { matrix } = (await created.json()) as { matrix: { id: string; batchId: string } };
    await expect
      .poll(async () => (await (await request.get(`/api/v1/matrix/${matrix.id}`)).json()).matrix.status, { timeout: 30_000 })
      .toBe("completed");
    const detail = await (await request.get(`/api/v1/matrix/${matrix.id}`)).json();
    expect(detail.evals).toHaveLength(8);
    expect(detail.comparisons).toHaveLength(9);

    const summary = await request.get(`/api/v1/matrix/${matrix.id}/summary.json`);
    expect(summary.headers()["content-type"]).toContain("application/json");
    expect(await summary.json()).toMatchObject({ batch_id: matrix.batchId, total_runs: 8, successful_runs: 8, failed_runs: 0 });

    const name = detail.comparisons[1] as string;
    const comparison = await request.get(`/api/v1/matrix/${matrix.id}/comparisons/${name}.md`);
    expect(comparison.status()).toBe(200);
    expect(comparison.headers()["content-disposition"]).toContain("attachment");
    expect(await comparison.text()).toMatch(/^---\ncomparison_type: prompt_comparison\n/);
    expect((await request.get(`/api/v1/matrix/${matrix.id}/comparisons/..%2F..%2Fsecrets.md`)).status()).toBe(400);
    expect((await request.get(`/api/v1/matrix/${matrix.id}/comparisons/nothing.md`)).status()).toBe(404);

    const zip = await request.get(`/api/v1/matrix/${matrix.id}/download.zip`);
    expect(zip.headers()["content-type"]).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await zip.body()));
    expect(Object.keys(files).filter((file) => file.startsWith("runs/"))).toHaveLength(8);
    expect(strFromU8(files["comparisons/index.md"])).toContain(`](./${name}/comparison.md)`);
  });
});
