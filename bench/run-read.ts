// What reading a large run costs, whole and as the grid reads it (outputs cut to 201 characters):
// the time getRun takes on PGlite on disk (the embedded default), and the size of its JSON answer.
// The run is 10,000 rows x 4 columns with answers of about 1,500 characters, written straight
// into its cells (the engine's speed is bench/run-throughput.ts's business, not this one's).
//
//   npm run bench:read                 # 3 repeats of each read
//   npm run bench:read -- --rows 2000 --repeat 5
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PREVIEW_CHARS } from "@/lib/client/api";
import { openDatabase } from "@/lib/db/open-database";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/engine/run-service";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";

const { values } = parseArgs({ options: { rows: { type: "string", default: "10000" }, repeat: { type: "string", default: "3" } } });
const rows = Number(values.rows);
const repeat = Number(values.repeat);
if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(repeat) || repeat < 1) {
  console.error("--rows and --repeat take positive whole numbers");
  process.exit(2);
}

const userId = "00000000-0000-4000-8000-000000000001";
const folder = mkdtempSync(path.join(os.tmpdir(), "parallaxr-bench-read-"));
const db = await openDatabase({ dataDir: folder });
try {
  const providers = createProviderRegistry([createMockProvider()]);
  const run = await createRun({ db, providers }, {
    userId,
    input: {
      prompt: "Describe {{city}}.",
      rows: Array.from({ length: rows }, (_, index) => ({ city: `city-${index + 1}` })),
      models: ["fast", "echo", "slow", "mock"].map((model) => ({ provider: "mock", model })),
    },
  });
  // Answers of ~1,500 characters, each its own (so nothing compresses into a repeat).
  await db.query(
    `update run_cells set status = 'ok', output_raw = repeat('A long and careful answer. ', 55) || id::text,
            tokens_in = 12, tokens_out = 380, latency_ms = 900, cost_usd = 0.0004, finished_at = now()
      where run_id = $1`,
    [run.id],
  );
  await db.query("update runs set status = 'completed', finished_at = now() where id = $1", [run.id]);

  const measure = async (outputChars: number | null) => {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < repeat + 1; i++) {
      const started = performance.now();
      const read = await getRun({ db }, { userId, runId: run.id, outputChars });
      const json = JSON.stringify(read);
      const elapsed = performance.now() - started;
      bytes = Buffer.byteLength(json);
      if (i > 0) times.push(elapsed); // the first read warms the cache
    }
    times.sort((a, b) => a - b);
    return { ms: times[Math.floor(times.length / 2)], bytes };
  };

  const whole = await measure(null);
  const preview = await measure(PREVIEW_CHARS);
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(`run of ${rows * 4} cells, ~1,500-character answers, PGlite on disk, median of ${repeat}`);
  console.log(`whole outputs:            ${whole.ms.toFixed(0)} ms, ${mb(whole.bytes)}`);
  console.log(`outputChars=${PREVIEW_CHARS} (grid): ${preview.ms.toFixed(0)} ms, ${mb(preview.bytes)}`);
  console.log(`ratio grid / whole:       time ${(preview.ms / whole.ms).toFixed(2)}, size ${(preview.bytes / whole.bytes).toFixed(2)}`);
} finally {
  await db.close();
  rmSync(folder, { recursive: true, force: true });
}
