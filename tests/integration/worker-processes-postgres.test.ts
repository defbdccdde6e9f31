import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createServerTestDatabase, postgresServerAvailable, userA, waitFor, type TestDatabase } from "../helpers/databases";
import { readCallLog, spawnWorker, type WorkerProcess } from "../helpers/worker-process";

// Runs are created here; separate `npm run worker` processes execute them. The mock in each
// process appends every call it receives to one log file, so the calls are counted where they
// land, across processes.
describe("worker processes on the Postgres server", () => {
  let test: TestDatabase | null = null;
  const started: WorkerProcess[] = [];
  const providers = createProviderRegistry([createMockProvider()]);
  const logDir = mkdtempSync(path.join(tmpdir(), "parallaxr-calls-"));

  beforeAll(async () => {
    if (await postgresServerAvailable()) test = await createServerTestDatabase();
  });
  afterAll(async () => {
    for (const worker of started) worker.child.kill("SIGKILL");
    await Promise.all(started.map((worker) => worker.exited));
    await test?.drop();
  });

  const start = (env: Record<string, string>) => {
    const worker = spawnWorker({ DATABASE_URL: test!.url!, PARALLAXR_POLL_MS: "50", ...env });
    started.push(worker);
    return worker;
  };
  const read = (runId: string) => getRun({ db: test!.db }, { userId: userA, runId });

  it("two workers share one run and no cell is executed twice", async (context) => {
    if (!test) return context.skip();
    const log = path.join(logDir, "shared.jsonl");
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "shared {{n}}",
          rows: Array.from({ length: 100 }, (_, n) => ({ n: String(n) })),
          models: [
            { provider: "mock", model: "echo", params: { latencyMs: 20, jitterMs: 20 } },
            { provider: "mock", model: "fast", params: { latencyMs: 20, jitterMs: 20 } },
          ],
          concurrency: 16,
        },
      },
    );
    // Each worker has room for 8 calls and the run allows 16: the run needs both. (A worker with
    // room for the whole run refills its own freed slots in the same statement that saves
    // their results, and keeps the run to itself.)
    const workers = [
      start({ MOCK_CALL_LOG: log, PARALLAXR_WORKER_MAX_IN_FLIGHT: "8" }),
      start({ MOCK_CALL_LOG: log, PARALLAXR_WORKER_MAX_IN_FLIGHT: "8" }),
    ];
    try {
      const finished = await waitFor(
        async () => {
          const current = await read(run.id);
          return current.status === "completed" ? current : null;
        },
        { timeoutMs: 60_000, what: `the shared run to complete (worker output: ${workers.map((w) => w.output()).join(" | ")})` },
      );

      expect(finished.counts.ok).toBe(200);
      const calls = readCallLog(log);
      expect(calls).toHaveLength(200);
      const perCell = new Map<string, number>();
      for (const call of calls) perCell.set(`${call.model}|${call.prompt}`, (perCell.get(`${call.model}|${call.prompt}`) ?? 0) + 1);
      expect(perCell.size).toBe(200);
      expect([...perCell.values()].every((count) => count === 1)).toBe(true);
      // both processes did part of the work
      const pids = new Set(calls.map((call) => call.pid));
      expect(pids).toEqual(new Set(workers.map((worker) => worker.child.pid)));
    } finally {
      for (const worker of workers) worker.child.kill("SIGTERM");
      await Promise.all(workers.map((worker) => worker.exited));
    }
  });

  it("a worker killed with SIGKILL mid-run leaves its cells to another, which finishes the run", async (context) => {
    if (!test) return context.skip();
    const log = path.join(logDir, "killed.jsonl");
    const run = await createRun(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "killed {{n}}",
          rows: Array.from({ length: 60 }, (_, n) => ({ n: String(n) })),
          models: [{ provider: "mock", model: "echo", params: { latencyMs: 150, jitterMs: 50 } }],
          concurrency: 6,
        },
      },
    );
    const first = start({ MOCK_CALL_LOG: log, PARALLAXR_LEASE_SECONDS: "1.5" });
    await waitFor(async () => (await read(run.id)).counts.ok >= 12, { timeoutMs: 30_000, what: "12 cells done by the first worker" });
    first.child.kill("SIGKILL");
    await first.exited;
    const before = await read(run.id);
    const doneBeforeKill = before.cells.filter((cell) => cell.status === "ok");
    const inFlightAtKill = before.cells.filter((cell) => cell.status === "running");
    expect(inFlightAtKill.length).toBeGreaterThan(0);

    const second = start({ MOCK_CALL_LOG: log, PARALLAXR_LEASE_SECONDS: "1.5" });
    try {
      const finished = await waitFor(
        async () => {
          const current = await read(run.id);
          return current.status === "completed" ? current : null;
        },
        { timeoutMs: 60_000, what: `the run to complete after the kill (${second.output()})` },
      );

      expect(finished.counts.ok).toBe(60);
      const calls = readCallLog(log);
      const count = (n: number) => calls.filter((call) => call.prompt === `killed ${n}`).length;
      // what finished before the kill was never executed again
      for (const cell of doneBeforeKill) expect(count(cell.row), `row ${cell.row}`).toBe(1);
      // only the cells in flight at the kill can have been called twice (the first call was lost)
      const twice = finished.cells.filter((cell) => count(cell.row) > 1);
      expect(twice.length).toBeLessThanOrEqual(inFlightAtKill.length);
      for (const cell of twice) expect(inFlightAtKill.map((c) => c.row)).toContain(cell.row);
      expect(calls.filter((call) => call.pid === second.child.pid).length).toBeGreaterThan(0);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });
});
