import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvalSchema } from "@/lib/api/evals";
import { asUser } from "@/lib/db/as-user";
import type { Executor } from "@/lib/db/database";
import { createEval } from "@/lib/engine/create-eval";
import { userA, userB, type TestDatabase } from "../helpers/databases";

/**
 * Each table with an update that changes nothing important, to try from both sides, and how one
 * of its rows is named (its id, unless said: response_cache's rows are named by their key).
 */
const tables: Array<{ table: string; update: string; key?: string }> = [
  { table: "prompts", update: "name = name || '!'" },
  { table: "prompt_versions", update: "name = name || '!'" },
  { table: "datasets", update: "name = name || '!'" },
  { table: "dataset_rows", update: 'data = data || \'{"x": "1"}\'' },
  { table: "models", update: "label = 'changed'" },
  { table: "runs", update: "name = 'changed'" },
  { table: "run_columns", update: "label = 'changed'" },
  { table: "run_cells", update: "manual_grade = 1" },
  { table: "response_cache", update: "latency_ms = 1", key: "encode(cache_key, 'hex')" },
  { table: "pricing", update: "source = 'changed'" },
  { table: "provider_keys", update: "last4 = 'zzzz'" },
  { table: "api_tokens", update: "name = 'changed'" },
  { table: "eval_suites", update: "name = 'changed'" },
  { table: "provider_limits", update: "max_concurrency = 2" },
  { table: "workbench_state", update: "columns = '[]'" },
];

/** One row in every table, owned by the calling user; returns the id of each. */
async function seedEveryTable(tx: Executor): Promise<Record<string, string>> {
  const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
  const ids: Record<string, string> = {};
  ids.prompts = await one("insert into prompts (name, text) values ('p', 'hello {{x}}') returning id");
  ids.prompt_versions = await one(
    "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 1, 'p', 'hello', 'h') returning id",
    [ids.prompts],
  );
  ids.datasets = await one("insert into datasets (name, headers, row_count) values ('d', '{x}', 1) returning id");
  ids.dataset_rows = await one('insert into dataset_rows (dataset_id, row_index, data) values ($1, 0, \'{"x": "1"}\') returning id', [
    ids.datasets,
  ]);
  ids.models = await one("insert into models (provider, model) values ('mock', 'echo') returning id");
  // The run names the user's own prompt, version, grader and dataset: each is checked on insert.
  ids.runs = await one(
    `insert into runs (prompt_id, prompt_version_id, grader_prompt_id, grader_version_id, dataset_id, row_count, status)
     values ($1, $2, $1, $2, $3, 1, 'paused') returning id`,
    [ids.prompts, ids.prompt_versions, ids.datasets],
  );
  ids.run_columns = await one(
    "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
    [ids.runs],
  );
  ids.run_cells = await one(
    "insert into run_cells (run_id, column_id, column_index, row_index, prompt_version_id) values ($1, $2, 0, 0, $3) returning id",
    [ids.runs, ids.run_columns, ids.prompt_versions],
  );
  ids.response_cache = await one(
    "insert into response_cache (cache_key, output_raw) values (parallaxr_cache_key(gen_random_uuid()::text), 'out') returning encode(cache_key, 'hex') as id",
  );
  ids.pricing = await one(
    "insert into pricing (provider, model, input_per_mtok, output_per_mtok) values ('mock', 'echo', 0, 0) returning id",
  );
  ids.provider_keys = await one(
    "insert into provider_keys (provider, ciphertext, iv, auth_tag, last4) values ('openai', 'c', 'i', 't', '7f3a') returning id",
  );
  ids.api_tokens = await one("insert into api_tokens (name, token_hash, last4) values ('t', md5(random()::text), 'abcd') returning id");
  ids.eval_suites = await one("insert into eval_suites (name, config_yaml) values ('e', 'model: x') returning id");
  ids.provider_limits = await one("insert into provider_limits (provider, max_concurrency) values ('openai', 4) returning id");
  ids.workbench_state = await one("insert into workbench_state (active_prompt_id) values ($1) returning id", [ids.prompts]);
  return ids;
}

/** Row Level Security from both sides, for every table and every operation. */
export function describeRls(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`row level security on ${label}`, () => {
    let test: TestDatabase | null = null;
    let owned: Record<string, string> = {};

    beforeAll(async () => {
      test = await create();
      if (test) owned = await asUser(test.db, userA, seedEveryTable);
    });
    afterAll(async () => {
      await test?.drop();
    });

    it("covers every table in the public schema, each with RLS on and four policies", async (context) => {
      if (!test) return context.skip();
      const { rows } = await test.db.query<{ tablename: string; rowsecurity: boolean; policies: number }>(
        `select t.tablename, t.rowsecurity,
                (select count(*)::int from pg_policies p where p.schemaname = 'public' and p.tablename = t.tablename) as policies
           from pg_tables t where t.schemaname = 'public' order by 1`,
      );
      expect(rows.map((row) => row.tablename).sort()).toEqual(tables.map((entry) => entry.table).sort());
      for (const row of rows) {
        expect(row.rowsecurity, row.tablename).toBe(true);
        expect(row.policies, row.tablename).toBe(4);
      }
    });

    for (const { table, update, key = "id" } of tables) {
      it(`${table}: the owner sees, changes and deletes their row`, async (context) => {
        if (!test) return context.skip();
        await asUser(test.db, userA, async (tx) => {
          expect((await tx.query(`select ${key} from ${table} where ${key} = $1`, [owned[table]])).rows).toHaveLength(1);
          expect((await tx.query(`update ${table} set ${update} where ${key} = $1`, [owned[table]])).rowCount).toBe(1);
          // delete inside a savepoint-free check: roll the whole transaction back afterwards
          expect((await tx.query(`delete from ${table} where ${key} = $1`, [owned[table]])).rowCount).toBe(1);
          throw new RollBack();
        }).catch((error) => {
          if (!(error instanceof RollBack)) throw error;
        });
      });

      it(`${table}: another user can neither see, change, delete nor forge the owner's row`, async (context) => {
        if (!test) return context.skip();
        await asUser(test.db, userB, async (tx) => {
          expect((await tx.query(`select ${key} from ${table}`)).rows).toHaveLength(0);
          expect((await tx.query(`update ${table} set ${update} where ${key} = $1`, [owned[table]])).rowCount).toBe(0);
          expect((await tx.query(`delete from ${table} where ${key} = $1`, [owned[table]])).rowCount).toBe(0);
        });
        // writing a row in the owner's name is refused
        await expect(
          asUser(test.db, userB, (tx) => tx.query(`update ${table} set user_id = $1 where ${key} = $2`, [userA, owned[table]])),
        ).resolves.toMatchObject({ rowCount: 0 });
        await expect(
          asUser(test.db, userB, (tx) => tx.query(`insert into prompts (user_id, name) values ($1, 'forged')`, [userA])),
        ).rejects.toThrow(/row-level security/);
        // the owner's row is untouched
        const still = await asUser(test.db, userA, (tx) => tx.query(`select ${key} from ${table} where ${key} = $1`, [owned[table]]));
        expect(still.rows).toHaveLength(1);
      });
    }

    it("another user cannot attach rows to the owner's run or dataset by id", async (context) => {
      if (!test) return context.skip();
      await expect(
        asUser(test.db, userB, (tx) =>
          tx.query("insert into run_cells (run_id, column_id, column_index, row_index) values ($1, $2, 0, 5)", [
            owned.runs,
            owned.run_columns,
          ]),
        ),
      ).rejects.toThrow(/does not belong to this user/);
      await expect(
        asUser(test.db, userB, (tx) =>
          tx.query("insert into dataset_rows (dataset_id, row_index, data) values ($1, 9, '{}')", [owned.datasets]),
        ),
      ).rejects.toThrow(/does not belong to this user/);
      await expect(
        asUser(test.db, userB, (tx) =>
          tx.query("insert into run_columns (run_id, column_index, provider, model) values ($1, 7, 'mock', 'x')", [owned.runs]),
        ),
      ).rejects.toThrow(/does not belong to this user/);
    });

    it("a user cannot move their own child rows under the owner's run or dataset", async (context) => {
      if (!test) return context.skip();
      const mine = await asUser(test.db, userB, seedEveryTable);
      await expect(
        asUser(test.db, userB, (tx) => tx.query("update run_cells set run_id = $1 where id = $2", [owned.runs, mine.run_cells])),
      ).rejects.toThrow(/cannot move/);
      await expect(
        asUser(test.db, userB, (tx) => tx.query("update run_columns set run_id = $1 where id = $2", [owned.runs, mine.run_columns])),
      ).rejects.toThrow(/cannot move/);
      await expect(
        asUser(test.db, userB, (tx) =>
          tx.query("update dataset_rows set dataset_id = $1 where id = $2", [owned.datasets, mine.dataset_rows]),
        ),
      ).rejects.toThrow(/cannot move/);
    });

    it("datasets.content_hash is unique per user: the same file is each user's own, and one user's tells nothing of another's", async (context) => {
      if (!test) return context.skip();
      const store = (user: string) =>
        asUser(test!.db, user, (tx) =>
          tx.query<{ id: string }>(
            `insert into datasets (name, headers, row_count, content_hash) values ('same.csv', '{x}', 1, 'hash-of-same')
             on conflict (user_id, content_hash) where content_hash is not null do nothing returning id`,
          ),
        );
      expect((await store(userA)).rows).toHaveLength(1);
      // Another user's identical upload is stored: the index does not reach across users.
      expect((await store(userB)).rows).toHaveLength(1);
      // The owner's second copy is not.
      expect((await store(userA)).rows).toHaveLength(0);
      const seen = await asUser(test.db, userB, (tx) => tx.query("select id from datasets where content_hash = 'hash-of-same'"));
      expect(seen.rows).toHaveLength(1);
      await expect(
        asUser(test.db, userA, (tx) =>
          tx.query("insert into datasets (name, headers, row_count, content_hash) values ('again.csv', '{x}', 1, 'hash-of-same')"),
        ),
      ).rejects.toThrow(/duplicate key|unique/);
    });

    // A run's other references: what the worker renders into its cells (prompt text, rows, grader).
    const runReferences: Array<{ column: string; parent: string }> = [
      { column: "prompt_id", parent: "prompts" },
      { column: "prompt_version_id", parent: "prompt_versions" },
      { column: "grader_prompt_id", parent: "prompts" },
      { column: "grader_version_id", parent: "prompt_versions" },
      { column: "dataset_id", parent: "datasets" },
    ];

    for (const { column, parent } of runReferences) {
      it(`runs.${column}: the owner names their own ${parent} row, another user cannot name it`, async (context) => {
        if (!test) return context.skip();
        const mine = await asUser(test.db, userA, (tx) =>
          tx.query<{ id: string }>(`insert into runs (${column}, status) values ($1, 'paused') returning id`, [owned[parent]]),
        );
        expect(mine.rows).toHaveLength(1);
        await expect(
          asUser(test.db, userB, (tx) => tx.query(`insert into runs (${column}, status) values ($1, 'paused')`, [owned[parent]])),
        ).rejects.toThrow(/does not belong to this user/);
        // nor point a run of their own at it afterwards
        await expect(
          asUser(test.db, userB, async (tx) => {
            const run = await tx.query<{ id: string }>("insert into runs (status) values ('paused') returning id");
            await tx.query(`update runs set ${column} = $1 where id = $2`, [owned[parent], run.rows[0].id]);
          }),
        ).rejects.toThrow(/cannot move/);
      });
    }

    it("a run's references are fixed once written, even to the owner's own rows, but may be cleared by a delete", async (context) => {
      if (!test) return context.skip();
      await expect(
        asUser(test.db, userA, async (tx) => {
          const other = await tx.query<{ id: string }>(
            "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 2, 'p', 'hi', 'h2') returning id",
            [owned.prompts],
          );
          await tx.query("update runs set prompt_version_id = $1 where id = $2", [other.rows[0].id, owned.runs]);
        }),
      ).rejects.toThrow(/cannot move/);
      // deleting the prompt sets runs.prompt_id and prompt_versions.prompt_id to null: allowed
      await asUser(test.db, userA, async (tx) => {
        await tx.query("delete from prompts where id = $1", [owned.prompts]);
        const run = await tx.query<{ prompt_id: string | null; prompt_version_id: string }>(
          "select prompt_id, prompt_version_id from runs where id = $1",
          [owned.runs],
        );
        expect(run.rows[0]).toEqual({ prompt_id: null, prompt_version_id: owned.prompt_versions });
        throw new RollBack();
      }).catch((error) => {
        if (!(error instanceof RollBack)) throw error;
      });
    });

    it("prompt_versions.prompt_id: the owner versions their own prompt, another user cannot version it", async (context) => {
      if (!test) return context.skip();
      const version = "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 9, 'p', 'x', 'x') returning id";
      expect((await asUser(test.db, userA, (tx) => tx.query(version, [owned.prompts]))).rows).toHaveLength(1);
      await expect(asUser(test.db, userB, (tx) => tx.query(version, [owned.prompts]))).rejects.toThrow(/does not belong to this user/);
      await expect(
        asUser(test.db, userB, async (tx) => {
          const mine = await tx.query<{ id: string }>(
            "insert into prompt_versions (version, name, text, text_hash) values (1, 'p', 'x', 'x') returning id",
          );
          await tx.query("update prompt_versions set prompt_id = $1 where id = $2", [owned.prompts, mine.rows[0].id]);
        }),
      ).rejects.toThrow(/cannot move/);
    });

    it("run_cells.column_id: a cell's column is of the same run and owner", async (context) => {
      if (!test) return context.skip();
      const cell = "insert into run_cells (run_id, column_id, column_index, row_index) values ($1, $2, 0, $3)";
      // the owner: a cell on their run's own column
      expect((await asUser(test.db, userA, (tx) => tx.query(cell, [owned.runs, owned.run_columns, 1]))).rowCount).toBe(1);
      // another user: their own run, the owner's column
      await expect(
        asUser(test.db, userB, async (tx) => {
          const run = await tx.query<{ id: string }>("insert into runs (status) values ('paused') returning id");
          await tx.query(cell, [run.rows[0].id, owned.run_columns, 0]);
        }),
      ).rejects.toThrow(/does not belong to this run/);
      // the owner again: a column of another of their own runs is refused too
      await expect(
        asUser(test.db, userA, async (tx) => {
          const run = await tx.query<{ id: string }>("insert into runs (status) values ('paused') returning id");
          await tx.query(cell, [run.rows[0].id, owned.run_columns, 0]);
        }),
      ).rejects.toThrow(/does not belong to this run/);
    });

    it("run_cells.prompt_version_id: the owner names their own version, another user cannot name it", async (context) => {
      if (!test) return context.skip();
      const cell =
        "insert into run_cells (run_id, column_id, column_index, row_index, variant, prompt_version_id) values ($1, $2, 0, 0, $4, $3)";
      expect(
        (await asUser(test.db, userA, (tx) => tx.query(cell, [owned.runs, owned.run_columns, owned.prompt_versions, 1]))).rowCount,
      ).toBe(1);
      // another user, on a run and column of their own
      const mine = await asUser(test.db, userB, async (tx) => {
        const run = (await tx.query<{ id: string }>("insert into runs (status) values ('paused') returning id")).rows[0].id;
        const column = (
          await tx.query<{ id: string }>(
            "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
            [run],
          )
        ).rows[0].id;
        const cellId = (
          await tx.query<{ id: string }>(
            "insert into run_cells (run_id, column_id, column_index, row_index) values ($1, $2, 0, 0) returning id",
            [run, column],
          )
        ).rows[0].id;
        return { run, column, cellId };
      });
      await expect(asUser(test.db, userB, (tx) => tx.query(cell, [mine.run, mine.column, owned.prompt_versions, 1]))).rejects.toThrow(
        /does not belong to this user/,
      );
      await expect(
        asUser(test.db, userB, (tx) =>
          tx.query("update run_cells set prompt_version_id = $1 where id = $2", [owned.prompt_versions, mine.cellId]),
        ),
      ).rejects.toThrow(/cannot move/);
    });

    it("a matrix run and its inputs (dataset source 'matrix'): the owner reads and changes them, another user sees and changes none", async (context) => {
      if (!test) return context.skip();
      const matrix = await asUser(test.db, userA, async (tx) => {
        const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
        const version = await one(
          "insert into prompt_versions (version, name, text, text_hash) values (1, 'v1', '{{input}}', 'h') returning id",
        );
        const dataset = await one(
          "insert into datasets (name, source, headers, row_count) values ('20261126_120000_matrix', 'matrix', '{id}', 1) returning id",
        );
        const row = await one('insert into dataset_rows (dataset_id, row_index, data) values ($1, 0, \'{"id": "a"}\') returning id', [
          dataset,
        ]);
        const run = await one(
          "insert into runs (kind, prompt_version_id, dataset_id, row_count, status, config) values ('matrix', $1, $2, 1, 'paused', '{\"matrix\": {}}') returning id",
          [version, dataset],
        );
        const column = await one(
          "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
          [run],
        );
        const cell = await one(
          "insert into run_cells (run_id, column_id, column_index, row_index, prompt_version_id) values ($1, $2, 0, 0, $3) returning id",
          [run, column, version],
        );
        return { dataset, row, run, cell };
      });
      const seen = (userId: string) =>
        asUser(test!.db, userId, async (tx) => ({
          runs: (await tx.query("select id from runs where id = $1 and kind = 'matrix'", [matrix.run])).rows.length,
          cells: (await tx.query("select id from run_cells where id = $1", [matrix.cell])).rows.length,
          datasets: (await tx.query("select id from datasets where id = $1 and source = 'matrix'", [matrix.dataset])).rows.length,
          rows: (await tx.query("select id from dataset_rows where id = $1", [matrix.row])).rows.length,
        }));
      expect(await seen(userA)).toEqual({ runs: 1, cells: 1, datasets: 1, rows: 1 });
      expect(await seen(userB)).toEqual({ runs: 0, cells: 0, datasets: 0, rows: 0 });
      const changed = (userId: string) =>
        asUser(test!.db, userId, async (tx) => ({
          cells: (await tx.query("update run_cells set manual_grade = 1 where id = $1", [matrix.cell])).rowCount,
          rows: (await tx.query("delete from dataset_rows where id = $1", [matrix.row])).rowCount,
        }));
      expect(await changed(userB)).toEqual({ cells: 0, rows: 0 });
      expect(await changed(userA)).toEqual({ cells: 1, rows: 1 });
    });

    it("an eval (kind 'eval', its plan in the run's config, its test cases a dataset of source 'eval'): the owner reads its cells, plan and test cases, another user sees and changes none", async (context) => {
      if (!test) return context.skip();
      const config = `model: mock/fast
prompts:
  - name: p
    template: "Say {x}"
test_cases:
  - name: secret_case
    inputs: {x: hidden}
  - name: other_case
    inputs: {x: also hidden}
`;
      const created = await createEval({ db: test.db }, { userId: userA, input: createEvalSchema.parse({ config }) });
      const seen = (userId: string) =>
        asUser(test!.db, userId, async (tx) => ({
          runs: (await tx.query("select id from runs where kind = 'eval'")).rows.length,
          plans: (await tx.query("select config -> 'eval' as plan from runs where id = $1 and config ? 'eval'", [created.id])).rows.length,
          cells: (await tx.query("select id from run_cells where run_id = $1", [created.id])).rows.length,
          testCaseSets: (await tx.query("select id from datasets where source = 'eval'")).rows.length,
          testCases: (
            await tx.query(
              "select r.id from dataset_rows r join runs on runs.dataset_id = r.dataset_id where runs.id = $1 union all select id from dataset_rows where data::text like '%secret_case%'",
              [created.id],
            )
          ).rows.length,
          versions: (
            await tx.query("select v.id from prompt_versions v join run_cells c on c.prompt_version_id = v.id where c.run_id = $1", [
              created.id,
            ])
          ).rows.length,
        }));
      expect(await seen(userA)).toEqual({ runs: 1, plans: 1, cells: 2, testCaseSets: 1, testCases: 3, versions: 2 });
      expect(await seen(userB)).toEqual({ runs: 0, plans: 0, cells: 0, testCaseSets: 0, testCases: 0, versions: 0 });
      const changed = (userId: string) =>
        asUser(test!.db, userId, async (tx) => ({
          plans: (await tx.query("update runs set config = '{}' where id = $1", [created.id])).rowCount,
          cells: (await tx.query("update run_cells set metric_scores = null, manual_grade = 1 where run_id = $1", [created.id])).rowCount,
          testCases: (await tx.query("update dataset_rows set data = '{}' where data::text like '%secret_case%'")).rowCount,
        }));
      expect(await changed(userB)).toEqual({ plans: 0, cells: 0, testCases: 0 });
      await expect(
        asUser(test.db, userB, (tx) => tx.query("delete from run_cells where run_id = $1", [created.id])),
      ).resolves.toMatchObject({
        rowCount: 0,
      });
      expect(await seen(userA)).toEqual({ runs: 1, plans: 1, cells: 2, testCaseSets: 1, testCases: 3, versions: 2 });
    });

    it("a request with no user sees nothing", async (context) => {
      if (!test) return context.skip();
      const counts = await test.db.transaction(async (tx) => {
        await tx.query("set local role authenticated");
        return (await tx.query<{ n: number }>("select count(*)::int as n from prompts")).rows[0].n;
      });
      expect(counts).toBe(0);
    });

    it("prompt versions cannot be rewritten, even by their owner", async (context) => {
      if (!test) return context.skip();
      await expect(
        asUser(test.db, userA, (tx) => tx.query("update prompt_versions set text = 'changed' where id = $1", [owned.prompt_versions])),
      ).rejects.toThrow(/immutable/);
    });
  });
}

class RollBack extends Error {}
