// What reading a large run costs, whole and as the grid reads it (outputs cut to 201 characters):
// the time getRun takes on PGlite on disk (the embedded default), and the size of its JSON answer.
// The run is 10,000 rows x 4 columns with answers of about 1,500 characters, written straight
// into its cells (the engine's speed is bench/run-throughput.ts's business, not this one's), as
// the worker stores them: deflated (lib/db/cells/packed-answer.ts), or as text with --text.
//
//   npm run bench:read                 # 3 repeats of each read
//   npm run bench:read -- --rows 2000 --repeat 5
//   npm run bench:read -- --text       # answers stored as text, as before 0022_smaller_cells.sql
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PREVIEW_CHARS } from "@/lib/client/api";
import { asUser } from "@/lib/db/as-user";
import { openDatabase } from "@/lib/db/open-database";
import { listCells } from "@/lib/db/cells/list-cells";
import { packAnswer } from "@/lib/db/cells/packed-answer";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "10000" },
    repeat: { type: "string", default: "3" },
    text: { type: "boolean", default: false },
  },
});
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
  const run = await createRun(
    { db, providers },
    {
      userId,
      input: {
        prompt: "Describe {{city}}.",
        rows: Array.from({ length: rows }, (_, index) => ({ city: `city-${index + 1}` })),
        models: ["fast", "echo", "slow", "mock"].map((model) => ({ provider: "mock", model })),
      },
    },
  );
  // Answers of ~1,500 characters, each its own prose (so nothing compresses into a repeat).
  const ids = (await db.query<{ id: string }>("select id from run_cells where run_id = $1", [run.id])).rows.map((row) => row.id);
  for (let from = 0; from < ids.length; from += 2_000) {
    const chunk = ids.slice(from, from + 2_000);
    const stored = chunk.map((id) => (values.text ? { output_raw: answer(id), output_z: null } : packAnswer(answer(id))));
    await db.query(
      `update run_cells c set status = 'ok', output_raw = a.raw, output_z = decode(a.z, 'base64'), parsed_is_raw = true,
              tokens_in = 12, tokens_out = 380, latency_ms = 900, cost_usd = 0.0004, finished_at = now()
         from unnest($1::uuid[], $2::text[], $3::text[]) as a(id, raw, z)
        where c.id = a.id`,
      [chunk, stored.map((one) => one.output_raw), stored.map((one) => one.output_z)],
    );
  }
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

  // The cells alone, two ways: listCells (one json_agg text, parsed here) against the reader it
  // replaced, one result row per cell with the same columns.
  const median = async (read: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < repeat + 1; i++) {
      const started = performance.now();
      await read();
      if (i > 0) times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  };
  const rowByRow = await median(() =>
    asUser(db, userId, (tx) =>
      tx.query(
        `select id, row_index, column_index, trial, status, left(output_raw, ${PREVIEW_CHARS}) as output_raw,
                left(output_parsed, ${PREVIEW_CHARS}) as output_parsed,
                coalesce(length(output_raw) > ${PREVIEW_CHARS} or length(output_parsed) > ${PREVIEW_CHARS}, false) as output_truncated,
                tokens_in, tokens_out, tokens_estimated, latency_ms, cost_usd, finish_reason, error_message, error_code, warnings,
                attempts, cached, grade, manual_grade, seq, updated_at, grader_status, grader_output_raw, grader_error, grader_cost_usd
           from run_cells where run_id = $1 order by row_index, column_index, variant, trial`,
        [run.id],
      ),
    ),
  );
  const aggregated = await median(() => asUser(db, userId, (tx) => listCells(tx, { runId: run.id, outputChars: PREVIEW_CHARS })));
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  console.log(
    `run of ${rows * 4} cells, ~1,500-character answers stored ${values.text ? "as text" : "deflated"}, PGlite on disk, median of ${repeat}`,
  );
  console.log(`whole outputs:            ${whole.ms.toFixed(0)} ms, ${mb(whole.bytes)}`);
  console.log(`outputChars=${PREVIEW_CHARS} (grid): ${preview.ms.toFixed(0)} ms, ${mb(preview.bytes)}`);
  console.log(`ratio grid / whole:       time ${(preview.ms / whole.ms).toFixed(2)}, size ${(preview.bytes / whole.bytes).toFixed(2)}`);
  console.log(
    `cells alone (grid read): one row per cell ${rowByRow.toFixed(0)} ms, listCells (json_agg) ${aggregated.toFixed(0)} ms, ratio ${(aggregated / rowByRow).toFixed(2)}${
      values.text ? "" : " (the one-row reader reads output_raw only, empty for deflated answers: compare the two with --text)"
    }`,
  );
} finally {
  await db.close();
  rmSync(folder, { recursive: true, force: true });
}

/** ~1,500 characters of prose, different for every seed. */
function answer(seed: string): string {
  const words = (
    "the model reads each question and answers it with care so that a person can check what it says " +
    "about tides storms weather rivers mountains cities people history language numbers results data " +
    "because however usually often instead while within without across between after before during"
  ).split(" ");
  let state = 2166136261;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 16777619) >>> 0;
  let text = "";
  while (text.length < 1500) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    text += `${words[state % words.length]}${state % 11 === 0 ? ". " : " "}`;
  }
  return text.slice(0, 1500);
}
