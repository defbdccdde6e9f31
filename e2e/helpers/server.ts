import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** A production server (`next start`) started by a test, in a process group of its own. */
export interface TestServer {
  url: string;
  process: ChildProcess;
  output: () => string;
  /** SIGKILL to the whole group: the server and anything it started. */
  kill(): Promise<void>;
}

/**
 * Starts the built app on port with its own PGlite folder, and resolves once /api/v1/health
 * answers. extraEnv reaches the server (e.g. MOCK_CALL_LOG).
 */
export async function startTestServer({
  port,
  dataDir,
  extraEnv = {},
}: {
  port: number;
  dataDir: string;
  extraEnv?: Record<string, string>;
}): Promise<TestServer> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
      "--keepAliveTimeout",
      "120000",
    ],
    {
      cwd: root,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PARALLAXR_DATA_DIR: dataDir, ...extraEnv },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`The server on port ${port} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    output: () => output,
    async kill() {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    },
  };
}
