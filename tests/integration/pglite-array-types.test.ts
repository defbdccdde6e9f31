import { PGlite } from "@electric-sql/pglite";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * lib/db/pglite-thread.mjs gives PGlite the array types of Postgres' own types from
 * lib/db/pglite-array-types.json instead of asking the database at every start.
 */
describe("PGlite's array types from pglite-array-types.json", () => {
  const shipped = JSON.parse(readFileSync(path.join(import.meta.dirname, "../../lib/db/pglite-array-types.json"), "utf8")) as Array<
    [number, number]
  >;

  it("are what a new database of the PGlite in use answers", async () => {
    // PGlite's own query (its _initArrayTypes); a PGlite upgrade that changes the answer fails here.
    const pg = new PGlite();
    try {
      const { rows } = await pg.query<{ oid: number; typarray: number }>(
        `SELECT b.oid, b.typarray FROM pg_catalog.pg_type a LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
          WHERE a.typcategory = 'A' GROUP BY b.oid, b.typarray ORDER BY b.oid`,
      );
      expect(shipped).toEqual(rows.map((row) => [row.oid, row.typarray]));
    } finally {
      await pg.close();
    }
  });

  describe("through the database thread", () => {
    let test: TestDatabase;
    beforeAll(async () => {
      test = await createPgliteTestDatabase();
    });
    afterAll(async () => {
      await test.drop();
    });

    it("parse array columns and serialize array parameters", async () => {
      const { rows } = await test.db.query<{ texts: string[]; ids: string[]; numbers: number[]; echoed: string[] }>(
        "select array['a', 'b,c', null]::text[] as texts, $1::uuid[] as ids, array[1, 2]::int4[] as numbers, $2::text[] as echoed",
        [["00000000-0000-4000-8000-000000000001"], ["x", 'y "z"']],
      );
      expect(rows[0]).toEqual({
        texts: ["a", "b,c", null],
        ids: ["00000000-0000-4000-8000-000000000001"],
        numbers: [1, 2],
        echoed: ["x", 'y "z"'],
      });
    });
  });
});
