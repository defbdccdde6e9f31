import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as actionRoute } from "@/app/api/v1/batches/[id]/[action]/route";
import { GET as zipRoute } from "@/app/api/v1/batches/[id]/download.zip/route";
import { GET as imageRoute } from "@/app/api/v1/batches/[id]/images/[file]/route";
import { GET as getRoute } from "@/app/api/v1/batches/[id]/route";
import { GET as manifestRoute } from "@/app/api/v1/batches/[id]/run.json/route";
import { GET as listRoute, POST as postRoute } from "@/app/api/v1/batches/route";
import type { BatchDetail, BatchSummary, CreateBatchOutput } from "@/lib/api/batches";
import { createBatchSchema } from "@/lib/api/batches";
import { readAccessConfig } from "@/lib/auth/access-config";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createBatch } from "@/lib/services/batches";
import { userB, waitFor } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

// The image batch API (issue 14) through its route handlers, keyless on the mock image model:
// a dry run, a batch to the end, its run.json, images, zip and actions, and what a wrong or
// hostile request gets.

const providers = createProviderRegistry([createMockProvider()]);
const engine = pgliteEngine(providers);
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };
let dataDir: string;
const previousDataDir = process.env.PARALLAXR_DATA_DIR;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "parallaxr-batches-api-"));
  process.env.PARALLAXR_DATA_DIR = dataDir;
  contextStore.__parallaxrContext = Promise.resolve({
    db: engine.db,
    providers,
    access: readAccessConfig({}),
    worker: null,
  } as unknown as AppContext);
});
afterAll(() => {
  contextStore.__parallaxrContext = undefined;
  if (previousDataDir === undefined) delete process.env.PARALLAXR_DATA_DIR;
  else process.env.PARALLAXR_DATA_DIR = previousDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

const BODY = {
  prompts: { name: "prompts.txt", text: "a red kite\na blue kite\n" },
  matrix: {
    name: "matrix.yaml",
    text: "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: [32x32, 48x32]\n    output_format: jpeg\n",
  },
};

const post = (body: unknown) => postRoute(new Request("http://test/api/v1/batches", { method: "POST", body: JSON.stringify(body) }));
const params = <T extends Record<string, string>>(values: T) => ({ params: Promise.resolve(values) });
const get = (id: string, query = "") => getRoute(new Request(`http://test/api/v1/batches/${id}${query}`), params({ id }));
const image = (id: string, file: string) =>
  imageRoute(new Request(`http://test/api/v1/batches/${id}/images/${encodeURIComponent(file)}`), params({ id, file }));

async function runToEnd(): Promise<BatchDetail> {
  const response = await post(BODY);
  expect(response.status).toBe(201);
  const created = (await response.json()) as Extract<CreateBatchOutput, { batch: unknown }>;
  expect(created.plan).toMatchObject({ jobs: 4, images: 4 });
  return waitFor(
    async () => {
      const detail = (await (await get(created.batch.id)).json()) as BatchDetail;
      return detail.batch.status === "completed" ? detail : null;
    },
    { what: "the batch to complete", timeoutMs: 30_000 },
  );
}

describe("the image batch API", () => {
  it("answers a dry run with the plan (200) and creates nothing", async () => {
    const response = await post({ ...BODY, dryRun: true, budgetUsd: 5, budgetMode: "strict" });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as CreateBatchOutput;
    expect(answer).toMatchObject({
      dryRun: true,
      plan: { prompt_count: 2, combinations: 2, jobs: 4, images: 4, limits: { budget_usd: 5, budget_mode: "strict", concurrency: 3 } },
    });
    const list = (await (await listRoute(new Request("http://test/api/v1/batches"))).json()) as { batches: BatchSummary[] };
    expect(list.batches).toEqual([]);
  });

  it("runs a batch into a folder under the data folder; GET, run.json, images and the zip follow it", async () => {
    const detail = await runToEnd();
    const { batch } = detail;
    expect(batch.outDir.startsWith(join(dataDir, "batches"))).toBe(true);
    expect(batch.counts).toEqual({ total: 4, pending: 0, running: 0, success: 4, failed: 0, skipped: 0 });
    expect(detail.jobs.map((job) => job.status)).toEqual(["success", "success", "success", "success"]);

    const manifestResponse = await manifestRoute(new Request(`http://test/api/v1/batches/${batch.id}/run.json`), params({ id: batch.id }));
    expect(manifestResponse.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const manifest = (await manifestResponse.json()) as RunManifest;
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest.run_id).toBe(batch.runId);

    const name = manifest.jobs[1].artifacts.image_paths[0];
    expect(name).toMatch(/^mock-\d{8}T\d{6}Z-j-000002-00\.jpg$/);
    const answer = await image(batch.id, name);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/jpeg");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const meta = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 48, 32]);
    for (const other of ["run.json", "prompts.txt", `../${name}`, "..", "%2e%2e%2fetc%2fpasswd"]) {
      expect((await image(batch.id, other)).status).toBe(404);
    }

    const zip = unzipSync(new Uint8Array(await (await zipRoute(new Request("http://test/zip"), params({ id: batch.id }))).arrayBuffer()));
    expect(Object.keys(zip)).toContain(`${batch.runId}/run.json`);
    expect(Object.keys(zip)).toContain(`${batch.runId}/${name}`);
    expect(JSON.parse(strFromU8(zip[`${batch.runId}/run.json`])).jobs).toHaveLength(4);

    const page = (await (await get(batch.id, "?offset=1&limit=2&status=success")).json()) as BatchDetail;
    expect(page.jobs.map((job) => job.job_id)).toEqual(["j-000002", "j-000003"]);
    expect(page.jobsTotal).toBe(4);
  });

  it("answers 404 for another user's batch on every route, and 400 for a bad id, a bad limit or an unknown field", async () => {
    const theirs = await createBatch(engine.db, userB, createBatchSchema.parse(BODY), { dataDir });
    expect((await get(theirs.id)).status).toBe(404);
    expect((await manifestRoute(new Request("http://test/x"), params({ id: theirs.id }))).status).toBe(404);
    expect((await zipRoute(new Request("http://test/x"), params({ id: theirs.id }))).status).toBe(404);
    expect((await image(theirs.id, "anything.png")).status).toBe(404);
    expect((await actionRoute(new Request("http://test/x", { method: "POST" }), params({ id: theirs.id, action: "cancel" }))).status).toBe(
      404,
    );
    expect((await get("not-a-uuid")).status).toBe(400);
    expect((await get(theirs.id, "?limit=100000")).status).toBe(400);
    const unknown = await post({ ...BODY, budget_usd: 3 });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('did you mean \\"budgetUsd\\"');
    const pathName = await post({ ...BODY, prompts: { name: "../../etc/prompts.txt", text: "x" } });
    expect(pathName.status).toBe(400);
    const badMatrix = await post({ ...BODY, matrix: { name: "matrix.yaml", text: "version: 1\nmatrix:\n  - model: x\n" } });
    expect(badMatrix.status).toBe(400);
    expect(await badMatrix.text()).toMatch(/matrix\.yaml/);
  });

  it("pauses and cancels a batch (409 for an action that does not apply), keeping its outputs", async () => {
    const slow = {
      ...BODY,
      matrix: {
        name: "slow.yaml",
        text: "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 32x32\n    seed: [1, 2, 3, 4, 5, 6]\n    provider_options:\n      mock_latency_ms: 200\n",
      },
      concurrency: 1,
    };
    const created = (await (await post(slow)).json()) as Extract<CreateBatchOutput, { batch: unknown }>;
    const id = created.batch.id;
    const action = (name: string) =>
      actionRoute(new Request(`http://test/api/v1/batches/${id}/${name}`, { method: "POST" }), params({ id, action: name }));
    const paused = await action("pause");
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as BatchSummary).status).toBe("paused");
    expect((await action("pause")).status).toBe(409);
    const cancelled = await action("cancel");
    expect(((await cancelled.json()) as BatchSummary).status).toBe("cancelled");
    expect((await action("cancel")).status).toBe(409);
    expect((await action("explode")).status).toBe(400);
  });
});
