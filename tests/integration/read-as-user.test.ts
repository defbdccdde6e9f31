import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser, readAsUser } from "@/lib/db/as-user";
import { userA, userB, type TestDatabase, testBackends } from "../helpers/databases";

// readAsUser sends a read's statements to the database together (db.batch): on PGlite one message
// to its thread instead of a BEGIN, the claims, each statement and a COMMIT, each waiting for a turn
// of the server's busy thread while the worker's saves and claims wait behind the open transaction.

describe.each(testBackends)("readAsUser on %s", (_name, create) => {
  let test: TestDatabase | null = null;
  let promptOfA = "";

  beforeAll(async () => {
    test = await create();
    if (!test) return;
    promptOfA = await asUser(test.db, userA, async (tx) => {
      const { rows } = await tx.query<{ id: string }>("insert into prompts (name, text) values ('of A', 'a') returning id");
      return rows[0].id;
    });
    await asUser(test.db, userB, (tx) => tx.query("insert into prompts (name, text) values ('of B', 'b')"));
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("answers each statement, in one snapshot, as the user: another user's rows stay hidden", async (context) => {
    if (!test) return context.skip();
    const [names, count, now] = await readAsUser(test.db, userA, (tx) =>
      Promise.all([
        tx.query<{ name: string }>("select name from prompts order by name"),
        tx.query<{ n: number }>("select count(*)::int as n from prompts"),
        tx.query<{ same: boolean }>("select now() = statement_timestamp() as same"),
      ]),
    );
    expect(names.rows.map((row) => row.name)).toEqual(["of A"]);
    expect(count.rows[0].n).toBe(1);
    // one transaction: now() is its start, and the third statement started after it
    expect(now.rows).toHaveLength(1);
    const asB = await readAsUser(test.db, userB, (tx) => tx.query<{ id: string }>("select id from prompts where id = $1", [promptOfA]));
    expect(asB.rows).toEqual([]);
  });

  it("refuses a statement asked for after the others were sent, naming it", async (context) => {
    if (!test) return context.skip();
    await expect(
      readAsUser(test.db, userA, async (tx) => {
        await tx.query("select 1");
        return tx.query("select name from prompts");
      }),
    ).rejects.toThrow(/readAsUser: a statement asked for after the others were sent: select name from prompts/);
  });

  it("rolls back and rejects every statement when one fails", async (context) => {
    if (!test) return context.skip();
    const outcome = readAsUser(test.db, userA, (tx) =>
      Promise.all([tx.query("update prompts set name = 'renamed' where id = $1", [promptOfA]), tx.query("select 1/0")]),
    );
    await expect(outcome).rejects.toThrow(/division by zero/);
    const { rows } = await asUser(test.db, userA, (tx) =>
      tx.query<{ name: string }>("select name from prompts where id = $1", [promptOfA]),
    );
    expect(rows[0].name).toBe("of A");
  });
});
