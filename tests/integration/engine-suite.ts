import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { changeRunStatus, getRun } from "@/lib/services/runs";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, userB, waitFor, type TestDatabase } from "../helpers/databases";

/**
 * The engine's behaviour, run against one kind of database. claimAhead: the workers hold cells
 * ready beyond each run's cap (only a worker alone on its database may), so the test of two
 * workers is left out.
 */
export function describeEngine(label: string, create: () => Promise<TestDatabase | null>, { claimAhead = false } = {}): void {
  describe(`engine on ${label}`, () => {
    let test: TestDatabase | null = null;
    beforeAll(async () => {
      test = await create();
    });
    afterAll(async () => {
      await test?.drop();
    });

    it("runs 200 cells over 4 mock models, each executed exactly once", async (context) => {
      if (!test) return context.skip();
      const calls = new Map<string, number>();
      const mock = createMockProvider({
        onCall: ({ model, prompt }) => calls.set(`${model}|${prompt}`, (calls.get(`${model}|${prompt}`) ?? 0) + 1),
      });
      const providers = createProviderRegistry([mock]);
      const worker = await startWorker({ db: test.db, providers, pollMs: 50, claimAhead });
      try {
        const rows = Array.from({ length: 50 }, (_, i) => ({ id: String(i), text: `row ${i}` }));
        const run = await createRun(
          { db: test.db, providers },
          {
            userId: userA,
            input: {
              prompt: "Item {{id}}: {{text}}",
              rows,
              models: ["echo", "fast", "flaky", "mock"].map((model) => ({
                provider: "mock",
                model,
                params:
                  model === "echo"
                    ? { latencyMs: 5, jitterMs: 5 }
                    : model === "flaky"
                      ? { latencyMs: 2, rateLimitRate: 0.2, retryAfterSeconds: 0.01 }
                      : {},
              })),
              concurrency: 16,
              maxAttempts: 10,
            },
          },
        );
        expect(run.status).toBe("queued");
        const finished = await waitFor(
          async () => {
            const current = await getRun({ db: test!.db }, { userId: userA, runId: run.id });
            return current.status === "completed" ? current : null;
          },
          { timeoutMs: 60_000, what: "the run to complete" },
        );

        expect(finished.cells).toHaveLength(200);
        expect(finished.counts.ok).toBe(200);
        // every cell's prompt reached the mock: exactly once for models that never fail
        for (const model of ["echo", "fast", "mock"]) {
          for (const row of rows) {
            expect(calls.get(`${model}|Item ${row.id}: ${row.text}`), `${model} row ${row.id}`).toBe(1);
          }
        }
        // the flaky model is called once per attempt: the attempts recorded match the calls made
        const flakyCells = finished.cells.filter((cell) => cell.column === 2);
        const flakyCalls = rows.reduce((sum, row) => sum + (calls.get(`flaky|Item ${row.id}: ${row.text}`) ?? 0), 0);
        expect(flakyCalls).toBe(flakyCells.reduce((sum, cell) => sum + cell.attempts, 0));
        const cell = finished.cells.find((c) => c.row === 3 && c.column === 1)!;
        expect(cell.output).toContain("MOCK RESPONSE");
        expect(cell.output).toContain("Item 3: row 3");
        expect(cell.tokensIn).toBe(3); // "Item 3: row 3": 13 characters, 4 to a token
        expect(cell.latencyMs).not.toBeNull();
      } finally {
        await worker.stop();
      }
    });

    it("retries 429s after Retry-After with backoff, and gives up after the attempt limit", async (context) => {
      if (!test) return context.skip();
      const callTimes = new Map<string, number[]>();
      // a seeded generator: the same 429s every time this test runs
      let seed = 42;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      const mock = createMockProvider({
        random,
        onCall: ({ prompt }) => callTimes.set(prompt, [...(callTimes.get(prompt) ?? []), Date.now()]),
      });
      const providers = createProviderRegistry([mock]);
      const worker = await startWorker({ db: test.db, providers, pollMs: 20, random, claimAhead });
      try {
        const run = await createRun(
          { db: test.db, providers },
          {
            userId: userA,
            input: {
              prompt: "cell {{n}}",
              rows: Array.from({ length: 40 }, (_, n) => ({ n: String(n) })),
              models: [{ provider: "mock", model: "fast", params: { rateLimitRate: 0.5, retryAfterSeconds: 0.15 } }],
              concurrency: 8,
              maxAttempts: 3,
            },
          },
        );
        const finished = await waitFor(
          async () => {
            const current = await getRun({ db: test!.db }, { userId: userA, runId: run.id });
            return current.status === "completed" ? current : null;
          },
          { what: "the flaky run to complete" },
        );
        const ok = finished.cells.filter((cell) => cell.status === "ok");
        const failed = finished.cells.filter((cell) => cell.status === "error");
        expect(ok.length + failed.length).toBe(40);
        // with a 50% rate over 3 attempts both outcomes occur
        expect(ok.some((cell) => cell.attempts > 1)).toBe(true);
        expect(failed.length).toBeGreaterThan(0);
        for (const cell of failed) {
          expect(cell.errorCode).toBe("rate_limited");
          expect(cell.attempts).toBe(3);
        }
        for (const cell of finished.cells) {
          const times = callTimes.get(`cell ${cell.row}`) ?? [];
          expect(times.length).toBe(cell.attempts);
          // every retry waited at least the Retry-After the mock sent
          for (let k = 1; k < times.length; k++) expect(times[k] - times[k - 1]).toBeGreaterThanOrEqual(145);
        }
      } finally {
        await worker.stop();
      }
    });

    it("never has more cells of a provider in flight than its cap, across two workers", async (context) => {
      if (!test || claimAhead) return context.skip();
      const mock = createMockProvider();
      const providers = createProviderRegistry([mock]);
      // Two workers on one database: each claims with its own transactions (and, on the server,
      // its own connections); the cap must hold over both.
      const workers: Worker[] = [
        await startWorker({ db: test.db, providers, pollMs: 20, workerId: "cap-a" }),
        await startWorker({ db: test.db, providers, pollMs: 20, workerId: "cap-b" }),
      ];
      try {
        // User B: the flaky runs above taught user A's mock credential to slow down (AIMD).
        const run = await createRun(
          { db: test.db, providers },
          {
            userId: userB,
            input: {
              prompt: "cap {{n}}",
              rows: Array.from({ length: 30 }, (_, n) => ({ n: String(n) })),
              models: [
                { provider: "mock", model: "echo", params: { latencyMs: 30, jitterMs: 20 } },
                { provider: "mock", model: "echo", params: { latencyMs: 30, jitterMs: 20 } },
              ],
              concurrency: 16,
              providerConcurrency: { mock: 3 },
              // the two columns are the same model: with the cache on, one could answer the other
              cache: false,
            },
          },
        );
        await waitFor(
          async () => {
            const current = await getRun({ db: test!.db }, { userId: userB, runId: run.id });
            return current.status === "completed" ? current : null;
          },
          { what: "the capped run to complete" },
        );
        expect(mock.stats().peakInFlight).toBe(3);
        expect(mock.stats().calls).toBe(60);
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
      }
    });

    it("pauses, resumes and cancels", async (context) => {
      if (!test) return context.skip();
      const mock = createMockProvider();
      const providers = createProviderRegistry([mock]);
      const worker = await startWorker({ db: test.db, providers, pollMs: 20, claimAhead });
      try {
        const run = await createRun(
          { db: test.db, providers },
          {
            userId: userA,
            input: {
              prompt: "life {{n}}",
              rows: Array.from({ length: 40 }, (_, n) => ({ n: String(n) })),
              models: [{ provider: "mock", model: "echo", params: { latencyMs: 40, jitterMs: 0 } }],
              concurrency: 2,
            },
          },
        );
        const read = () => getRun({ db: test!.db }, { userId: userA, runId: run.id });
        await waitFor(async () => (await read()).counts.ok >= 2, { what: "two cells done" });
        expect((await changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "pause" })).status).toBe("paused");
        // cells in flight at the pause finish; then nothing more starts
        await waitFor(async () => (await read()).counts.running === 0, { what: "in-flight cells to finish" });
        const pausedOk = (await read()).counts.ok;
        const callsAtPause = mock.stats().calls;
        await waitFor(async () => worker.inFlight() === 0, { what: "the worker to idle" });
        await expect(changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "resume" })).resolves.toMatchObject({
          status: "running",
        });
        await waitFor(async () => (await read()).counts.ok > pausedOk + 2, { what: "work after resume" });
        expect(mock.stats().calls).toBeGreaterThan(callsAtPause);
        const cancelled = await changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "cancel" });
        expect(cancelled.status).toBe("cancelled");
        const final = await waitFor(
          async () => {
            const current = await read();
            return current.counts.running === 0 ? current : null;
          },
          { what: "cancel to settle" },
        );
        expect(final.status).toBe("cancelled");
        expect(final.counts.cancelled).toBeGreaterThan(0);
        expect(final.counts.queued).toBe(0);
        await expect(changeRunStatus({ db: test.db }, { userId: userA, runId: run.id, action: "resume" })).rejects.toThrow(
          /Cannot resume a run that is cancelled/,
        );
      } finally {
        await worker.stop();
      }
    });
  });
}
