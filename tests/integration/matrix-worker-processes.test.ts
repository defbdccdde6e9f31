import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMatrixSchema } from "@/lib/api/matrix";
import { createMatrix, getMatrix, matrixSummaryFile } from "@/lib/services/matrix";
import { createServerTestDatabase, postgresServerAvailable, userA, waitFor, type TestDatabase } from "../helpers/databases";
import { readCallLog, spawnWorker, type WorkerProcess } from "../helpers/worker-process";

// A matrix created here and run by separate `npm run worker` processes on the Postgres server:
// the first is killed with SIGKILL mid-batch, a second finishes it. The mock in each process
// logs every call it receives, so what was paid for is counted where the calls land.
describe("a matrix batch killed mid-run on the Postgres server", () => {
  let test: TestDatabase | null = null;
  const started: WorkerProcess[] = [];
  const logDir = mkdtempSync(path.join(tmpdir(), "parallaxr-matrix-calls-"));

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

  it("is finished by another worker: every eval finished before the kill is never paid again, and 3 run at once", async (context) => {
    if (!test) return context.skip();
    const log = path.join(logDir, "killed.jsonl");
    const inputs = Array.from({ length: 12 }, (_, n) => ({ id: `input-${String(n).padStart(2, "0")}`, text: `text ${n}` }));
    const created = await createMatrix(
      { db: test.db },
      {
        userId: userA,
        input: createMatrixSchema.parse({
          prompts: [
            { version: "v1", text: "v1 of {{input_id}}: {{input}}" },
            { version: "v2", text: "v2 of {{input_id}}: {{input}}" },
          ],
          models: ["mock/echo"],
          inputs,
          cache: false,
        }),
      },
    );
    if (!("matrix" in created)) throw new Error("expected a run");
    const matrixId = created.matrix.id;
    const read = () => getMatrix({ db: test!.db }, { userId: userA, matrixId });

    const first = start({ MOCK_CALL_LOG: log, PARALLAXR_LEASE_SECONDS: "1.5" });
    await waitFor(async () => (await read()).matrix.counts.ok >= 6, { timeoutMs: 30_000, what: "6 evals done by the first worker" });
    first.child.kill("SIGKILL");
    await first.exited;
    const before = await read();
    const doneBeforeKill = before.evals.filter((one) => one.status === "ok");
    const inFlightAtKill = before.evals.filter((one) => one.status === "running");
    // The run's cap held in the killed process: never more than 3 at once.
    expect(inFlightAtKill.length).toBeLessThanOrEqual(3);

    const second = start({ MOCK_CALL_LOG: log, PARALLAXR_LEASE_SECONDS: "1.5" });
    try {
      const finished = await waitFor(
        async () => {
          const current = await read();
          return current.matrix.status === "completed" ? current : null;
        },
        { timeoutMs: 60_000, what: `the matrix to complete after the kill (${second.output()})` },
      );
      expect(finished.matrix.counts.ok).toBe(24);
      const calls = readCallLog(log);
      const count = (one: { prompt: string; input: string }) =>
        calls.filter((call) => call.prompt === `${one.prompt} of ${one.input}: text ${Number(one.input.slice(6))}`).length;
      for (const one of doneBeforeKill) expect(count(one), `${one.prompt} + ${one.input}`).toBe(1);
      // Only an eval in flight at the kill can have been sent twice (its first answer was lost with the process).
      const twice = finished.evals.filter((one) => count(one) > 1);
      for (const one of twice)
        expect(inFlightAtKill.map((other) => `${other.prompt}+${other.input}`)).toContain(`${one.prompt}+${one.input}`);
      for (const one of finished.evals) expect(count(one)).toBeGreaterThanOrEqual(1);
      expect(calls.filter((call) => call.pid === second.child.pid).length).toBeGreaterThan(0);

      const summary = JSON.parse((await matrixSummaryFile({ db: test.db }, { userId: userA, matrixId })).text);
      expect(summary).toMatchObject({ total_runs: 24, successful_runs: 24, failed_runs: 0 });
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  });
});
