import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import type { Executor } from "@/lib/db/database";
import { userA, type TestDatabase } from "../helpers/databases";

// A cell's run, column and prompt version, and a dataset row's dataset, are checked once per
// statement instead of by a foreign key per row (supabase/migrations/0021_cell_parents_per_statement.sql).
// What the keys guaranteed must still hold: no child names a parent that does not exist, a
// parent's delete takes its children along (or clears the reference), and on a server a delete
// racing an insert leaves no orphan.

interface Family {
  run: string;
  columns: string[];
  version: string;
  dataset: string;
}

/** A run with two columns, a prompt version and a dataset of userA's, and a cell per column. */
async function family(tx: Executor): Promise<Family> {
  const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
  const prompt = await one("insert into prompts (name, text) values ('p', 'hello {{x}}') returning id");
  const version = await one(
    "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 1, 'p', 'hello', 'h') returning id",
    [prompt],
  );
  const dataset = await one("insert into datasets (name, headers, row_count) values ('d', '{x}', 2) returning id");
  await tx.query(`insert into dataset_rows (dataset_id, row_index, data) values ($1, 0, '{"x": "1"}'), ($1, 1, '{"x": "2"}')`, [dataset]);
  const run = await one(
    "insert into runs (prompt_id, prompt_version_id, dataset_id, row_count, status) values ($1, $2, $3, 1, 'paused') returning id",
    [prompt, version, dataset],
  );
  const columns: string[] = [];
  for (const index of [0, 1]) {
    columns.push(
      await one("insert into run_columns (run_id, column_index, provider, model) values ($1, $2, 'mock', 'echo') returning id", [
        run,
        index,
      ]),
    );
  }
  await tx.query(
    `insert into run_cells (run_id, column_id, column_index, row_index, prompt_version_id)
     values ($1, $2, 0, 0, $4), ($1, $3, 1, 0, $4)`,
    [run, columns[0], columns[1], version],
  );
  return { run, columns, version, dataset };
}

const cellInsert = "insert into run_cells (run_id, column_id, column_index, row_index, prompt_version_id) values ($1, $2, 0, $4, $3)";

/** The checks and cascades on one backend; `concurrent` adds the races only a server can have. */
export function describeParentKeys(
  label: string,
  create: () => Promise<TestDatabase | null>,
  { concurrent }: { concurrent: boolean },
): void {
  describe(`a cell's and a dataset row's parents on ${label}`, () => {
    let test: TestDatabase | null = null;

    beforeAll(async () => {
      test = await create();
    });
    afterAll(async () => {
      await test?.drop();
    });

    it("refuses a cell or a row naming a run, column, prompt version or dataset that does not exist", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const mine = await asUser(db, userA, family);
      const nobody = randomUUID();
      const refused = async (sql: string, params: unknown[]) => {
        const error = await asUser(db, userA, (tx) => tx.query(sql, params)).then(
          () => null,
          (caught: unknown) => caught as Error & { code?: string },
        );
        expect(error, `${sql} with ${params.join(", ")} was accepted`).not.toBeNull();
        return { code: error!.code, message: error!.message };
      };
      expect(await refused(cellInsert, [nobody, mine.columns[0], null, 5])).toEqual({
        code: "23503",
        message: `runs ${nobody} does not exist`,
      });
      expect(await refused(cellInsert, [mine.run, nobody, null, 5])).toEqual({
        code: "23503",
        message: `run_columns ${nobody} does not exist`,
      });
      expect(await refused(cellInsert, [mine.run, mine.columns[0], nobody, 5])).toEqual({
        code: "23503",
        message: `prompt_versions ${nobody} does not exist`,
      });
      expect(await refused("insert into dataset_rows (dataset_id, row_index, data) values ($1, 5, '{}')", [nobody])).toEqual({
        code: "23503",
        message: `datasets ${nobody} does not exist`,
      });
      // One bad cell among good ones refuses the whole statement.
      const many = await refused(
        `insert into run_cells (run_id, column_id, column_index, row_index)
         select $1::uuid, $2::uuid, 0, i from generate_series(10, 1009) as i
         union all select $1::uuid, $3::uuid, 0, 2000`,
        [mine.run, mine.columns[0], nobody],
      );
      expect(many.code).toBe("23503");
      const { rows } = await db.query<{ cells: number; rows: number }>(
        `select (select count(*)::int from run_cells where run_id = $1) as cells,
                (select count(*)::int from dataset_rows where dataset_id = $2) as rows`,
        [mine.run, mine.dataset],
      );
      expect(rows[0]).toEqual({ cells: 2, rows: 2 });
    });

    it("deletes a run's and a column's cells and a dataset's rows with them; a deleted version leaves its cells", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const gone = await asUser(db, userA, family);
      const kept = await asUser(db, userA, family);
      const count = async (f: Family) =>
        (
          await db.query<{ cells: number; versioned: number; rows: number }>(
            `select (select count(*)::int from run_cells where run_id = $1) as cells,
                    (select count(*)::int from run_cells where run_id = $1 and prompt_version_id is not null) as versioned,
                    (select count(*)::int from dataset_rows where dataset_id = $2) as rows`,
            [f.run, f.dataset],
          )
        ).rows[0];

      // As the user, through Row Level Security, as the app deletes.
      await asUser(db, userA, (tx) => tx.query("delete from run_columns where id = $1", [gone.columns[1]]));
      expect(await count(gone)).toEqual({ cells: 1, versioned: 1, rows: 2 });
      await asUser(db, userA, (tx) => tx.query("delete from prompt_versions where id = $1", [gone.version]));
      expect(await count(gone)).toEqual({ cells: 1, versioned: 0, rows: 2 });
      await asUser(db, userA, (tx) => tx.query("delete from runs where id = $1", [gone.run]));
      await asUser(db, userA, (tx) => tx.query("delete from datasets where id = $1", [gone.dataset]));
      expect(await count(gone)).toEqual({ cells: 0, versioned: 0, rows: 0 });
      // The other family is untouched.
      expect(await count(kept)).toEqual({ cells: 2, versioned: 2, rows: 2 });
      const orphans = await db.query<{ n: number }>(
        `select count(*)::int as n from run_cells c
          where not exists (select 1 from runs r where r.id = c.run_id)
             or not exists (select 1 from run_columns col where col.id = c.column_id)`,
      );
      expect(orphans.rows[0].n).toBe(0);
    });

    it.runIf(concurrent)("a run deleted while its cells are being inserted leaves no orphan, in either order", async (context) => {
      if (!test) return context.skip();
      const db = test.db;
      const orphansOf = async (run: string) =>
        (await db.query<{ n: number }>("select count(*)::int as n from run_cells where run_id = $1", [run])).rows[0].n;

      // The insert first: the delete waits for it, then its cascade takes the new cells too.
      const first = await asUser(db, userA, family);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let inserted!: () => void;
      const insertDone = new Promise<void>((resolve) => (inserted = resolve));
      const inserting = asUser(db, userA, async (tx) => {
        await tx.query(
          "insert into run_cells (run_id, column_id, column_index, row_index) select $1, $2, 0, i from generate_series(1, 500) as i",
          [first.run, first.columns[0]],
        );
        inserted();
        await released;
      });
      await insertDone;
      let deleted = false;
      const deleting = asUser(db, userA, (tx) => tx.query("delete from runs where id = $1", [first.run])).then(() => (deleted = true));
      // The delete is held by the insert's lock on the run until the insert commits.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(deleted).toBe(false);
      release();
      await inserting;
      await deleting;
      expect(await orphansOf(first.run)).toBe(0);

      // The delete first: the insert waits for it, then finds the run gone.
      const second = await asUser(db, userA, family);
      let deleteRelease!: () => void;
      const deleteReleased = new Promise<void>((resolve) => (deleteRelease = resolve));
      let deletedFirst!: () => void;
      const deleteDone = new Promise<void>((resolve) => (deletedFirst = resolve));
      const deletingFirst = asUser(db, userA, async (tx) => {
        await tx.query("delete from runs where id = $1", [second.run]);
        deletedFirst();
        await deleteReleased;
      });
      await deleteDone;
      const late = asUser(db, userA, (tx) =>
        tx.query(
          "insert into run_cells (run_id, column_id, column_index, row_index) select $1, $2, 0, i from generate_series(1, 500) as i",
          [second.run, second.columns[0]],
        ),
      ).then(
        () => null,
        (error: Error & { code?: string }) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      deleteRelease();
      await deletingFirst;
      const error = await late;
      expect(error?.code).toBe("23503");
      expect(await orphansOf(second.run)).toBe(0);
    });
  });
}
