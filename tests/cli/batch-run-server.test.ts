import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postAction } from "@/app/api/v1/batches/[id]/[action]/route";
import { GET as getImage } from "@/app/api/v1/batches/[id]/images/[file]/route";
import { GET as getBatchRoute } from "@/app/api/v1/batches/[id]/route";
import { GET as getRunJson } from "@/app/api/v1/batches/[id]/run.json/route";
import { POST as postBatch } from "@/app/api/v1/batches/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { runManifestProblems } from "@/lib/formats/batch/run-folder";
import type { RunManifest } from "@/lib/formats/batch/run-manifest";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { pgliteEngine } from "../helpers/engine";
import { type ReceivedRequest, type RouteHandler, type ServedRoute, serveRouteHandlers } from "../helpers/serve-route-handlers";

// `parallaxr batch-run --server URL --token TOKEN` (issue 14) as a subprocess from a directory
// outside the repository, against the batch routes themselves served over HTTP by this test (the
// app's handlers, its worker running the jobs on PGlite with the mock image model): the files sent
// as texts, the batch followed, each image and receipt downloaded into --out, then run.json, all
// byte for byte what the server's run folder holds. Next's own server is not in this path; the
// routes' gate (token, schemas) is.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-server-cwd-"));
const cliDataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-server-cli-data-"));
// The server's data folder: API batches write into <it>/batches/<run_id>.
const serverDataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-server-data-"));
process.env.PARALLAXR_DATA_DIR = serverDataDir;
const CONTROL_TOKEN = "control-token-for-this-test-0123456789";

const engine = pgliteEngine(createProviderRegistry([createMockProvider()]));
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

const routes: ServedRoute[] = [
  ["POST", /^\/api\/v1\/batches$/, [], postBatch as RouteHandler],
  ["GET", /^\/api\/v1\/batches\/([^/]+)\/run\.json$/, ["id"], getRunJson as RouteHandler],
  ["GET", /^\/api\/v1\/batches\/([^/]+)\/images\/([^/]+)$/, ["id", "file"], getImage as RouteHandler],
  ["POST", /^\/api\/v1\/batches\/([^/]+)\/(pause|resume|cancel)$/, ["id", "action"], postAction as RouteHandler],
  ["GET", /^\/api\/v1\/batches\/([^/]+)$/, ["id"], getBatchRoute as RouteHandler],
];
let served: Awaited<ReturnType<typeof serveRouteHandlers>>;
let received: ReceivedRequest[];
let url: string;

beforeAll(async () => {
  contextStore.__parallaxrContext = Promise.resolve({
    db: engine.db,
    providers: createProviderRegistry([createMockProvider()]),
    access: readAccessConfig({}),
    worker: null,
    controlToken: CONTROL_TOKEN,
  } as unknown as AppContext);
  served = await serveRouteHandlers(routes);
  ({ url, received } = served);
  writeFileSync(path.join(workDir, "prompts.txt"), "A bowl of ramen\nA slice of lemon tart\n");
  writeFileSync(
    path.join(workDir, "matrix.yaml"),
    "version: 1\ndefaults:\n  output_format: webp\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: [32x32, 48x32]\n    seed: [1, 2]\n",
  );
  writeFileSync(path.join(workDir, ".env"), "OPENAI_API_KEY=sk-openai-not-to-be-sent\n");
});
afterAll(async () => {
  contextStore.__parallaxrContext = undefined;
  await served.close();
  for (const folder of [workDir, cliDataDir, serverDataDir]) rmSync(folder, { recursive: true, force: true });
});

function parallaxr(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: cliDataDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe("parallaxr batch-run --server", () => {
  it("sends the files as texts, follows the batch and downloads the server's run folder into --out byte for byte", async () => {
    const result = await parallaxr([
      "batch-run",
      "--prompts",
      "prompts.txt",
      "--matrix",
      "matrix.yaml",
      "--out",
      "runs/remote",
      "--server",
      url,
      "--token",
      CONTROL_TOKEN,
    ]);
    expect(result.stderr).toContain(
      `[WARNING] Running on the server at ${url}: it uses its own keys; OPENAI_API_KEY from ./.env was not sent.`,
    );
    expect(result.code).toBe(0);

    const posted = received.find((request) => request.method === "POST" && request.path === "/api/v1/batches");
    expect(JSON.parse(posted!.body)).toEqual({
      prompts: { name: "prompts.txt", text: readFileSync(path.join(workDir, "prompts.txt"), "utf8") },
      matrix: { name: "matrix.yaml", text: readFileSync(path.join(workDir, "matrix.yaml"), "utf8") },
    });
    expect(received.map((request) => request.body).join("\n")).not.toContain("sk-openai-not-to-be-sent");

    // the server's own run folder, under its data folder
    const serverRuns = path.join(serverDataDir, "batches");
    const [runId] = readdirSync(serverRuns);
    const serverFolder = path.join(serverRuns, runId);
    const local = path.join(workDir, "runs", "remote");
    const manifest = JSON.parse(readFileSync(path.join(local, "run.json"), "utf8")) as RunManifest;
    expect(runManifestProblems(manifest)).toEqual([]);
    expect(manifest.status).toBe("completed");
    expect(manifest.jobs).toHaveLength(8);
    expect(readFileSync(path.join(local, "run.json"), "utf8")).toBe(readFileSync(path.join(serverFolder, "run.json"), "utf8"));
    for (const job of manifest.jobs) {
      expect(job.status).toBe("success");
      for (const name of [...job.artifacts.image_paths, ...job.artifacts.receipt_paths]) {
        expect(readFileSync(path.join(local, name))).toEqual(readFileSync(path.join(serverFolder, name)));
      }
    }
    expect(readdirSync(local).sort()).toEqual(
      readdirSync(serverFolder)
        .filter((name) => !name.startsWith("."))
        .sort(),
    );
    expect(result.stdout).toContain(`Batch ${runId} completed: 8 success, 0 failed, 0 skipped (8 image(s))`);
    expect(result.stdout).toContain("Manifest: runs/remote/run.json");
    expect(result.stdout).toContain("Output folder: runs/remote");
    // the CLI's own data folder was never opened
    expect(existsSync(path.join(cliDataDir, "pglite"))).toBe(false);
  }, 180_000);

  it("a token the server does not know is refused: exit 1 with the server's message, nothing written", async () => {
    const result = await parallaxr([
      "batch-run",
      "--prompts",
      "prompts.txt",
      "--matrix",
      "matrix.yaml",
      "--out",
      "runs/never",
      "--server",
      url,
      "--token",
      "pxr_wrong",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The server at ${url} answered 401: This access token is unknown or revoked.`);
    expect(result.stdout).toBe("");
    expect(existsSync(path.join(workDir, "runs", "never"))).toBe(false);
  }, 60_000);

  it("--resume with --server says where a server's batch is resumed (exit 2)", async () => {
    const result = await parallaxr(["batch-run", "--out", "runs/remote", "--resume", "--server", url, "--token", CONTROL_TOKEN]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`resume a batch on the server at ${url} there (its /batches page)`);
  }, 60_000);
});
