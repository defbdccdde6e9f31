import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBatchSchema, type CreateBatchInput } from "@/lib/api/batches";
import { InvalidInputError, NotFoundError } from "@/lib/engine/errors";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { createMockImageProvider, type MockImageProvider } from "@/lib/providers/image/mock";
import { createImageProviderRegistry, imageProviderFactories } from "@/lib/providers/image/registry";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import {
  batchImage,
  batchManifest,
  batchZip,
  changeBatchStatus,
  createBatch,
  getBatch,
  listBatches,
  planBatch,
  resumeBatch,
} from "@/lib/services/batches";
import { asUser } from "@/lib/db/as-user";
import { imageReceiptFile } from "@/lib/providers/image/receipt";
import { userA, userB, waitFor, type TestDatabase } from "../helpers/databases";
import { TEST_API_KEY, startVendorServer, type VendorServer } from "../helpers/vendor-server";

const MOCK_MATRIX = `version: 1
defaults:
  n: 1
  output_format: png
matrix:
  - provider: mock
    model: mock-image
    size: [64x64, 96x64]
    seed: [1, 2]
`;

const PROMPTS = "# food\nramen in steam\n\nsushi on slate\ntea in a glass\n";

/** run.json as it is on disk now, with the schema's problems (none when valid). */
function readManifest(dir: string): { manifest: RunManifest; problems: string[] } {
  const manifest = JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as RunManifest;
  return { manifest, problems: runManifestProblems(manifest) };
}

/** A local server speaking OpenAI's Images API: counts calls per prompt and in flight, answers each after delayMs. */
interface ImagesServer {
  vendor: VendorServer;
  calls: Map<string, number>;
  maxInFlight: number;
  /** Answers these prompts' first call with a 500. */
  failFirst: Set<string>;
}

async function startImagesServer(delayMs: number, image: string): Promise<ImagesServer> {
  const vendor = await startVendorServer({ prefix: "/v1" });
  const state: ImagesServer = { vendor, calls: new Map(), maxInFlight: 0, failFirst: new Set() };
  let inFlight = 0;
  vendor.route("POST /v1/images/generations", (request) => {
    const prompt = String((request.body as { prompt?: string }).prompt);
    const count = (state.calls.get(prompt) ?? 0) + 1;
    state.calls.set(prompt, count);
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    setTimeout(() => (inFlight -= 1), delayMs);
    if (state.failFirst.has(prompt) && count === 1) {
      return {
        status: 500,
        headers: { "retry-after": "0" },
        body: { error: { message: "The server had an error", type: "server_error" } },
        delayMs,
      };
    }
    return { body: { created: 1767726210, data: [{ b64_json: image }], output_format: "png", size: "1024x1024", quality: "low" }, delayMs };
  });
  return state;
}

/** Image batch runs on the engine, run against one kind of database. */
export function describeBatches(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`image batch runs on ${label}`, () => {
    let test: TestDatabase | null = null;
    let worker: Worker | null = null;
    let mock: MockImageProvider;
    let images: ImagesServer;
    let root: string;
    beforeAll(async () => {
      test = await create();
      root = mkdtempSync(join(tmpdir(), "parallaxr-batches-"));
      const png = (
        await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } })
          .png()
          .toBuffer()
      ).toString("base64");
      images = await startImagesServer(150, png);
      if (!test) return;
      mock = createMockImageProvider({ behaviour: { latencyMs: 30 } });
      const imageProviders = createImageProviderRegistry([mock], {
        factories: { openai: imageProviderFactories.openai },
        credentials: async () => ({ apiKey: TEST_API_KEY, baseURL: images.vendor.baseURL, allowPrivateAddresses: true }),
      });
      worker = await startWorker({ db: test.db, providers: createProviderRegistry([createMockProvider()]), imageProviders, pollMs: 20 });
    });
    afterAll(async () => {
      await worker?.stop();
      await test?.drop();
      await images?.vendor.close();
      rmSync(root, { recursive: true, force: true });
    });

    const input = (overrides: Partial<CreateBatchInput> = {}): CreateBatchInput =>
      createBatchSchema.parse({
        prompts: { name: "prompts.txt", text: PROMPTS },
        matrix: { name: "matrix.yaml", text: MOCK_MATRIX },
        ...overrides,
      });

    let folders = 0;
    const folder = () => join(root, `run-${++folders}`);

    /** Waits until run.json says the run ended, checking every version of it seen on the way against the schema. */
    async function watchToEnd(dir: string, seen: RunManifest[] = []): Promise<RunManifest> {
      return waitFor(
        () => {
          const { manifest, problems } = readManifest(dir);
          expect(problems).toEqual([]);
          if (seen.at(-1)?.summary.succeeded !== manifest.summary.succeeded) seen.push(manifest);
          return ["completed", "cancelled", "failed"].includes(manifest.status) ? manifest : null;
        },
        { timeoutMs: 60_000, intervalMs: 5, what: `run.json in ${dir} to say the run ended` },
      );
    }

    it("plans a batch (the dry run) and writes, stores and sends nothing", async (context) => {
      if (!test) return context.skip();
      const count = async () => (await test!.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n;
      const before = await count();
      const calls = mock.stats.calls;
      const plan = await planBatch(test.db, userA, input({ promptRange: "2-3" }));
      expect(plan).toMatchObject({
        prompt_count: 2,
        matrix_blocks: 1,
        combinations: 4,
        jobs: 8,
        images: 8,
        jobs_to_run: 8,
        estimated_cost_usd: 0,
        breakdown: [{ provider: "mock", model: "mock-image", jobs: 8, images: 8 }],
        limits: { concurrency: 3, provider_concurrency: {}, budget_usd: null, budget_mode: "estimate" },
      });
      expect(await count()).toBe(before);
      expect(mock.stats.calls).toBe(calls);
      await expect(planBatch(test.db, userA, input({ prompts: { name: "prompts.csv", text: "id,title\n1,x\n" } }))).rejects.toThrow(
        /prompts\.csv.*prompt/,
      );
      const bad = planBatch(test.db, userA, input({ matrix: { name: "matrix.yaml", text: "version: 2\nmatrix: []\n" } }));
      await expect(bad).rejects.toBeInstanceOf(InvalidInputError);
      await expect(bad).rejects.toThrow(/matrix\.yaml/);
    });

    it("runs a mock batch to the end: one image and receipt per job, run.json valid after every job and listing every file", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const created = await createBatch(test.db, userA, input(), { outDir: out });
      expect(created).toMatchObject({ runId: "run-" + folders, outDir: out, plan: { jobs: 12 } });
      const seen: RunManifest[] = [];
      const manifest = await watchToEnd(out, seen);
      // Seen on the way: run.json grew job by job (saves carry a few jobs each), each version valid.
      expect(seen.length).toBeGreaterThan(2);
      expect(manifest.status).toBe("completed");
      expect(manifest.summary).toMatchObject({ succeeded: 12, failed: 0, skipped: 0 });
      expect(manifest.inputs).toMatchObject({
        prompts_path: "prompts.txt",
        matrix_path: "matrix.yaml",
        prompt_count: 3,
        expanded_jobs: 12,
      });
      expect(manifest.jobs.map((job) => job.job_id)).toEqual(Array.from({ length: 12 }, (_, k) => `j-${String(k + 1).padStart(6, "0")}`));
      // Stable order: prompt by prompt, then the block's keys with the last fastest.
      expect(manifest.jobs.slice(0, 4).map((job) => [job.prompt_id, job.params.size, job.params.seed])).toEqual([
        ["p-0001", "64x64", 1],
        ["p-0001", "64x64", 2],
        ["p-0001", "96x64", 1],
        ["p-0001", "96x64", 2],
      ]);
      const files = readdirSync(out).sort();
      const listed = manifest.jobs.flatMap((job) => [...job.artifacts.image_paths, ...job.artifacts.receipt_paths]);
      expect(files).toEqual([...listed, "matrix.yaml", "prompts.txt", "run.json"].sort());
      for (const job of manifest.jobs) {
        expect(job.status).toBe("success");
        expect(job.attempts).toBe(1);
        expect(job.artifacts.image_paths).toHaveLength(1);
        expect(job.artifacts.image_paths[0]).toMatch(new RegExp(`^mock-\\d{8}T\\d{6}Z-${job.job_id}-00\\.png$`));
        expect(job.artifacts.receipt_paths).toEqual([`receipt-${job.artifacts.image_paths[0].replace(/\.png$/, "")}.json`]);
        const meta = await sharp(join(out, job.artifacts.image_paths[0])).metadata();
        expect([meta.format, `${meta.width}x${meta.height}`]).toEqual(["png", job.params.size]);
      }
      expect(readFileSync(join(out, "prompts.txt"), "utf8")).toBe(PROMPTS);
      // The API's view is the same run.json, and the summary panel's figures follow it.
      expect(await batchManifest(test.db, userA, created.id)).toEqual(manifest);
      const detail = await getBatch(test.db, userA, created.id, { limit: 5, offset: 10 });
      expect(detail.batch).toMatchObject({
        status: "completed",
        counts: { total: 12, success: 12, failed: 0, skipped: 0, pending: 0, running: 0 },
        images: 12,
        plannedImages: 12,
        estimatedCostUsd: 0,
        budgetRemainingUsd: null,
      });
      expect(detail.batch.elapsedSeconds).toBeGreaterThan(0);
      expect(detail.batch.jobsPerMinute).toBeGreaterThan(0);
      expect(detail.jobs.map((job) => job.job_id)).toEqual(["j-000011", "j-000012"]);
      expect(detail.jobsTotal).toBe(12);
      expect((await listBatches(test.db, userA)).map((batch) => batch.id)).toContain(created.id);
      expect((await listBatches(test.db, userB)).map((batch) => batch.id)).not.toContain(created.id);
    });

    it("refuses a folder that holds run.json, and writes an API run's folder under the data folder", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const first = await createBatch(test.db, userA, input({ prompts: { name: "one.txt", text: "a red cube\n" } }), { outDir: out });
      await watchToEnd(out);
      await expect(createBatch(test.db, userA, input(), { outDir: out })).rejects.toThrow(/run\.json exists: resume that run/);
      const dataDir = join(root, "data");
      const api = await createBatch(test.db, userA, input({ prompts: { name: "one.txt", text: "a blue cube\n" } }), { dataDir });
      expect(api.outDir.startsWith(join(dataDir, "batches") + "/")).toBe(true);
      expect(api.runId).toMatch(/^batch-\d{8}T\d{6}Z-[0-9a-f]{6}$/);
      const manifest = await watchToEnd(api.outDir);
      expect(manifest.run_id).toBe(api.runId);
      expect(first.id).not.toBe(api.id);
    });

    it("serves an image only to its owner and only by a name its artifacts list; the zip holds the folder", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const created = await createBatch(test.db, userA, input({ prompts: { name: "p.txt", text: "a lighthouse\n" } }), { outDir: out });
      const manifest = await watchToEnd(out);
      const name = manifest.jobs[0].artifacts.image_paths[0];
      const file = await batchImage(test.db, userA, created.id, name);
      expect(file.contentType).toBe("image/png");
      expect(Buffer.from(file.bytes).equals(readFileSync(join(out, name)))).toBe(true);
      const receipt = await batchImage(test.db, userA, created.id, manifest.jobs[0].artifacts.receipt_paths[0]);
      expect(JSON.parse(Buffer.from(receipt.bytes).toString("utf8"))).toMatchObject({ provider: "mock", model: "mock-image" });
      await expect(batchImage(test.db, userB, created.id, name)).rejects.toBeInstanceOf(NotFoundError);
      for (const other of [
        "run.json",
        "prompts.txt",
        "p.txt",
        `../${name}`,
        `..%2F${name}`,
        "../../etc/passwd",
        `./${name}`,
        `${name}/..`,
      ]) {
        await expect(batchImage(test.db, userA, created.id, other)).rejects.toBeInstanceOf(NotFoundError);
      }
      const zip = unzipSync((await batchZip(test.db, userA, created.id)).bytes);
      const runId = `run-${folders}`;
      expect(Object.keys(zip).sort()).toEqual(
        [
          `${runId}/run.json`,
          `${runId}/p.txt`,
          `${runId}/matrix.yaml`,
          ...manifest.jobs.flatMap((job) => [...job.artifacts.image_paths, ...job.artifacts.receipt_paths].map((n) => `${runId}/${n}`)),
        ].sort(),
      );
      expect(runManifestProblems(JSON.parse(strFromU8(zip[`${runId}/run.json`])))).toEqual([]);
      await expect(batchZip(test.db, userB, created.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(batchManifest(test.db, userB, created.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(getBatch(test.db, userB, created.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("retries a 500 from an OpenAI-format server once: exactly 2 calls, and the job succeeds with its receipt", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      images.failFirst.add("a retried teapot");
      const matrix =
        "version: 1\nmatrix:\n  - provider: openai\n    model: gpt-image-1-mini\n    size: 1024x1024\n    provider_options:\n      quality: low\n";
      await createBatch(
        test.db,
        userA,
        input({ prompts: { name: "t.txt", text: "a retried teapot\n" }, matrix: { name: "m.yaml", text: matrix } }),
        {
          outDir: out,
        },
      );
      const manifest = await watchToEnd(out);
      expect(images.calls.get("a retried teapot")).toBe(2);
      expect(manifest.jobs[0]).toMatchObject({ status: "success", attempts: 2, estimated_cost_usd: 0.005, error: null });
      const receipt = JSON.parse(readFileSync(join(out, manifest.jobs[0].artifacts.receipt_paths[0]), "utf8"));
      expect(receipt).toMatchObject({
        provider: "openai",
        model: "gpt-image-1-mini",
        request: { prompt: "a retried teapot", quality: "low" },
      });
      expect(JSON.stringify(receipt)).not.toContain("KEYMATERIAL");
    });

    it("holds the global and the per-provider caps, measured at the provider", async (context) => {
      if (!test) return context.skip();
      const mixed = `version: 1
matrix:
  - provider: openai
    model: gpt-image-1-mini
    size: 1024x1024
    seed: [1, 2, 3, 4]
    provider_options:
      quality: low
  - provider: mock
    model: mock-image
    size: 32x32
    seed: [1, 2, 3, 4]
    provider_options:
      mock_latency_ms: 150
`;
      images.maxInFlight = 0;
      const out = folder();
      const prompts = Array.from({ length: 6 }, (_, k) => `cap test ${k}`).join("\n");
      await createBatch(
        test.db,
        userA,
        input({
          prompts: { name: "caps.txt", text: prompts },
          matrix: { name: "caps.yaml", text: mixed },
          concurrency: 4,
          providerConcurrency: { openai: 2 },
        }),
        { outDir: out },
      );
      let maxRunning = 0;
      let maxOpenai = 0;
      await waitFor(
        async () => {
          const { rows } = await test!.db.query<{ provider: string; n: number }>(
            `select col.provider, count(*)::int as n from run_cells c join run_columns col on col.id = c.column_id join runs r on r.id = c.run_id
              where r.config -> 'batch' ->> 'outDir' = $1 and c.status = 'running' group by col.provider`,
            [out],
          );
          maxRunning = Math.max(
            maxRunning,
            rows.reduce((sum, row) => sum + row.n, 0),
          );
          maxOpenai = Math.max(maxOpenai, rows.find((row) => row.provider === "openai")?.n ?? 0);
          return readManifest(out).manifest.status === "completed";
        },
        { timeoutMs: 60_000, intervalMs: 5, what: "the capped batch to complete" },
      );
      expect(readManifest(out).manifest.summary.succeeded).toBe(48);
      expect(maxRunning).toBeLessThanOrEqual(4);
      expect(maxRunning).toBeGreaterThanOrEqual(3);
      expect(images.maxInFlight).toBeLessThanOrEqual(2);
      expect(images.maxInFlight).toBe(2);
      expect(maxOpenai).toBeLessThanOrEqual(2);
    });

    it("budget modes: estimate skips jobs past the budget in job order, strict skips unknown prices, off skips nothing; resume queues skipped jobs the budget then allows", async (context) => {
      if (!test) return context.skip();
      // gpt-image-1-mini 1024x1024 low is $0.005 a job; the unknown model has no price.
      const matrix = `version: 1
matrix:
  - provider: openai
    model: [gpt-image-1-mini, unpriced-image-model]
    size: 1024x1024
    provider_options:
      quality: low
`;
      const prompts = "budget one\nbudget two\nbudget three\n";
      const run = async (mode: "estimate" | "strict" | "off", budgetUsd: number | null) => {
        const out = folder();
        const created = await createBatch(
          test!.db,
          userA,
          input({ prompts: { name: "b.txt", text: prompts }, matrix: { name: "b.yaml", text: matrix }, budgetUsd, budgetMode: mode }),
          { outDir: out },
        );
        return { out, created, manifest: await watchToEnd(out) };
      };
      const statuses = (manifest: RunManifest) => manifest.jobs.map((job) => job.status);
      // estimate: unknown prices count as 0; $0.011 allows two priced jobs, the third (j-000005) and all after it are skipped.
      const estimate = await run("estimate", 0.011);
      expect(estimate.created.plan).toMatchObject({ jobs: 6, jobs_to_run: 4, skipped_for_budget: 2 });
      expect(statuses(estimate.manifest)).toEqual(["success", "success", "success", "success", "skipped", "skipped"]);
      expect(estimate.manifest.jobs[4].error).toMatch(/budget/);
      // strict: every unknown-price job skipped.
      const strict = await run("strict", 1);
      expect(statuses(strict.manifest)).toEqual(["success", "skipped", "success", "skipped", "success", "skipped"]);
      expect(strict.manifest.jobs[1].error).toMatch(/no known price/);
      // off: a budget of 0 stops nothing.
      const off = await run("off", 0);
      expect(statuses(off.manifest)).toEqual(Array(6).fill("success"));
      // Resume with a larger budget: the budget-skipped jobs run, the successes are not called again.
      const before = images.calls.get("budget one");
      await test!.db.query(`update runs set budget_usd = 1, config = jsonb_set(config, '{batch,limits,budget_usd}', '1') where id = $1`, [
        estimate.created.id,
      ]);
      const resumed = await resumeBatch(test!.db, userA, { outDir: estimate.out });
      expect(resumed).toMatchObject({ id: estimate.created.id, requeued: 2, recreated: false });
      const after = await watchToEnd(estimate.out);
      expect(statuses(after)).toEqual(Array(6).fill("success"));
      expect(images.calls.get("budget one")).toBe(before);
    });

    it("pauses, resumes and cancels a batch; cancel keeps the outputs and resume of the folder queues the rest", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const slow = MOCK_MATRIX.replace("seed: [1, 2]", "seed: [1, 2, 3]\n    provider_options:\n      mock_latency_ms: 150");
      const prompts = Array.from({ length: 8 }, (_, k) => `slow ${k}`).join("\n");
      const created = await createBatch(
        test.db,
        userA,
        input({ prompts: { name: "s.txt", text: prompts }, matrix: { name: "s.yaml", text: slow }, concurrency: 2 }),
        {
          outDir: out,
        },
      );
      await waitFor(() => readManifest(out).manifest.summary.succeeded >= 2, { what: "two jobs done" });
      const paused = await changeBatchStatus(test.db, userA, created.id, "pause");
      expect(paused.status).toBe("paused");
      expect(readManifest(out).manifest.status).toBe("paused");
      await changeBatchStatus(test.db, userA, created.id, "resume");
      await waitFor(() => readManifest(out).manifest.summary.succeeded >= 4, { what: "four jobs done" });
      const cancelled = await changeBatchStatus(test.db, userA, created.id, "cancel");
      expect(cancelled.status).toBe("cancelled");
      await expect(changeBatchStatus(test.db, userB, created.id, "pause")).rejects.toBeInstanceOf(NotFoundError);
      const stopped = await waitFor(() => {
        const { manifest } = readManifest(out);
        return manifest.status === "cancelled" && manifest.jobs.every((job) => job.status !== "running") ? manifest : null;
      });
      const kept = stopped.jobs.filter((job) => job.status === "success");
      expect(kept.length).toBeGreaterThanOrEqual(4);
      expect(kept.length).toBeLessThan(48);
      for (const job of kept) expect(existsSync(join(out, job.artifacts.image_paths[0]))).toBe(true);
      const resumed = await resumeBatch(test.db, userA, { outDir: out });
      expect(resumed.requeued).toBe(48 - kept.length);
      const done = await watchToEnd(out);
      expect(done.summary.succeeded).toBe(48);
      // The jobs done before the cancel kept their files and were not made again.
      for (const job of kept) expect(done.jobs.find((one) => one.job_id === job.job_id)!.artifacts).toEqual(job.artifacts);
      expect(readdirSync(out).filter((name) => name.endsWith(".png"))).toHaveLength(48);
    });

    it("keeps a batch's run, columns, cells, prompts and prompt version to its owner (RLS, both sides, every operation)", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const created = await createBatch(test.db, userA, input({ prompts: { name: "rls.txt", text: "a private prompt\n" } }), {
        outDir: out,
      });
      await watchToEnd(out);
      const { rows } = await test.db.query<{ dataset_id: string; prompt_version_id: string; column_id: string }>(
        "select r.dataset_id, r.prompt_version_id, c.id as column_id from runs r join run_columns c on c.run_id = r.id where r.id = $1 limit 1",
        [created.id],
      );
      const ids = { run: created.id, dataset: rows[0].dataset_id, version: rows[0].prompt_version_id, column: rows[0].column_id };
      const reads = [
        ["select id from runs where id = $1", ids.run],
        ["select id from run_columns where run_id = $1", ids.run],
        ["select id from run_cells where run_id = $1", ids.run],
        ["select id from datasets where id = $1", ids.dataset],
        ["select row_index from dataset_rows where dataset_id = $1", ids.dataset],
        ["select id from prompt_versions where id = $1", ids.version],
      ] as const;
      const writes = [
        ["update runs set name = 'mine now' where id = $1", ids.run],
        ["update run_cells set artifacts = null where run_id = $1", ids.run],
        ["update run_columns set label = 'x' where run_id = $1", ids.run],
        ["update dataset_rows set data = '{}' where dataset_id = $1", ids.dataset],
        ["delete from run_cells where run_id = $1", ids.run],
        ["delete from runs where id = $1", ids.run],
      ] as const;
      // The outsider sees nothing and changes nothing.
      await asUser(test.db, userB, async (tx) => {
        for (const [sql, id] of reads) expect((await tx.query(sql, [id])).rows, sql).toEqual([]);
        for (const [sql, id] of writes) expect((await tx.query(sql, [id])).rowCount, sql).toBe(0);
      });
      await expect(
        asUser(test.db, userB, (tx) =>
          tx.query("insert into run_cells (run_id, column_id, column_index, row_index, trial, variant) values ($1, $2, 0, 99, 0, 0)", [
            ids.run,
            ids.column,
          ]),
        ),
      ).rejects.toThrow(/row-level security|does not belong to this user/);
      const stillThere = await batchManifest(test.db, userA, created.id);
      expect(stillThere.jobs).toHaveLength(4);
      expect(stillThere.jobs[0].artifacts.image_paths).toHaveLength(1);
      // The owner reads and changes all of it (in a transaction rolled back, so the run stays as it was).
      await expect(
        asUser(test.db, userA, async (tx) => {
          for (const [sql, id] of reads) expect((await tx.query(sql, [id])).rows.length, sql).toBeGreaterThan(0);
          for (const [sql, id] of writes) expect((await tx.query(sql, [id])).rowCount, sql).toBeGreaterThan(0);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect((await batchManifest(test.db, userA, created.id)).jobs).toHaveLength(4);
    });

    it("settles a killed attempt's files: a whole set with matching receipts is the job's result (no call), a half set is deleted and the job called", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      mkdirSync(out, { recursive: true });
      const one = "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 16x16\n    output_format: png\n";
      // What a worker killed after writing j-000001's image and receipt (but before recording them) left.
      const made = await createMockImageProvider().generate({
        model: "mock-image",
        prompt: "left over one",
        size: "16x16",
        outputFormat: "png",
        signal: AbortSignal.timeout(5_000),
      });
      const whole = "mock-20260101T000000Z-j-000001-00.png";
      writeFileSync(join(out, whole), made.images[0].data);
      writeFileSync(join(out, `receipt-${whole.replace(/\.png$/, "")}.json`), JSON.stringify(imageReceiptFile(made, 0)));
      // And j-000002's image cut short, with no receipt.
      const half = "mock-20260101T000000Z-j-000002-00.png";
      writeFileSync(join(out, half), made.images[0].data.subarray(0, 10));
      const before = new Map(mock.stats.byFingerprint);
      const callsBefore = mock.stats.calls;
      await createBatch(
        test.db,
        userA,
        input({ prompts: { name: "left.txt", text: "left over one\nleft over two\n" }, matrix: { name: "one.yaml", text: one } }),
        {
          outDir: out,
        },
      );
      const manifest = await watchToEnd(out);
      expect(manifest.jobs.map((job) => job.status)).toEqual(["success", "success"]);
      expect(manifest.jobs[0].artifacts.image_paths).toEqual([whole]);
      expect(manifest.jobs[1].artifacts.image_paths[0]).not.toBe(half);
      expect(existsSync(join(out, half))).toBe(false);
      expect(mock.stats.calls - callsBefore).toBe(1);
      expect([...mock.stats.byFingerprint.keys()].filter((key) => !before.has(key))).toHaveLength(1);
      expect(readdirSync(out).filter((name) => name.endsWith(".png"))).toHaveLength(2);
    });

    it("says failed in run.json when the worker fails a batch whose planner stopped while it was planned", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const created = await createBatch(test.db, userA, input({ prompts: { name: "stuck.txt", text: "a stuck plan\n" } }), { outDir: out });
      await watchToEnd(out);
      // As if the process that planned it had died before queueing it, ten minutes ago.
      await test.db.query("update runs set status = 'planned', finished_at = null where id = $1", [created.id]);
      await test.db.query("update runs set updated_at = now() - interval '10 minutes' where id = $1", [created.id]);
      const failed = await waitFor(
        () => {
          const { manifest, problems } = readManifest(out);
          expect(problems).toEqual([]);
          return manifest.status === "failed" ? manifest : null;
        },
        { timeoutMs: 20_000, what: "run.json to say failed" },
      );
      expect(failed.completed_at).not.toBeNull();
      expect(failed.summary.succeeded).toBe(4);
    });

    it("re-makes a run from its folder's run.json on a database that has none of it, keeping the successes", async (context) => {
      if (!test) return context.skip();
      const out = folder();
      const created = await createBatch(test.db, userA, input({ prompts: { name: "r.txt", text: "remade one\nremade two\n" } }), {
        outDir: out,
      });
      const first = await watchToEnd(out);
      // Forget the run, as another machine's database would not have it; and fail two jobs in run.json.
      await test.db.query("delete from runs where id = $1", [created.id]);
      const calls = mock.stats.calls;
      const resumed = await resumeBatch(test.db, userA, { outDir: out });
      expect(resumed).toMatchObject({ recreated: true, requeued: 0, runId: `run-${folders}` });
      expect(resumed.id).not.toBe(created.id);
      const again = await watchToEnd(out);
      expect(again.jobs.map((job) => [job.status, job.artifacts])).toEqual(first.jobs.map((job) => [job.status, job.artifacts]));
      expect(again.created_at).toBe(first.created_at);
      expect(mock.stats.calls).toBe(calls);
    });
  });
}
