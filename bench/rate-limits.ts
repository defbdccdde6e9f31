/**
 * Rate limits and budgets under load (npm run bench:limits).
 *
 * 1. A mock credential limited to 8 concurrent requests, 20% of calls answering 429 with
 *    Retry-After, 1,000 cells (4 columns x 250 rows) at run concurrency 32 with two workers:
 *    every cell must end ok, the mock must never see more than 8 calls at once, and the requests
 *    made must stay at most 1.3 x the cells. The baseline, measured in the same run, is the same
 *    run without 429s: the ratio of their wall times is what the 429s cost.
 * 2. A budget run: a priced mock, a budget of 40 cells' worth, concurrency 8. It must stop within
 *    one in-flight batch (concurrency x cost per cell) of the budget, and skip the rest.
 *
 * Flags: --backend pglite|postgres (default pglite). Exit 1 when a check fails.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { openDatabase } from "@/lib/db/open-database";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { startWorker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createServerTestDatabase } from "../tests/helpers/databases";

const { values } = parseArgs({ options: { backend: { type: "string", default: "pglite" } } });
const models = ["fast", "echo", "slow", "mock"];
const failures: string[] = [];

async function openBackend(): Promise<{ db: Database; close: () => Promise<void> }> {
  if (values.backend === "postgres") {
    // a throwaway database on the server, made and dropped as the tests make theirs
    const server = await createServerTestDatabase();
    return { db: server.db, close: server.drop };
  }
  const db = await openDatabase({ dataDir: mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-limits-")) });
  return { db, close: () => db.close() };
}

// Polls the run's status alone: reading the whole run (1,000 cells) this often would load the
// database (on PGlite, the very thread the workers use) and measure the observer.
async function waitForEnd(db: Database, userId: string, runId: string) {
  for (;;) {
    const { rows } = await db.query<{ status: string }>("select status from runs where id = $1", [runId]);
    if (["completed", "cancelled", "failed"].includes(rows[0].status)) return getRun({ db }, { userId, runId });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function limitedRun(db: Database, rateLimitRate: number) {
  const userId = randomUUID();
  await asUser(db, userId, (tx) => tx.query("insert into provider_limits (provider, max_concurrency) values ('mock', 8)"));
  const mock = createMockProvider();
  const providers = createProviderRegistry([mock]);
  const workers = [await startWorker({ db, providers, pollMs: 50 }), await startWorker({ db, providers, pollMs: 50 })];
  const started = performance.now();
  const run = await createRun(
    { db, providers },
    {
      userId,
      input: {
        prompt: "Row {{n}}",
        rows: Array.from({ length: 250 }, (_, n) => ({ n: String(n) })),
        models: models.map((model) => ({
          provider: "mock",
          model,
          params: { latencyMs: 50, jitterMs: 20, rateLimitRate, retryAfterSeconds: 0.2 },
        })),
        concurrency: 32,
        maxAttempts: 12,
        cache: false,
      },
    },
  );
  const finished = await waitForEnd(db, userId, run.id);
  const wallMs = performance.now() - started;
  await Promise.all(workers.map((worker) => worker.stop()));
  const stats = mock.stats();
  return { finished, wallMs, calls: stats.calls, peak: stats.peakInFlight };
}

async function budgetRun(db: Database) {
  const userId = randomUUID();
  await asUser(db, userId, (tx) =>
    tx.query("insert into pricing (provider, model, input_per_mtok, output_per_mtok) values ('mock', 'echo', 100, 100)"),
  );
  const mock = createMockProvider();
  const providers = createProviderRegistry([mock]);
  const worker = await startWorker({ db, providers, pollMs: 50 });
  // history for the output estimate
  const warm = await createRun(
    { db, providers },
    {
      userId,
      input: {
        prompt: "Budget {{n}}",
        rows: Array.from({ length: 10 }, (_, n) => ({ n: `w${n}` })),
        models: [{ provider: "mock", model: "echo", params: { latencyMs: 5, jitterMs: 0 } }],
      },
    },
  );
  const warmed = await waitForEnd(db, userId, warm.id);
  const perCell = warmed.cells.reduce((sum, cell) => sum + (cell.costUsd ?? 0), 0) / warmed.cells.length;
  const concurrency = 8;
  const budget = perCell * 40;
  const run = await createRun(
    { db, providers },
    {
      userId,
      input: {
        prompt: "Budget {{n}}",
        rows: Array.from({ length: 200 }, (_, n) => ({ n: `b${n}` })),
        models: [{ provider: "mock", model: "echo", params: { latencyMs: 30, jitterMs: 20 } }],
        concurrency,
        budgetUsd: budget,
        cache: false,
      },
    },
  );
  const finished = await waitForEnd(db, userId, run.id);
  await worker.stop();
  return { finished, perCell, budget, concurrency };
}

async function main() {
  const backend = await openBackend();
  try {
    console.log(`backend: ${values.backend}; 2 workers; mock credential limited to 8; 1,000 cells (4 x 250), 50 ms +- 20 ms`);
    const baseline = await limitedRun(backend.db, 0);
    const limited = await limitedRun(backend.db, 0.2);
    for (const [label, result] of [
      ["no 429s (baseline)", baseline],
      ["20% 429s", limited],
    ] as const) {
      const ok = result.finished.counts.ok;
      const ratio = result.calls / 1000;
      console.log(
        `${label.padEnd(20)} wall ${(result.wallMs / 1000).toFixed(2)} s, ok ${ok}/1000, requests ${result.calls} (${ratio.toFixed(3)} x cells), peak in flight ${result.peak}`,
      );
      if (ok !== 1000) failures.push(`${label}: ${1000 - ok} cells did not end ok`);
      if (result.peak > 8) failures.push(`${label}: ${result.peak} calls in flight, above the limit of 8`);
      if (ratio > 1.3) failures.push(`${label}: ${ratio.toFixed(3)} requests per cell, above 1.3`);
    }
    console.log(
      `the 429s cost ${(limited.wallMs / baseline.wallMs).toFixed(2)} x the baseline's wall time (ideal for the baseline: ${((1000 * 60) / 8 / 1000).toFixed(1)} s)`,
    );

    const budget = await budgetRun(backend.db);
    const overshoot = budget.finished.spentUsd - budget.budget;
    const batch = budget.concurrency * budget.perCell;
    console.log(
      `budget $${budget.budget.toFixed(6)} (40 cells at ~$${budget.perCell.toFixed(6)}): spent $${budget.finished.spentUsd.toFixed(6)} ` +
        `(${(overshoot / budget.perCell).toFixed(2)} cells over; one in-flight batch is ${budget.concurrency} cells), ` +
        `ok ${budget.finished.counts.ok}, skipped ${budget.finished.counts.skipped}`,
    );
    if (overshoot > batch) failures.push(`budget overshot by ${overshoot} dollars, more than one in-flight batch (${batch})`);
    if (budget.finished.counts.skipped === 0) failures.push("the budget run skipped nothing");
  } finally {
    await backend.close();
  }
  if (failures.length > 0) {
    console.error(`FAILED:\n- ${failures.join("\n- ")}`);
    process.exit(1);
  }
  console.log("all checks passed");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
