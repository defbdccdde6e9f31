import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startTestServer } from "./helpers/server";

// The app and `parallaxr run` on one embedded data folder, started in both orders: never two
// processes on the folder, and nothing lost either way.

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "bin", "parallaxr.mjs");

function cli(workDir: string, dataDir: string, args: string[]): { child: ChildProcess; done: Promise<{ code: number; stderr: string }> } {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: workDir,
    env: { PATH: process.env.PATH ?? "", HOME: workDir, PARALLAXR_DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  return { child, done: new Promise((resolve) => child.on("exit", (code) => resolve({ code: code ?? -1, stderr }))) };
}

function workFolder(rows: number, model: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parallaxr-both-"));
  writeFileSync(path.join(dir, "prompt.txt"), "Row {{id}}\n");
  writeFileSync(
    path.join(dir, "e.csv"),
    ["provider,model,id", ...Array.from({ length: rows }, (_, index) => `mock,${model},${index + 1}`)].join("\n"),
  );
  return dir;
}

/** The folder's lock file, or "" while there is none. */
function lockText(dataDir: string): string {
  try {
    return readFileSync(path.join(dataDir, "pglite.pid"), "utf8");
  } catch {
    return "";
  }
}

const outputIds = (file: string) =>
  readFileSync(file, "utf8")
    .split("\r\n")
    .slice(1)
    .filter((line) => /^mock,/.test(line))
    .map((line) => line.split(",")[2]);

test.describe("parallaxr run and the server on one data folder", () => {
  test("server first: the command runs through the server that holds the folder", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-both-data-"));
    const workDir = workFolder(5, "fast");
    const server = await startTestServer({ port: 3261, dataDir });
    try {
      // the server writes its address and control token into the folder's lock once it listens
      await expect.poll(() => lockText(dataDir), { timeout: 15_000 }).toContain("controlToken");
      const run = await cli(workDir, dataDir, ["run", "-p", "prompt.txt", "-e", "e.csv", "-o", "out.csv"]).done;
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(outputIds(path.join(workDir, "out.csv"))).toEqual(["1", "2", "3", "4", "5"]);
      const listed = (await (await fetch(`${server.url}/api/v1/experiments`)).json()) as {
        experiments: Array<{ id: string; experimentsFile: string; counts: { ok: number } }>;
      };
      expect(listed.experiments.map((entry) => [entry.experimentsFile, entry.counts.ok])).toEqual([["e.csv", 5]]);
      // the rows the command appended are byte for byte the page's download of the same run
      const download = await (await fetch(`${server.url}/api/v1/experiments/${listed.experiments[0].id}/output.csv`)).text();
      expect(readFileSync(path.join(workDir, "out.csv"), "utf8")).toBe(download);
    } finally {
      await server.kill();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    }
  });

  test("command first: the server says which process holds the folder, then opens it when it is free", async () => {
    test.setTimeout(120_000);
    const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-both-data-"));
    const workDir = workFolder(6, "slow");
    const run = cli(workDir, dataDir, ["run", "-p", "prompt.txt", "-e", "e.csv", "-o", "out.csv"]);
    await expect.poll(() => lockText(dataDir).includes(String(run.child.pid)), { timeout: 30_000 }).toBe(true);
    const starting = startTestServer({ port: 3262, dataDir });
    try {
      // while the command holds it: 503 naming the process, never a second opener
      await expect
        .poll(
          async () => {
            try {
              const response = await fetch("http://127.0.0.1:3262/api/v1/experiments");
              return `${response.status} ${await response.text()}`;
            } catch {
              return "not listening";
            }
          },
          { timeout: 30_000 },
        )
        .toContain(`503 {"error":{"code":"service_unavailable","message":"The data folder is in use by process ${run.child.pid}`);
      const finished = await run.done;
      expect(finished.code).toBe(0);
      const server = await starting;
      expect(outputIds(path.join(workDir, "out.csv"))).toEqual(["1", "2", "3", "4", "5", "6"]);
      const listed = (await (await fetch(`${server.url}/api/v1/experiments`)).json()) as { experiments: Array<{ counts: { ok: number } }> };
      expect(listed.experiments.map((entry) => entry.counts.ok)).toEqual([6]);
      expect(server.output()).toContain(`in use by process ${run.child.pid}`);
      await expect.poll(() => server.output(), { timeout: 5_000 }).toContain("The data folder is free: opened it.");
      await server.kill();
    } finally {
      run.child.kill("SIGKILL");
      await (await starting.catch(() => null))?.kill();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
