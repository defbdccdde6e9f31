import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getComparison } from "@/app/api/v1/evals/[id]/comparison.md/route";
import { GET as getExport } from "@/app/api/v1/evals/[id]/export/[format]/route";
import { GET as getEvalRoute } from "@/app/api/v1/evals/[id]/route";
import { POST as postEval } from "@/app/api/v1/evals/route";
import { GET as getBaseline } from "@/app/api/v1/evals/runs/[runId]/route";
import { localUserId } from "@/lib/auth/local-user";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { evalComparison, evalExport } from "@/lib/services/evals";
import { pgliteEngine } from "../helpers/engine";
import { type ReceivedRequest, type ServedRoute, serveRouteHandlers } from "../helpers/serve-route-handlers";

// `parallaxr eval run --server URL --token TOKEN` (issue 12) as a subprocess from a directory
// outside the repository, against the eval routes themselves served over HTTP by this test (the
// app's handlers, its worker running the cells on PGlite): the config and its prompt files sent as
// the files map, the run followed, the exports downloaded byte for byte, the baseline looked up
// through GET /api/v1/evals/runs/{runId}. Next's own server (its proxy's origin and size checks)
// is not in this path; the routes' gate (token, schemas) is.

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "bin", "parallaxr.mjs");
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-eval-server-cwd-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-eval-server-data-"));
const CONTROL_TOKEN = "control-token-for-this-test-0123456789";

const providers = createProviderRegistry([createMockProvider()]);
const engine = pgliteEngine(providers);
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

const routes: ServedRoute[] = [
  ["POST", /^\/api\/v1\/evals$/, [], postEval],
  ["GET", /^\/api\/v1\/evals\/runs\/([^/]+)$/, ["runId"], getBaseline],
  ["GET", /^\/api\/v1\/evals\/([^/]+)\/export\/([^/]+)$/, ["id", "format"], getExport],
  ["GET", /^\/api\/v1\/evals\/([^/]+)\/comparison\.md$/, ["id"], getComparison],
  ["GET", /^\/api\/v1\/evals\/([^/]+)$/, ["id"], getEvalRoute],
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
  cpSync(path.join(root, "tests", "fixtures", "evals"), workDir, { recursive: true });
  writeFileSync(path.join(workDir, ".env"), "ANTHROPIC_API_KEY=sk-ant-not-to-be-sent\n");
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

describe("parallaxr eval run --server", () => {
  it("sends the config and its prompt file, follows the eval, writes the server's files byte for byte, compares with a baseline", async () => {
    const first = await parallaxr(["eval", "run", "configs/eval_summarizer.yaml", "--server", url, "--token", CONTROL_TOKEN, "-o", "out"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      `[WARNING] Running on the server at ${url}: it uses its own keys; ANTHROPIC_API_KEY from ./.env was not sent.`,
    );
    const posted = received.find((request) => request.method === "POST");
    const sent = JSON.parse(posted!.body);
    expect(sent).toMatchObject({
      configName: "configs/eval_summarizer.yaml",
      files: { "../prompts/summarizer_v1.yaml": readFileSync(path.join(workDir, "prompts", "summarizer_v1.yaml"), "utf8") },
      concurrency: 4,
      cache: true,
    });
    expect(sent.config).toBe(readFileSync(path.join(workDir, "configs", "eval_summarizer.yaml"), "utf8"));
    expect(posted!.body).not.toContain("sk-ant-not-to-be-sent");

    const evalId = /\[INFO\] Eval ([0-9a-f-]{36}):/.exec(first.stderr)![1];
    const lines = first.stdout.split("\n");
    const paths = lines
      .slice(lines.indexOf("Evaluation complete! Results exported to:") + 1)
      .filter(Boolean)
      .map((line) => line.trim());
    expect(paths).toHaveLength(9);
    const runId = JSON.parse(readFileSync(path.join(workDir, paths[0]), "utf8")).run_id;
    for (const [index, format] of (["json", "csv", "markdown", "html"] as const).entries()) {
      const file = await evalExport({ db: engine.db }, { userId: localUserId, evalId, format, run: runId });
      expect(paths[index]).toBe(path.join("out", file.filename));
      expect(readFileSync(path.join(workDir, paths[index]), "utf8")).toBe(file.text);
    }
    const comparison = await evalComparison({ db: engine.db }, { userId: localUserId, evalId });
    expect(readFileSync(path.join(workDir, "out", "comparison.md"), "utf8")).toBe(comparison.text);

    const second = await parallaxr([
      "eval",
      "configs/eval_summarizer.yaml",
      "--server",
      url,
      "--token",
      CONTROL_TOKEN,
      "-o",
      "out2",
      "-f",
      "json",
      "--baseline",
      runId,
    ]);
    expect(second.code).toBe(0);
    expect(received.some((request) => request.path === `/api/v1/evals/runs/${runId}`)).toBe(true);
    expect(second.stdout).toContain(`vs baseline summarizer_v1 on mock/fast (${runId}), 3 paired cases`);
    expect(second.stdout).toContain("not distinguishable");
    expect(second.stdout).toContain(`out2/baseline_${runId}_comparison.md`);
  }, 120_000);

  it("a token the server does not know is refused: exit 1 with the server's message, no file written", async () => {
    const refused = await parallaxr([
      "eval",
      "run",
      "configs/eval_summarizer.yaml",
      "--server",
      url,
      "--token",
      "pxr_wrong",
      "-o",
      "never",
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The server at ${url} answered 401: This access token is unknown or revoked.`);
    expect(refused.stdout).toBe("");
  }, 60_000);
});
