import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/engine/run-service";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, waitFor, type TestDatabase } from "../helpers/databases";

/** The engine's behaviour, run against one kind of database. */
export function describeEngine(label: string, create: () => Promise<TestDatabase | null>): void {
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
      const worker = await startWorker({ db: test.db, providers, pollMs: 50 });
      try {
        const rows = Array.from({ length: 50 }, (_, i) => ({ id: String(i), text: `row ${i}` }));
        const run = await createRun({ db: test.db, providers }, {
          userId: userA,
          input: {
            prompt: "Item {{id}}: {{text}}",
            rows,
            models: ["echo", "fast", "flaky", "mock"].map((model) => ({ provider: "mock", model, params: model === "echo" ? { latencyMs: 5, jitterMs: 5 } : model === "flaky" ? { latencyMs: 2, rateLimitRate: 0.2, retryAfterSeconds: 0.01 } : {} })),
            concurrency: 16,
            maxAttempts: 10,
          },
        });
        expect(run.status).toBe("queued");
        const finished = await waitFor(async () => {
          const current = await getRun({ db: test!.db }, { userId: userA, runId: run.id });
          return current.status === "completed" ? current : null;
        }, { timeoutMs: 60_000, what: "the run to complete" });

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
        expect(cell.tokensIn).toBeGreaterThan(0);
        expect(cell.latencyMs).not.toBeNull();
      } finally {
        await worker.stop();
      }
    });
  });
}
