/**
 * Creating a large run through the product: POST /api/v1/runs of ROWS inline rows x 4 mock models
 * (100,000 cells at the default 25,000 rows) to the production server, on PGlite and the Postgres
 * server, timed from the request to two moments:
 * - the answer: the run exists, is queued with its first cells, and its first calls can be made
 *   (a run of more than 10,000 cells is answered before the rest of its cells are in);
 * - every cell queued, as a follower of the run's events stream (from the answer's cursor) learns
 *   it: the stream has sent a change of each cell the answer did not count.
 * The worker runs the mock models' cells meanwhile, as it would for a user; each run is cancelled
 * before the next.
 *
 *   npm run build && npm run bench:create -- [--backend pglite|postgres|both] [--rows 25000] [--repeat 3]
 *
 * Prints each request and a table of medians; exits 1 when a run does not have every cell.
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { api, followEvents } from "./drive";
import { SetupError, startProductServer, type BackendName } from "./server";

const models = ["fast", "echo", "slow", "mock"].map((model) => ({ provider: "mock", model }));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      backend: { type: "string", default: "both" },
      rows: { type: "string", default: "25000" },
      repeat: { type: "string", default: "3" },
      port: { type: "string", default: "3917" },
    },
  });
  const backends: BackendName[] = values.backend === "both" ? ["pglite", "postgres"] : [values.backend as BackendName];
  const rows = Number(values.rows);
  const repeat = Number(values.repeat);
  if (!backends.every((name) => name === "pglite" || name === "postgres") || !(rows > 0) || !(repeat > 0)) {
    console.error("usage: npm run bench:create -- [--backend pglite|postgres|both] [--rows 25000] [--repeat 3]");
    process.exit(2);
  }
  const cells = rows * models.length;
  console.log(
    `POST /api/v1/runs of ${rows.toLocaleString("en")} rows x ${models.length} mock models (${cells.toLocaleString("en")} cells), ${repeat} times per backend`,
  );
  console.log(`${os.cpus().length} x ${os.cpus()[0]?.model}, node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`);
  const root = path.resolve(import.meta.dirname, "..", "..");
  const problems: string[] = [];
  const table: string[] = [];
  for (const backend of backends) {
    const server = await startProductServer({ root, backend, port: Number(values.port) });
    try {
      // Warm-up: the route's first compile and the database's first statements.
      await createAndCancel(server.url, 10, 0);
      const answers: number[] = [];
      const everyCell: number[] = [];
      for (let round = 1; round <= repeat; round++) {
        const { answerMs, allMs, streamed, queued } = await createAndCancel(server.url, rows, round);
        answers.push(answerMs);
        everyCell.push(allMs);
        console.log(
          `[${backend}] round ${round}: answered in ${Math.round(answerMs).toLocaleString("en")} ms${streamed ? " (its last cells still to come)" : ""}, ` +
            `every cell queued at ${Math.round(allMs).toLocaleString("en")} ms (${queued.toLocaleString("en")}), RSS ${Math.round(server.rssMb())} MB`,
        );
        if (queued !== cells) problems.push(`${backend} round ${round}: ${queued} cells queued, not ${cells}`);
      }
      table.push(`| ${backend} | ${cells.toLocaleString("en")} | ${medianAndEach(answers)} | ${medianAndEach(everyCell)} |`);
    } finally {
      await server.stop();
      await server.dispose();
    }
  }
  console.log("\n| backend | cells | POST to answer: median (each) | POST to every cell queued: median (each) |\n|---|---|---|---|");
  for (const line of table) console.log(line);
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
}

/**
 * Creates one run, timed to its answer and to the run-update of its events stream that says its
 * last cells are in (planning false), then cancels it. Answers whether the answer came before
 * the last cells were in, and how many cells the run counted once they were.
 */
async function createAndCancel(
  base: string,
  rows: number,
  round: number,
): Promise<{ answerMs: number; allMs: number; streamed: boolean; queued: number }> {
  const body = {
    prompt: `Round ${round}: summarise item {{id}}: {{text}}`,
    rows: Array.from({ length: rows }, (_, i) => ({ id: String(i), text: `row ${i} of a large run` })),
    models,
    cache: false,
  };
  type Summary = { id: string; cursor: number; planning: boolean; counts: Record<string, number> };
  const total = (summary: Pick<Summary, "counts">) => Object.values(summary.counts).reduce((sum, n) => sum + n, 0);
  const start = performance.now();
  const run = await api<Summary>(base, "POST", "/api/v1/runs", body);
  const answerMs = performance.now() - start;
  let queued = total(run);
  if (run.planning)
    await followEvents(base, run, 120_000, undefined, (summary) => {
      queued = total(summary);
      return !summary.planning;
    });
  const allMs = performance.now() - start;
  await api(base, "POST", `/api/v1/runs/${run.id}/cancel`);
  return { answerMs, allMs, streamed: run.planning, queued };
}

function medianAndEach(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value: number) => Math.round(value).toLocaleString("en");
  return `${ms(sorted[Math.floor(sorted.length / 2)])} ms (${values.map(ms).join(", ")})`;
}

main().catch((error: unknown) => {
  console.error(error instanceof SetupError ? error.message : error);
  process.exit(error instanceof SetupError ? 2 : 1);
});
