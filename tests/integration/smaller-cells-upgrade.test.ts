import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { migrate } from "@/lib/db/migrate";
import { getRun } from "@/lib/services/runs";
import { createServerTestDatabase, postgresServerAvailable, userA, type TestDatabase } from "../helpers/databases";

// 0022_smaller_cells.sql changes how a database that already holds cells stores them: input_hash
// becomes the hash's bytes. A database migrated up to 0021, with cells in it, is migrated on, and
// what it held reads as before.
describe("upgrading a database that holds cells to 0022 (smaller cells)", () => {
  let test: TestDatabase | null = null;
  let db: Database | null = null;

  beforeAll(async () => {
    if (!(await postgresServerAvailable())) return;
    test = await createServerTestDatabase({ migratedBefore: "0022" });
    db = test.db;
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("keeps each cell's answer and turns its input hash into bytes", async (context) => {
    if (!db) return context.skip();
    const hex = createHash("sha256").update("Tell me about tides").digest("hex");
    const run = await asUser(db, userA, async (tx) => {
      const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
      const prompt = await one("insert into prompts (name, text) values ('p', 'Tell me about {{x}}') returning id");
      const version = await one(
        "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 1, 'p', 'Tell me about {{x}}', 'h') returning id",
        [prompt],
      );
      const dataset = await one("insert into datasets (name, headers, row_count) values ('d', '{x}', 2) returning id");
      const id = await one(
        "insert into runs (prompt_id, prompt_version_id, dataset_id, row_count, status) values ($1, $2, $3, 2, 'completed') returning id",
        [prompt, version, dataset],
      );
      const column = await one(
        "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
        [id],
      );
      await tx.query(
        `insert into run_cells (run_id, column_id, column_index, row_index, status, input_hash, output_raw, parsed_is_raw)
         values ($1, $2, 0, 0, 'ok', $3, 'Tides rise twice a day.', true), ($1, $2, 0, 1, 'ok', 'not a hex hash', 'Storms pass.', true)`,
        [id, column, hex],
      );
      return id;
    });

    expect(await migrate(db)).toContain("0022_smaller_cells.sql");

    const stored = await db.query<{ row_index: number; input_hash: Buffer; output_z: Buffer | null }>(
      "select row_index, input_hash, output_z from run_cells where run_id = $1 order by row_index",
      [run],
    );
    expect(stored.rows.map((row) => Buffer.from(row.input_hash).toString("hex"))).toEqual([
      hex,
      createHash("sha256").update("not a hex hash").digest("hex"),
    ]);
    expect(stored.rows.map((row) => row.output_z)).toEqual([null, null]);
    const read = await getRun({ db }, { userId: userA, runId: run });
    expect(read.cells.map((cell) => [cell.output, cell.outputParsed])).toEqual([
      ["Tides rise twice a day.", "Tides rise twice a day."],
      ["Storms pass.", "Storms pass."],
    ]);
  });
});
