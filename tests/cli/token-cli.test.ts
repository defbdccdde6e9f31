import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAccessConfig } from "@/lib/auth/access-config";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { localUserId } from "@/lib/auth/local-user";
import { openDatabase } from "@/lib/db/open-database";

const bin = path.resolve(import.meta.dirname, "..", "..", "bin", "parallaxr.mjs");
// A user's directory far from the repository: the CLI must not depend on where it is run.
const workDir = mkdtempSync(path.join(tmpdir(), "parallaxr-cli-cwd-"));
const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-cli-data-"));

function parallaxr(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: workDir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? workDir,
        PARALLAXR_DATA_DIR: dataDir,
        ...env,
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe("parallaxr token (a subprocess run from outside the repository)", () => {
  it("--help names the commands and the exit codes; a wrong command line exits 2", async () => {
    const help = await parallaxr(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("token");
    expect(help.stdout).toContain("Exit codes");
    const tokenHelp = await parallaxr(["token", "create", "--help"]);
    expect(tokenHelp.code).toBe(0);
    expect(tokenHelp.stdout).toContain("--name");

    const unknown = await parallaxr(["tokne"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'tokne'");
    const missing = await parallaxr(["token", "revoke"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument");
  }, 60_000);

  it("creates a token on the data folder (stdout: the token alone), lists it, revokes it", async () => {
    const created = await parallaxr(["token", "create", "--name", "ci laptop"]);
    expect(created.stderr).toContain('Token "ci laptop" created');
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^pxr_[A-Za-z0-9_-]{43}$/);

    const listed = await parallaxr(["token", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ID\s+NAME\s+ENDS/);
    expect(listed.stdout).toContain("ci laptop");
    expect(listed.stdout).toContain(`...${token.slice(-4)}`);
    expect(listed.stdout).not.toContain(token);

    // The token is good for a server on that folder, as its local user.
    const db = await openDatabase({ dataDir });
    try {
      const access = readAccessConfig({ HOST: "0.0.0.0" });
      const request = new Request("http://127.0.0.1/api/v1/prompts", { headers: { authorization: `Bearer ${token}` } });
      await expect(resolveCaller(request, { db, access })).resolves.toEqual({ userId: localUserId });
    } finally {
      await db.close();
    }

    const revoked = await parallaxr(["token", "revoke", "ci laptop"]);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain('Revoked "ci laptop"');
    const again = await parallaxr(["token", "revoke", "ci laptop"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No live token has the id or name "ci laptop"');

    const json = await parallaxr(["token", "list", "--json"]);
    const tokens = JSON.parse(json.stdout) as Array<{ name: string; revokedAt: string | null }>;
    expect(tokens).toHaveLength(1);
    expect(tokens[0].name).toBe("ci laptop");
    expect(tokens[0].revokedAt).not.toBeNull();
  }, 120_000);

  it("never opens a folder another live process holds: exit 3, naming the process", async () => {
    const heldDir = mkdtempSync(path.join(tmpdir(), "parallaxr-cli-held-"));
    try {
      // this test's own process stands in for a worker holding the folder (no address to talk to)
      writeFileSync(path.join(heldDir, "pglite.pid"), JSON.stringify({ pid: process.pid }));
      const result = await parallaxr(["token", "list"], { PARALLAXR_DATA_DIR: heldDir });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      rmSync(heldDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("--server without a token is a usage error", async () => {
    const result = await parallaxr(["token", "list", "--server", "http://127.0.0.1:9"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--server needs an access token");
  }, 60_000);
});
