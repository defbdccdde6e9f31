/**
 * Creating a large run through the product: POST /api/v1/runs of ROWS inline rows x 4 mock models
 * (100,000 cells at the default 25,000 rows) to the production server, timed from the request to
 * the answer (the run exists with every cell queued), on PGlite and the Postgres server. Each run
 * is cancelled before the next, so the mock provider's calls stay out of the way.
 *
 *   npm run build && npm run bench:create -- [--backend pglite|postgres|both] [--rows 25000] [--repeat 3]
 *
 * Prints each request and a table of medians; exits 1 when a run does not have every cell.
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { api } from "./drive";
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
      const walls: number[] = [];
      for (let round = 1; round <= repeat; round++) {
        const { ms, queued } = await createAndCancel(server.url, rows, round);
        walls.push(ms);
        console.log(
          `[${backend}] round ${round}: ${Math.round(ms).toLocaleString("en")} ms, ${queued.toLocaleString("en")} cells queued, RSS ${Math.round(server.rssMb())} MB`,
        );
        if (queued !== cells) problems.push(`${backend} round ${round}: ${queued} cells queued, not ${cells}`);
      }
      walls.sort((a, b) => a - b);
      table.push(
        `| ${backend} | ${cells.toLocaleString("en")} | ${Math.round(walls[Math.floor(walls.length / 2)]).toLocaleString("en")} ms | ${walls.map((ms) => Math.round(ms).toLocaleString("en")).join(", ")} |`,
      );
    } finally {
      await server.stop();
      await server.dispose();
    }
  }
  console.log("\n| backend | cells | POST to answer (median) | each |\n|---|---|---|---|");
  for (const line of table) console.log(line);
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
}

/** Creates one run (timed), counts its queued cells from the answer, then cancels it. */
async function createAndCancel(base: string, rows: number, round: number): Promise<{ ms: number; queued: number }> {
  const body = {
    prompt: `Round ${round}: summarise item {{id}}: {{text}}`,
    rows: Array.from({ length: rows }, (_, i) => ({ id: String(i), text: `row ${i} of a large run` })),
    models,
    cache: false,
  };
  const start = performance.now();
  const run = await api<{ id: string; counts: Record<string, number> }>(base, "POST", "/api/v1/runs", body);
  const ms = performance.now() - start;
  await api(base, "POST", `/api/v1/runs/${run.id}/cancel`);
  return { ms, queued: (run.counts.queued ?? 0) + (run.counts.running ?? 0) };
}

main().catch((error: unknown) => {
  console.error(error instanceof SetupError ? error.message : error);
  process.exit(error instanceof SetupError ? 2 : 1);
});
