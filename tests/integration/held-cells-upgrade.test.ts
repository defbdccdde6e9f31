import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { migrate } from "@/lib/db/migrate";
import { createServerTestDatabase, postgresServerAvailable, userA, type TestDatabase } from "../helpers/databases";

// 0023_claim_ahead_on_a_server.sql marks a held cell with held instead of an empty started_at. A
// database upgraded while a worker held cells keeps knowing which of them were never called.
describe("upgrading a database with cells held ahead to 0023", () => {
  let test: TestDatabase | null = null;
  let db: Database | null = null;

  beforeAll(async () => {
    if (!(await postgresServerAvailable())) return;
    test = await createServerTestDatabase({ migratedBefore: "0023" });
    db = test.db;
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("marks the running cells that 0018 left without started_at as held, and only those", async (context) => {
    if (!db) return context.skip();
    const run = await asUser(db, userA, async (tx) => {
      const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
      const version = await one(
        "insert into prompt_versions (version, name, text, text_hash) values (1, 'p', 'Say {{x}}', 'h') returning id",
      );
      const dataset = await one("insert into datasets (name, headers, row_count) values ('d', '{x}', 3) returning id");
      const id = await one(
        "insert into runs (prompt_version_id, dataset_id, row_count, status) values ($1, $2, 3, 'running') returning id",
        [version, dataset],
      );
      const column = await one(
        "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
        [id],
      );
      await tx.query(
        `insert into run_cells (run_id, column_id, column_index, row_index, status, lease_owner, lease_expires_at, attempts, started_at)
         values ($1, $2, 0, 0, 'running', 'w', now() + interval '1 hour', 1, now()),
                ($1, $2, 0, 1, 'running', 'w', now() + interval '1 hour', 1, null),
                ($1, $2, 0, 2, 'queued', null, null, 0, null)`,
        [id, column],
      );
      return id;
    });

    expect(await migrate(db)).toContain("0023_claim_ahead_on_a_server.sql");

    const { rows } = await db.query<{ row_index: number; held: boolean }>(
      "select row_index, held from run_cells where run_id = $1 order by row_index",
      [run],
    );
    expect(rows).toEqual([
      { row_index: 0, held: false },
      { row_index: 1, held: true },
      { row_index: 2, held: false },
    ]);
  });
});
