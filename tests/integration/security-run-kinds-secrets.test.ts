// An attacker's review of the image batches, the secrets half: a key saved in Settings -> Keys
// (PUT /api/v1/keys/openai, bound to a local server speaking OpenAI's Images API) that the
// vendor answers with a 401 and a 500 whose texts echo the key back. Nothing the batch writes
// (run.json, receipts, every file of its folder), answers (detail, run.json, zip) or logs
// (console and stderr while it runs) may hold the key.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as zipRoute } from "@/app/api/v1/batches/[id]/download.zip/route";
import { GET as getRoute } from "@/app/api/v1/batches/[id]/route";
import { GET as manifestRoute } from "@/app/api/v1/batches/[id]/run.json/route";
import { POST as postBatch } from "@/app/api/v1/batches/route";
import { PUT as putKeyRoute } from "@/app/api/v1/keys/[provider]/route";
import { GET as listKeysRoute } from "@/app/api/v1/keys/route";
import type { BatchDetail, CreateBatchOutput } from "@/lib/api/batches";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createCredentialSource } from "@/lib/engine/credential-source";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createImageProviderRegistry, imageProviderFactories } from "@/lib/providers/image/registry";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createPgliteTestDatabase, waitFor, type TestDatabase } from "../helpers/databases";
import { startVendorServer, type VendorServer } from "../helpers/vendor-server";

const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };
const secretKey = Buffer.alloc(32, 9);
const KEY = "sk-test-IMAGE-SECRET-0000000000000000c0ffee";
const ORIGIN = "http://127.0.0.1:3000";
const params = <T extends Record<string, string>>(values: T) => ({ params: Promise.resolve(values) });

let test: TestDatabase;
let vendor: VendorServer;
let worker: Worker | null = null;
let dataDir: string;
const previousDataDir = process.env.PARALLAXR_DATA_DIR;
const logged: string[] = [];
const restores: Array<() => void> = [];

beforeAll(async () => {
  test = await createPgliteTestDatabase();
  vendor = await startVendorServer({ prefix: "/v1" });
  dataDir = mkdtempSync(join(tmpdir(), "parallaxr-security-secrets-"));
  process.env.PARALLAXR_DATA_DIR = dataDir;
  const credentials = createCredentialSource({ db: test.db, secretKey, env: {} });
  const providers = createProviderRegistry([createMockProvider()], { factories: providerFactories, credentials });
  const imageProviders = createImageProviderRegistry([], { factories: imageProviderFactories, credentials });
  contextStore.__parallaxrContext = Promise.resolve({
    db: test.db,
    providers,
    secretKey,
    access: readAccessConfig({}),
    worker: null,
  } as unknown as AppContext);
  worker = await startWorker({ db: test.db, providers, imageProviders, pollMs: 20 });
  // Everything written to the console or stderr while batches run, to look for the key in.
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => {
      logged.push(args.map((arg) => (arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg))).join(" "));
      original.apply(console, args as []);
    };
    restores.push(() => (console[method] = original));
  }
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    logged.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  restores.push(() => (process.stderr.write = write));
});
afterAll(async () => {
  for (const restore of restores) restore();
  await worker?.stop();
  contextStore.__parallaxrContext = undefined;
  await vendor.close();
  await test.drop();
  if (previousDataDir === undefined) delete process.env.PARALLAXR_DATA_DIR;
  else process.env.PARALLAXR_DATA_DIR = previousDataDir;
  rmSync(dataDir, { recursive: true, force: true });
});

const json = (path: string, body: unknown, method = "POST") =>
  new Request(`${ORIGIN}${path}`, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** Every file under dir, with its text. */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({ path: join(entry.parentPath, entry.name), text: readFileSync(join(entry.parentPath, entry.name), "latin1") }));
}

describe("a provider key through a failing image batch", () => {
  it("is saved write-only, and answered by its last four characters", async () => {
    const saved = await putKeyRoute(
      json("/api/v1/keys/openai", { apiKey: KEY, baseUrl: vendor.baseURL }, "PUT"),
      params({ provider: "openai" }),
    );
    expect(saved.status).toBe(200);
    const savedText = await saved.text();
    expect(savedText).not.toContain(KEY);
    expect(savedText).toContain("ffee");
    const listed = await (await listKeysRoute(new Request(`${ORIGIN}/api/v1/keys`))).text();
    expect(listed).not.toContain(KEY.slice(0, -4));
  });

  for (const [label, answer, expectedError] of [
    [
      "401 whose message echoes the key",
      {
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" } },
      },
      "auth: OpenAI rejected the key ending in ...ffee: check Settings -> Keys",
    ],
    [
      "500 whose HTML page echoes the key",
      { status: 500, headers: { "content-type": "text/html" }, body: `<html><body>upstream ${KEY} failed</body></html>` },
      "server: OpenAI had a server error (500)",
    ],
  ] as const) {
    it(`writes, answers and logs nothing holding the key after a ${label}`, async () => {
      vendor.reset();
      vendor.route("POST /v1/images/generations", answer);
      const response = await postBatch(
        json("/api/v1/batches", {
          prompts: { name: "prompts.txt", text: "a red kite\n" },
          matrix: {
            name: "matrix.yaml",
            text: "version: 1\nmatrix:\n  - provider: openai\n    model: gpt-image-1-mini\n    size: 1024x1024\n",
          },
        }),
      );
      const createdText = await response.text();
      expect(response.status, createdText).toBe(201);
      const { batch } = JSON.parse(createdText) as Extract<CreateBatchOutput, { batch: unknown }>;
      const detail = await waitFor(
        async () => {
          const current = (await (await getRoute(new Request(`${ORIGIN}/x`), params({ id: batch.id }))).json()) as BatchDetail;
          return ["completed", "failed", "cancelled"].includes(current.batch.status) &&
            current.jobs.every((job) => job.status !== "pending" && job.status !== "running")
            ? current
            : null;
        },
        { what: "the batch to end", timeoutMs: 60_000 },
      );
      // The key went to the vendor it was saved for, and the job failed on its answer.
      expect(vendor.requests.length).toBeGreaterThan(0);
      expect(vendor.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
      expect(detail.jobs.map((job) => job.status)).toEqual(["failed"]);
      expect(detail.jobs[0].error).toBe(expectedError);

      const answers = [
        createdText,
        JSON.stringify(detail),
        await (await manifestRoute(new Request(`${ORIGIN}/x`), params({ id: batch.id }))).text(),
        ...Object.values(
          unzipSync(new Uint8Array(await (await zipRoute(new Request(`${ORIGIN}/x`), params({ id: batch.id }))).arrayBuffer())),
        ).map((bytes) => strFromU8(bytes, true)),
      ];
      for (const text of answers) expect(text).not.toContain(KEY);
      const files = filesUnder(detail.batch.outDir);
      expect(files.some((file) => file.path.endsWith("run.json"))).toBe(true);
      for (const file of files) expect([file.path, file.text.includes(KEY)]).toEqual([file.path, false]);
      const cells = await test.db.query<{ row: string }>("select row_to_json(c)::text as row from run_cells c");
      for (const cell of cells.rows) expect(cell.row).not.toContain(KEY);
      for (const line of logged) expect(line).not.toContain(KEY);
    }, 90_000);
  }
});
