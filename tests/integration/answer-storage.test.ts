import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { listCellChanges } from "@/lib/db/cells/list-cell-changes";
import { exportRun } from "@/lib/services/export-run";
import { getRun, getRunCell } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA } from "../helpers/databases";
import { pgliteEngine, runToEnd } from "../helpers/engine";

// An answer is stored once (0020_one_copy_of_each_answer.sql): a cell whose parsed output is its
// raw output (a prompt that asks for no JSON or <response>) keeps the text in output_raw alone,
// and the response cache names that cell instead of keeping a copy (0022). Every reader still
// sees outputParsed as before.
describe("one stored copy of each answer", () => {
  const providers = createProviderRegistry([createMockProvider()]);
  const test = pgliteEngine(providers);

  it("stores a plain answer once, in the cell, and reads it back as parsed", async () => {
    const plain = {
      prompt: "Tell me about {{topic}}",
      rows: [{ topic: "tides" }, { topic: "storms" }],
      models: [{ provider: "mock", model: "echo", params: { latencyMs: 0 } }],
      cache: true,
    };
    const run = await runToEnd({ db: test.db, providers }, { userId: userA, input: plain });
    const stored = await test.db.query<{ output_raw: string; output_parsed: string | null; parsed_is_raw: boolean }>(
      "select output_raw, output_parsed, parsed_is_raw from run_cells where run_id = $1 order by row_index",
      [run.id],
    );
    expect(stored.rows).toHaveLength(2);
    for (const row of stored.rows) {
      expect(row.output_raw).toContain("MOCK RESPONSE");
      expect(row).toMatchObject({ output_parsed: null, parsed_is_raw: true });
    }
    // the cache names the cell instead of copying its answer (0022_smaller_cells.sql)
    const cached = await test.db.query<{ output_raw: string | null; output_parsed: string | null; answer: string }>(
      `select r.output_raw, r.output_parsed, c.output_raw as answer
         from response_cache r join run_cells c on c.id = r.cell_id
        where r.user_id = $1 and c.output_raw like '%Tell me about tides%'`,
      [userA],
    );
    expect(cached.rows).toEqual([{ output_raw: null, output_parsed: null, answer: stored.rows[0].output_raw }]);

    // every reader: the run, its previews, one cell, the events stream's reader, the export
    const read = await getRun({ db: test.db }, { userId: userA, runId: run.id });
    for (const cell of read.cells) expect(cell.outputParsed).toBe(cell.output);
    const preview = await getRun({ db: test.db }, { userId: userA, runId: run.id, outputChars: 10 });
    for (const cell of preview.cells)
      expect(cell).toMatchObject({ output: "MOCK RESPO", outputParsed: "MOCK RESPO", outputTruncated: true });
    const one = await getRunCell({ db: test.db }, { userId: userA, runId: run.id, cellId: read.cells[0].id });
    expect(one.outputParsed).toBe(one.output);
    const changes = await asUser(test.db, userA, (tx) => listCellChanges(tx, { runId: run.id, afterSeq: 0, outputChars: null }));
    for (const cell of changes) expect(cell.outputParsed).toBe(cell.output);
    const file = await exportRun({ db: test.db }, { userId: userA, runId: run.id, format: "json" });
    const exported = JSON.parse(String(file.body)) as { cells: { output: string; outputParsed: string }[] };
    for (const cell of exported.cells) expect(cell.outputParsed).toBe(cell.output);

    // a second run of the same inputs is answered from the cache, with the same text
    const again = await runToEnd({ db: test.db, providers }, { userId: userA, input: plain });
    const hits = again.cells.sort((a, b) => a.row - b.row);
    expect(hits.map((cell) => cell.cached)).toEqual([true, true]);
    expect(hits.map((cell) => [cell.output, cell.outputParsed])).toEqual(
      read.cells.sort((a, b) => a.row - b.row).map((cell) => [cell.output, cell.output]),
    );
  });

  it("keeps a parsed output that differs from the raw one, and none for a malformed answer", async () => {
    // The mock echoes its input: the echo carries the prompt's <response> section, which is the parsed output.
    const run = await runToEnd(
      { db: test.db, providers },
      {
        userId: userA,
        input: {
          prompt: "Answer as <response>{{answer}}</response>",
          rows: [{ answer: "forty-two" }],
          models: [{ provider: "mock", model: "echo", params: { latencyMs: 0 } }],
          cache: false,
        },
      },
    );
    const [cell] = run.cells;
    expect(cell.status).toBe("ok");
    expect(cell.outputParsed).toBe("forty-two");
    expect(cell.output).toContain("MOCK RESPONSE");
    const stored = await test.db.query<{ output_parsed: string | null; parsed_is_raw: boolean }>(
      "select output_parsed, parsed_is_raw from run_cells where id = $1",
      [cell.id],
    );
    expect(stored.rows[0]).toEqual({ output_parsed: "forty-two", parsed_is_raw: false });
  });

  it("stores a long answer deflated, and every reader gets it back, cut as Postgres cuts text", async () => {
    // ~1,600 characters of prose with characters of two UTF-16 units in it, where a cut can fall
    const sentence = "Tides rise twice a day 🌊 as the moon pulls the sea, and café owners on the coast know it. ";
    const text = sentence.repeat(18);
    const input = {
      prompt: "Summarise: {{text}}",
      rows: [{ text }],
      models: [{ provider: "mock", model: "echo", params: { latencyMs: 0 } }],
      cache: true,
    };
    const run = await runToEnd({ db: test.db, providers }, { userId: userA, input });
    const [cell] = run.cells;
    expect(cell.output).toContain(text);
    expect(cell.outputParsed).toBe(cell.output);
    const stored = await test.db.query<{ output_raw: string | null; packed: number }>(
      "select output_raw, octet_length(output_z) as packed from run_cells where id = $1",
      [cell.id],
    );
    expect(stored.rows[0].output_raw).toBeNull();
    expect(stored.rows[0].packed).toBeLessThan(Buffer.byteLength(cell.output!) * 0.8);
    // and what was sent is hashed into 32 bytes, not 64 hex characters (0022)
    const hash = await test.db.query<{ hex: string; bytes: number }>(
      "select encode(input_hash, 'hex') as hex, octet_length(input_hash) as bytes from run_cells where id = $1",
      [cell.id],
    );
    expect(hash.rows[0]).toEqual({ hex: createHash("sha256").update(`Summarise: ${text}`).digest("hex"), bytes: 32 });

    // a cut of the preview matches Postgres' left() of the same text, wherever it falls: before,
    // on and after a character of two UTF-16 units (where a cut by units would split it)
    const characters = Array.from(cell.output!);
    const first = characters.indexOf("🌊");
    const second = characters.indexOf("🌊", first + 1);
    expect(cell.output!.slice(0, second + 1)).not.toBe(characters.slice(0, second + 1).join(""));
    for (const chars of [10, first, first + 1, second, second + 1, 1000, 100_000]) {
      const preview = await getRun({ db: test.db }, { userId: userA, runId: run.id, outputChars: chars });
      const expected = await test.db.query<{ text: string; cut: boolean }>(
        "select left($1::text, $2) as text, length($1::text) > $2 as cut",
        [cell.output, chars],
      );
      expect(preview.cells[0]).toMatchObject({
        output: expected.rows[0].text,
        outputParsed: expected.rows[0].text,
        outputTruncated: expected.rows[0].cut,
      });
    }
    const one = await getRunCell({ db: test.db }, { userId: userA, runId: run.id, cellId: cell.id });
    expect(one.output).toBe(cell.output);
    const changes = await asUser(test.db, userA, (tx) => listCellChanges(tx, { runId: run.id, afterSeq: 0, outputChars: null }));
    expect(changes.map((change) => change.output)).toEqual([cell.output]);
    const file = await exportRun({ db: test.db }, { userId: userA, runId: run.id, format: "json" });
    expect((JSON.parse(String(file.body)) as { cells: { output: string }[] }).cells[0].output).toBe(cell.output);

    // the cache answers the same input with the same text
    const again = await runToEnd({ db: test.db, providers }, { userId: userA, input });
    expect(again.cells[0]).toMatchObject({ cached: true, output: cell.output });
  });
});
