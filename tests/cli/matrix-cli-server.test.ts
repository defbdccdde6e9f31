import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getDownload } from "@/app/api/v1/matrix/[id]/download.zip/route";
import { GET as getMatrixRoute } from "@/app/api/v1/matrix/[id]/route";
import { GET as listMatrixRoute, POST as postMatrix } from "@/app/api/v1/matrix/route";
import { POST as runAction } from "@/app/api/v1/runs/[id]/[action]/route";
import { localUserId } from "@/lib/auth/local-user";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { listMatrices, matrixZip } from "@/lib/services/matrix";
import { pgliteEngine } from "../helpers/engine";
import { type ReceivedRequest, type ServedRoute, serveRouteHandlers } from "../helpers/serve-route-handlers";

// `parallaxr matrix --server URL --token TOKEN` (issue 13) as a subprocess from a directory
// outside the repository, against the matrix routes themselves served over HTTP by this test (the
// app's handlers, its worker running the cells on PGlite): the data folder's files sent as texts,
// the batch followed, its folder written from the server's download.zip byte for byte, and
// --resume finding the batch by its id through GET /api/v1/matrix?batchId=. Next's own server
// (its proxy's origin and size checks) is not in this path; the routes' gate (token, schemas) is.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-server-cwd-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-server-data-"));
const CONTROL_TOKEN = "control-token-for-this-test-0123456789";

const providers = createProviderRegistry([createMockProvider()]);
const engine = pgliteEngine(providers);
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

const routes: ServedRoute[] = [
  ["POST", /^\/api\/v1\/matrix$/, [], postMatrix],
  ["GET", /^\/api\/v1\/matrix$/, [], listMatrixRoute],
  ["GET", /^\/api\/v1\/matrix\/([^/]+)\/download\.zip$/, ["id"], getDownload],
  ["GET", /^\/api\/v1\/matrix\/([^/]+)$/, ["id"], getMatrixRoute],
  ["POST", /^\/api\/v1\/runs\/([^/]+)\/([^/]+)$/, ["id", "action"], runAction],
];
let served: Awaited<ReturnType<typeof serveRouteHandlers>>;
let received: ReceivedRequest[];
let url: string;

beforeAll(async () => {
  contextStore.__parallaxrContext = Promise.resolve({
    db: engine.db,
    providers,
    access: readAccessConfig({}),
    worker: null,
    controlToken: CONTROL_TOKEN,
  } as unknown as AppContext);
  served = await serveRouteHandlers(routes);
  ({ url, received } = served);
  const data = path.join(workDir, "data", "evals");
  mkdirSync(path.join(data, "prompts"), { recursive: true });
  mkdirSync(path.join(data, "inputs"), { recursive: true });
  writeFileSync(path.join(data, "prompts", "v1.txt"), "Summarize {{input_id}}:\n\n{{input}}\n");
  writeFileSync(path.join(data, "prompts", "v2.md"), "Key points:\n\n{{transcript}}\n");
  writeFileSync(path.join(data, "inputs", "tech-talk-01.md"), "# Example Tech Talk\n\nRust.\n");
  writeFileSync(path.join(data, "inputs", "interview-02.md"), "Gardening.\n");
  writeFileSync(path.join(data, "models.txt"), "mock/echo\nmock/fast\n");
  writeFileSync(path.join(workDir, ".env"), "GROQ_API_KEY=gsk-not-to-be-sent\n");
});
afterAll(async () => {
  contextStore.__parallaxrContext = undefined;
  await served.close();
  rmSync(workDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

function parallaxr(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

const dataOf = (...parts: string[]) => path.join(workDir, "data", "evals", ...parts);

describe("parallaxr matrix --server", () => {
  it("sends the files as texts, follows the batch, writes the server's batch folder byte for byte; --resume finds it by its batch id", async () => {
    const result = await parallaxr(["matrix", "--server", url, "--token", CONTROL_TOKEN]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `[WARNING] Running on the server at ${url}: it uses its own keys; GROQ_API_KEY from ./.env or --groq_api_key was not sent.`,
    );
    const posts = received.filter((request) => request.method === "POST" && request.path === "/api/v1/matrix");
    expect(posts.map((post) => JSON.parse(post.body).dryRun)).toEqual([true, false]);
    const sent = JSON.parse(posts[1].body);
    expect(sent).toMatchObject({
      prompts: [
        { version: "v1", fileName: "v1.txt", text: "Summarize {{input_id}}:\n\n{{input}}\n" },
        { version: "v2", fileName: "v2.md", text: "Key points:\n\n{{transcript}}\n" },
      ],
      models: ["mock/echo", "mock/fast"],
      inputs: [
        { id: "interview-02", text: "Gardening.\n" },
        { id: "tech-talk-01", text: "# Example Tech Talk\n\nRust.\n" },
      ],
      concurrency: 3,
      cache: true,
      comparisons: true,
    });
    for (const post of posts) expect(post.body).not.toContain("gsk-not-to-be-sent");

    const batchId = /^Batch (\d{8}_\d{6}_matrix): 8 evals, 3 at a time$/m.exec(result.stderr)![1];
    expect(result.stderr).toMatch(new RegExp(`^Batch ${batchId}: 8/8 evals succeeded, 0 failed in `, "m"));
    const [matrix] = (await listMatrices({ db: engine.db }, { userId: localUserId, batchId, limit: 1 })).matrices;
    const files = unzipSync((await matrixZip({ db: engine.db }, { userId: localUserId, matrixId: matrix.id })).bytes);
    expect(Object.keys(files).filter((entry) => entry.startsWith("runs/"))).toHaveLength(8);
    for (const [entry, bytes] of Object.entries(files)) {
      expect(Buffer.from(readFileSync(dataOf(...entry.split("/")))), entry).toEqual(Buffer.from(bytes));
    }
    expect(readdirSync(dataOf("runs"))).toHaveLength(8);

    // a finished batch resumed: nothing runs again, its folder is written again from the server
    rmSync(dataOf("runs"), { recursive: true });
    const resumed = await parallaxr(["matrix", "--resume", batchId, "--server", url, "--token", CONTROL_TOKEN]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(received.some((request) => request.path === `/api/v1/matrix?batchId=${batchId}&limit=1`)).toBe(true);
    expect(resumed.stderr).toContain(`Resuming batch ${batchId} (completed): 8 evals`);
    expect(resumed.stderr).toContain(`Batch ${batchId}: 8 of 8 evals had finished; they are not run again.`);
    expect(resumed.stderr).not.toMatch(/^Running /m);
    for (const [entry, bytes] of Object.entries(files)) {
      expect(Buffer.from(readFileSync(dataOf(...entry.split("/")))), entry).toEqual(Buffer.from(bytes));
    }

    // a second batch into the same folder: the index lists both batches' comparisons, every link resolving
    const second = await parallaxr(["matrix", "--inputs", "tech-talk-01", "--server", url, "--token", CONTROL_TOKEN]);
    expect(second.code, second.stderr).toBe(0);
    const secondId = /^Batch (\d{8}_\d{6}_matrix): 4 evals, 3 at a time$/m.exec(second.stderr)![1];
    const index = readFileSync(dataOf("comparisons", "index.md"), "utf8");
    const links = [...index.matchAll(/\]\((\.\/[^)]+)\)/g)].map((match) => decodeURIComponent(match[1]));
    expect(links).toHaveLength(8 + 4);
    for (const link of links) expect(readFileSync(path.join(dataOf("comparisons"), link), "utf8")).toMatch(/^---\ncomparison_type: /);
    const stamps = links.map((link) => link.slice(2, 17));
    expect(new Set(stamps)).toEqual(new Set([batchId.slice(0, 15), secondId.slice(0, 15)]));
    // newest first within each list
    expect(stamps[0]).toBe(secondId.slice(0, 15));
  }, 240_000);

  it("a token the server does not know is refused: exit 1 with the server's message, nothing written", async () => {
    rmSync(dataOf("batches"), { recursive: true, force: true });
    const refused = await parallaxr(["matrix", "--server", url, "--token", "pxr_wrong"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The server at ${url} answered 401: This access token is unknown or revoked.`);
    expect(refused.stdout).toBe("");
  }, 60_000);
});
