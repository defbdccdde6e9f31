import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { listeningAddresses } from "./helpers/listening-addresses";

const root = path.resolve(import.meta.dirname, "..");

/** `npm start` as a user runs it (scripts/serve.mjs), in a process group of its own. */
async function startServer({ port, env = {} }: { port: number; env?: Record<string, string> }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-net-"));
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "start"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), PARALLAXR_DATA_DIR: dataDir, HOST: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${url}/api/v1/health`).catch(() => null))?.status ?? 0, {
      timeout: 60_000,
      message: `server on ${port}: ${output}`,
    })
    .toBe(200);
  return {
    url,
    dataDir,
    output: () => output,
    stop() {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone already
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test.describe("who can reach the server", () => {
  test("npm start listens on 127.0.0.1 only, and the local user needs no token there", async () => {
    const server = await startServer({ port: 3211 });
    try {
      expect(listeningAddresses(3211)).toEqual(["127.0.0.1"]);
      expect((await fetch(`${server.url}/api/v1/prompts`)).status).toBe(200);
    } finally {
      server.stop();
    }
  });

  test("HOST=0.0.0.0 is an explicit choice: every request needs a token, made by `parallaxr token create` through the running server", async ({
    page,
  }) => {
    const server = await startServer({ port: 3212, env: { HOST: "0.0.0.0" } });
    try {
      expect(listeningAddresses(3212)).toEqual(["0.0.0.0"]);
      expect(server.output()).toContain("every request needs an access token");
      expect(server.output()).toContain("npx parallaxr token create");

      const refused = await fetch(`${server.url}/api/v1/prompts`);
      expect(refused.status).toBe(401);

      // The server holds the data folder: the command asks it over loopback instead of opening it.
      const cli = spawnSync(process.execPath, [path.join(root, "bin", "parallaxr.mjs"), "token", "create", "--name", "e2e"], {
        cwd: tmpdir(),
        env: { ...process.env, PARALLAXR_DATA_DIR: server.dataDir },
        encoding: "utf8",
      });
      expect(cli.status, cli.stderr).toBe(0);
      const token = cli.stdout.trim();
      expect(token).toMatch(/^pxr_/);
      expect((await fetch(`${server.url}/api/v1/prompts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

      // A browser is sent to the sign-in page, and lands on the workbench once signed in.
      await page.goto(`${server.url}/`);
      await expect(page).toHaveURL(/\/sign-in/);
      await expect(page.getByRole("heading", { name: "Sign in to Parallaxr" })).toBeVisible();
      await page.getByLabel("Access token").fill("pxr_wrong");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "unknown or revoked" })).toBeVisible();
      await page.screenshot({ path: "e2e-artifacts/sign-in.png" });
      await page.getByLabel("Access token").fill(token);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(`${server.url}/`);
      await expect(page.getByRole("button", { name: /^Run/ })).toBeVisible({ timeout: 30_000 });
      const cookies = await page.context().cookies(server.url);
      const session = cookies.find((cookie) => cookie.name === "parallaxr_token");
      expect(session).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    } finally {
      server.stop();
    }
  });
});
