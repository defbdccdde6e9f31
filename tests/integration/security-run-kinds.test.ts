// An attacker's review of the new run kinds (image batches and matrix runs), each attack a real
// request: the request gate (proxy.ts, as Next.js runs it before any route) on every new POST,
// then the route handlers themselves on PGlite with the mock image and text models: oversized
// plans, paths that try to leave a run folder, a symlink planted in one, and another user's runs.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as actionRoute } from "@/app/api/v1/batches/[id]/[action]/route";
import { GET as zipRoute } from "@/app/api/v1/batches/[id]/download.zip/route";
import { GET as imageRoute } from "@/app/api/v1/batches/[id]/images/[file]/route";
import { GET as getRoute } from "@/app/api/v1/batches/[id]/route";
import { GET as manifestRoute } from "@/app/api/v1/batches/[id]/run.json/route";
import { GET as listBatchesRoute, POST as postBatch } from "@/app/api/v1/batches/route";
import { GET as comparisonRoute } from "@/app/api/v1/matrix/[id]/comparisons/[name]/route";
import { GET as matrixZipRoute } from "@/app/api/v1/matrix/[id]/download.zip/route";
import { GET as getMatrixRoute } from "@/app/api/v1/matrix/[id]/route";
import { GET as listMatrixRoute, POST as postMatrix } from "@/app/api/v1/matrix/route";
import type { BatchDetail, BatchSummary, CreateBatchOutput } from "@/lib/api/batches";
import { createBatchSchema } from "@/lib/api/batches";
import { createMatrixSchema, type MatrixDetail } from "@/lib/api/matrix";
import { readAccessConfig } from "@/lib/auth/access-config";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createBatch } from "@/lib/services/batches";
import { createMatrix } from "@/lib/services/matrix";
import { proxy } from "@/proxy";
import { userB, waitFor } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

const providers = createProviderRegistry([createMockProvider()]);
const engine = pgliteEngine(providers);
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };
let dataDir: string;
const previousDataDir = process.env.PARALLAXR_DATA_DIR;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "parallaxr-security-run-kinds-"));
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

const BATCH = {
  prompts: { name: "prompts.txt", text: "a red kite\na blue kite\n" },
  matrix: { name: "matrix.yaml", text: "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 32x32\n" },
};
const MATRIX = {
  prompts: [{ version: "v1", fileName: "v1.txt", text: "Summarize:\n\n{{input}}" }],
  models: ["mock/echo"],
  inputs: [{ id: "talk-01", text: "<img src=x onerror=alert(1)> a talk" }],
};
const ORIGIN = "http://127.0.0.1:3000";
const SOME_ID = "7d0c4b7e-3c1a-4c55-9d0e-0b7d8f1a2b3c";

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}${path}`, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });
const params = <T extends Record<string, string>>(values: T) => ({ params: Promise.resolve(values) });
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

/**
 * Passes the request through proxy.ts as Next.js does; a refusal there means no route ran. The
 * body's length goes in Content-Length as Node's server sees it on the wire, unless the request
 * says it is chunked (no length: proxy.ts counts the bytes as they come).
 */
function gate(path: string, init: { headers: Record<string, string>; body?: string }): Promise<Response> {
  const headers = { ...init.headers };
  if (init.body !== undefined && !("transfer-encoding" in headers)) headers["content-length"] = String(Buffer.byteLength(init.body));
  return proxy(new NextRequest(`${ORIGIN}${path}`, { method: "POST", headers, body: init.body }));
}

async function batchCount(): Promise<number> {
  const list = (await (await listBatchesRoute(new Request(`${ORIGIN}/api/v1/batches?limit=100`))).json()) as { batches: unknown[] };
  return list.batches.length;
}

describe("the request gate on every new POST", () => {
  const posts = [
    ["/api/v1/batches", BATCH],
    ["/api/v1/batches", { ...BATCH, dryRun: true }],
    [`/api/v1/batches/${SOME_ID}/pause`, {}],
    [`/api/v1/batches/${SOME_ID}/resume`, {}],
    [`/api/v1/batches/${SOME_ID}/cancel`, {}],
    ["/api/v1/matrix", MATRIX],
  ] as const;
  const same = { host: "127.0.0.1:3000", "content-type": "application/json" };

  it("refuses another origin, a cross-site fetch without Origin, a foreign Host, text/plain and an oversize body before any route runs", async () => {
    const before = await batchCount();
    for (const [path, body] of posts) {
      const text = JSON.stringify(body);
      const foreign = await gate(path, { headers: { ...same, origin: "https://attacker.example" }, body: text });
      expect([path, foreign.status, (await errorOf(foreign)).code]).toEqual([path, 403, "forbidden"]);
      const noOrigin = await gate(path, { headers: { ...same, "sec-fetch-site": "cross-site" }, body: text });
      expect([path, noOrigin.status]).toEqual([path, 403]);
      const rebound = await gate(path, {
        headers: { ...same, host: "rebind.attacker.example:3000", origin: "http://rebind.attacker.example:3000" },
        body: text,
      });
      expect([path, rebound.status]).toEqual([path, 421]);
      const plain = await gate(path, { headers: { ...same, origin: ORIGIN, "content-type": "text/plain" }, body: text });
      expect([path, plain.status]).toEqual([path, 415]);
      const huge = await gate(path, { headers: { ...same, origin: ORIGIN }, body: `{"x":"${"a".repeat(9 * 1024 * 1024)}"}` });
      expect([path, huge.status]).toEqual([path, 413]);
      expect((await errorOf(huge)).message).toContain(`the limit of POST ${path}`);
      const chunked = await gate(path, {
        headers: { ...same, origin: ORIGIN, "transfer-encoding": "chunked" },
        body: `{"x":"${"a".repeat(9 * 1024 * 1024)}"}`,
      });
      expect([path, chunked.status]).toEqual([path, 413]);
      // The same request from the page itself passes the gate (and would reach the route).
      const allowed = await gate(path, { headers: { ...same, origin: ORIGIN, "sec-fetch-site": "same-origin" }, body: text });
      expect([path, allowed.status, allowed.headers.get("x-middleware-next")]).toEqual([path, 200, "1"]);
    }
    expect(await batchCount()).toBe(before);
  });

  it("the route itself answers 413 to an oversize body it is handed directly (a 50 MB prompt file), creating nothing", async () => {
    const before = await batchCount();
    const started = performance.now();
    const big = await postBatch(
      json("/api/v1/batches", { ...BATCH, prompts: { name: "prompts.txt", text: "x".repeat(50 * 1024 * 1024) } }),
    );
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe("payload_too_large");
    const bigMatrix = await postMatrix(
      json("/api/v1/matrix", { ...MATRIX, prompts: [{ version: "v1", fileName: "v1.txt", text: "y".repeat(50 * 1024 * 1024) }] }),
    );
    expect(bigMatrix.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await batchCount()).toBe(before);
  }, 30_000);
});

describe("sizes refused before planning", () => {
  const matrixYaml = (lines: string) => ({
    name: "matrix.yaml",
    text: `version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n${lines}`,
  });
  const list = (count: number, value: (i: number) => string) => `[${Array.from({ length: count }, (_, i) => value(i)).join(", ")}]`;

  it("a matrix YAML that expands to millions of jobs: 400 naming the bound, in well under a second, nothing stored", async () => {
    const before = await batchCount();
    const yaml = matrixYaml(
      `    seed: ${list(1000, (i) => String(i))}\n    size: ${list(40, (i) => `${32 + i}x32`)}\n    output_format: [png, jpeg, webp]\n    provider_options:\n      mock_latency_ms: ${list(30, (i) => String(i))}\n`,
    );
    for (const dryRun of [true, false]) {
      const started = performance.now();
      const response = await postBatch(json("/api/v1/batches", { ...BATCH, matrix: yaml, dryRun }));
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toBe(
        "2 prompts x up to 3600000 combinations is 7200000 jobs, more than the 50000 allowed: narrow the matrix or use --prompt-range",
      );
    }
    expect(await batchCount()).toBe(before);
  });

  it("10,000 prompts x a 10-entry matrix (100,000 jobs): refused before a job is built", async () => {
    const prompts = { name: "prompts.txt", text: Array.from({ length: 10_000 }, (_, i) => `prompt number ${i}`).join("\n") };
    const started = performance.now();
    const response = await postBatch(
      json("/api/v1/batches", { ...BATCH, prompts, matrix: matrixYaml(`    seed: ${list(10, String)}\n`), dryRun: true }),
    );
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/100,?000 jobs?.*more than the 50,?000 allowed/s);
  });

  it("a huge n: 400 naming n, not a plan of a billion images", async () => {
    for (const n of ["1000000000", "1e9", "-1", "2.5"]) {
      const response = await postBatch(json("/api/v1/batches", { ...BATCH, matrix: matrixYaml(`    n: ${n}\n`), dryRun: true }));
      expect([n, response.status]).toEqual([n, 400]);
      expect((await errorOf(response)).message).toBe(
        "matrix.yaml, line 5, at matrix[0].n: n is the number of images a job makes: a whole number from 1 to 10",
      );
    }
  });

  it("provider_options nested 10,000 deep in the matrix YAML: 400, not a stack overflow or a 500", async () => {
    const deep = "{a: ".repeat(10_000) + "1" + "}".repeat(10_000);
    const started = performance.now();
    const response = await postBatch(
      json("/api/v1/batches", { ...BATCH, matrix: matrixYaml(`    provider_options: ${deep}\n`), dryRun: true }),
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(
      "matrix.yaml, line 5: not valid YAML or JSON (RESOURCE_EXHAUSTION): fix the syntax there",
    );
  }, 20_000);

  it("a matrix run of 100 prompt versions x 50 models x 1,000 inputs (5,000,000 evals): 413 before anything is stored", async () => {
    const body = {
      prompts: Array.from({ length: 100 }, (_, i) => ({ version: `v${i + 1}`, fileName: `v${i + 1}.txt`, text: `P${i} {{input}}` })),
      models: Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? "mock/echo" : "mock/fast")),
      inputs: Array.from({ length: 1_000 }, (_, i) => ({ id: `in-${i}`, text: `input ${i}` })),
    };
    const started = performance.now();
    const response = await postMatrix(json("/api/v1/matrix", body));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toMatch(
      /^This run would have 5,000,000 cells \(1,000 inputs x 5,000 prompt-version x model pairs x 1 trials\); the limit is 200,000 cells per run \(PARALLAXR_MAX_CELLS_PER_RUN\)\. Use fewer inputs, prompt versions or models/,
    );
    const listed = (await (await listMatrixRoute(new Request(`${ORIGIN}/api/v1/matrix`))).json()) as { matrices: unknown[] };
    expect(listed.matrices).toEqual([]);
  }, 20_000);
});

describe("a batch's files, as an attacker asks for them", () => {
  let detail: BatchDetail;
  let manifest: RunManifest;
  const image = (id: string, file: string) =>
    imageRoute(new Request(`${ORIGIN}/api/v1/batches/${id}/images/${encodeURIComponent(file)}`), params({ id, file }));

  beforeAll(async () => {
    const response = await postBatch(json("/api/v1/batches", BATCH));
    expect(response.status).toBe(201);
    const created = (await response.json()) as Extract<CreateBatchOutput, { batch: unknown }>;
    detail = await waitFor(
      async () => {
        const current = (await (
          await getRoute(new Request(`${ORIGIN}/api/v1/batches/${created.batch.id}`), params({ id: created.batch.id }))
        ).json()) as BatchDetail;
        return current.batch.status === "completed" ? current : null;
      },
      { what: "the batch to complete", timeoutMs: 30_000 },
    );
    manifest = (await (await manifestRoute(new Request(`${ORIGIN}/x`), params({ id: detail.batch.id }))).json()) as RunManifest;
  }, 40_000);

  it("answers 404 to names that leave the folder, absolute paths, a NUL byte and files it does not list", async () => {
    const { id, outDir } = detail.batch;
    const listed = manifest.jobs[0].artifacts.image_paths[0];
    expect((await image(id, listed)).status).toBe(200);
    writeFileSync(join(outDir, "planted.png"), "not listed");
    for (const name of [
      "..",
      "../run.json",
      `../${listed}`,
      "%2e%2e",
      "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
      "..%2f..%2fetc%2fpasswd",
      "/etc/passwd",
      join(outDir, listed),
      `${listed}\0.png`,
      `${listed}/.`,
      "run.json",
      "prompts.txt",
      "planted.png",
    ]) {
      const response = await image(id, name);
      expect([name, response.status]).toEqual([name, 404]);
      expect(await response.text()).not.toContain("root:");
    }
  });

  it("never serves or zips a symlink planted in the run folder under an artifact's name", async () => {
    const { id, outDir, runId } = detail.batch;
    const name = manifest.jobs[1].artifacts.image_paths[0];
    const receipt = manifest.jobs[1].artifacts.receipt_paths[0];
    const secret = join(dataDir, "outside-secret.txt");
    writeFileSync(secret, "root:x:0:0:the secret outside the run folder\n");
    unlinkSync(join(outDir, name));
    symlinkSync(secret, join(outDir, name));
    unlinkSync(join(outDir, receipt));
    symlinkSync("/etc/passwd", join(outDir, receipt));

    const served = await image(id, name);
    expect(served.status).toBe(404);
    expect(await served.text()).not.toContain("the secret outside");
    expect((await image(id, receipt)).status).toBe(404);

    const zipped = await zipRoute(new Request(`${ORIGIN}/zip`), params({ id }));
    expect(zipped.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zipped.arrayBuffer()));
    expect(Object.keys(files)).toContain(`${runId}/run.json`);
    expect(Object.keys(files)).not.toContain(`${runId}/${name}`);
    expect(Object.keys(files)).not.toContain(`${runId}/${receipt}`);
    for (const bytes of Object.values(files)) {
      const text = strFromU8(bytes, true);
      expect(text).not.toContain("the secret outside");
      expect(text).not.toContain("root:x:0:0");
    }
    expect(readFileSync(secret, "utf8")).toContain("the secret outside"); // untouched
  });

  it("resume never reads a symlink planted as the folder's prompt copy (it would send and show a file from outside)", async () => {
    const slow = {
      prompts: { name: "prompts.txt", text: "one kite\ntwo kites\n" },
      matrix: {
        name: "matrix.yaml",
        text: "version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: 32x32\n    provider_options:\n      mock_latency_ms: 300\n",
      },
      concurrency: 1,
    };
    const created = (await (await postBatch(json("/api/v1/batches", slow))).json()) as Extract<CreateBatchOutput, { batch: BatchSummary }>;
    const id = created.batch.id;
    const act = (action: string) => actionRoute(new Request(`${ORIGIN}/x`, { method: "POST" }), params({ id, action }));
    expect((await act("cancel")).status).toBe(200);
    const secret = join(dataDir, "resume-secret.txt");
    writeFileSync(secret, "SECRET-LINE-ONE\nSECRET-LINE-TWO\n");
    const copy = join(created.batch.outDir, "prompts.txt");
    unlinkSync(copy);
    symlinkSync(secret, copy);
    const resumed = await act("resume");
    expect(resumed.status).toBe(409);
    expect((await errorOf(resumed)).message).toBe(
      `Cannot resume: prompts.txt in ${created.batch.outDir} is missing or not a regular file (a symlink is not read).`,
    );
    const manifestText = await (await manifestRoute(new Request(`${ORIGIN}/x`), params({ id }))).text();
    expect(manifestText).not.toContain("SECRET-LINE");
  });

  it("answers 404 on every route for another user's batch, and acts on nothing of theirs", async () => {
    const theirs = await createBatch(engine.db, userB, createBatchSchema.parse(BATCH), { dataDir });
    const theirManifest = JSON.parse(readFileSync(join(theirs.outDir, "run.json"), "utf8")) as RunManifest;
    const theirName = theirManifest.jobs[0].artifacts.image_paths[0] ?? "x.png";
    expect((await getRoute(new Request(`${ORIGIN}/x`), params({ id: theirs.id }))).status).toBe(404);
    expect((await manifestRoute(new Request(`${ORIGIN}/x`), params({ id: theirs.id }))).status).toBe(404);
    expect((await zipRoute(new Request(`${ORIGIN}/x`), params({ id: theirs.id }))).status).toBe(404);
    expect((await image(theirs.id, theirName)).status).toBe(404);
    for (const action of ["pause", "resume", "cancel"]) {
      const response = await actionRoute(new Request(`${ORIGIN}/x`, { method: "POST" }), params({ id: theirs.id, action }));
      expect([action, response.status]).toEqual([action, 404]);
    }
    const ours = (await (await listBatchesRoute(new Request(`${ORIGIN}/api/v1/batches`))).json()) as { batches: BatchSummary[] };
    expect(ours.batches.map((batch) => batch.id)).not.toContain(theirs.id);
  });
});

describe("a matrix run's files, as an attacker asks for them", () => {
  it("comparison names that try to leave the folder and another user's matrix are 400 or 404, never a file", async () => {
    const response = await postMatrix(json("/api/v1/matrix", MATRIX));
    expect(response.status).toBe(201);
    const { matrix } = (await response.json()) as { matrix: { id: string } };
    await waitFor(
      async () => {
        const current = (await (await getMatrixRoute(new Request(`${ORIGIN}/x`), params({ id: matrix.id }))).json()) as MatrixDetail;
        return current.matrix.status === "completed" ? current : null;
      },
      { what: "the matrix to complete", timeoutMs: 20_000 },
    );
    for (const name of ["../../../etc/passwd", "..%2f..%2fetc%2fpasswd", "/etc/passwd", "index.md\0.md", "..", "../runs"]) {
      const answer = await comparisonRoute(new Request(`${ORIGIN}/x`), params({ id: matrix.id, name }));
      expect([name, [400, 404].includes(answer.status)]).toEqual([name, true]);
      expect(await answer.text()).not.toContain("root:");
    }
    const theirs = await createMatrix({ db: engine.db }, { userId: userB, input: createMatrixSchema.parse(MATRIX) });
    const theirId = "matrix" in theirs ? theirs.matrix.id : "";
    expect(theirId).not.toBe("");
    expect((await getMatrixRoute(new Request(`${ORIGIN}/x`), params({ id: theirId }))).status).toBe(404);
    expect((await matrixZipRoute(new Request(`${ORIGIN}/x`), params({ id: theirId }))).status).toBe(404);
    expect((await comparisonRoute(new Request(`${ORIGIN}/x`), params({ id: theirId, name: "index.md" }))).status).toBe(404);
  }, 30_000);
});

describe("names a caller chooses, as zip entries and folders", () => {
  it("a matrix whose model and prompt file names try to leave the folder: its zip has no entry that leaves it", async () => {
    const hostile = {
      prompts: [{ version: "v1", fileName: "../../../../tmp/evil.txt", text: "Say {{input}}" }],
      models: ["mock/../../../../tmp/evil", "mock/echo"],
      inputs: [{ id: "in-1", text: "hello" }],
    };
    const response = await postMatrix(json("/api/v1/matrix", hostile));
    // Accepted: the mock serves any model name, and a file name only picks the template syntax.
    expect(response.status).toBe(201);
    const { matrix } = (await response.json()) as { matrix: { id: string } };
    await waitFor(
      async () => {
        const current = (await (await getMatrixRoute(new Request(`${ORIGIN}/x`), params({ id: matrix.id }))).json()) as MatrixDetail;
        return ["completed", "failed"].includes(current.matrix.status) ? current : null;
      },
      { what: "the matrix to end", timeoutMs: 20_000 },
    );
    const zipped = await matrixZipRoute(new Request(`${ORIGIN}/x`), params({ id: matrix.id }));
    expect(zipped.status).toBe(200);
    const names = Object.keys(unzipSync(new Uint8Array(await zipped.arrayBuffer())));
    expect(names.length).toBeGreaterThan(0);
    expect(names.some((name) => name.includes("evil"))).toBe(true);
    for (const name of names) {
      expect([name, name.startsWith("/") || name.split(/[\\/]/).includes("..")]).toEqual([name, false]);
    }
  }, 30_000);

  it("batch file names that are paths, absolute or with a NUL byte: 400 naming the field", async () => {
    for (const name of ["/etc/passwd", "..\\..\\prompts.txt", "sub/prompts.txt", "prompts\u0000.txt", ".."]) {
      const response = await postBatch(json("/api/v1/batches", { ...BATCH, prompts: { name, text: "a kite" }, dryRun: true }));
      expect([name, response.status]).toEqual([name, 400]);
      expect((await errorOf(response)).message).toMatch(/^prompts\.name/);
    }
  });
});
