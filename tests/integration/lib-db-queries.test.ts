import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { insertModels } from "@/lib/db/models/insert-models";
import { pingDatabase } from "@/lib/db/ping-database";
import { failPlannedRun } from "@/lib/db/runs/fail-planned-run";
import { createRun } from "@/lib/engine/create-run";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, userA, userB, type TestDatabase } from "../helpers/databases";

// The queries that moved into lib/db from the engine, the worker and a route (issue 9), each on
// its own: what it changes, what it leaves alone, and that RLS applies.
describe("queries moved into lib/db", () => {
  let test: TestDatabase;
  const providers = createProviderRegistry([createMockProvider()]);
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  const newRun = async (db: Database, userId: string) =>
    (
      await createRun(
        { db, providers },
        { userId, input: { prompt: "say {{n}}", rows: [{ n: "1" }], models: [{ provider: "mock", model: "echo" }] } },
      )
    ).id;
  const statusOf = async (runId: string) =>
    (
      await test.db.query<{ status: string; error: string | null; finished: boolean }>(
        "select status, error, finished_at is not null as finished from runs where id = $1",
        [runId],
      )
    ).rows[0];

  it("failPlannedRun fails a planned run with the reason, once, and leaves other statuses and other users' runs alone", async () => {
    const planned = await newRun(test.db, userA);
    await test.db.query("update runs set status = 'planned', finished_at = null where id = $1", [planned]);

    expect(await asUser(test.db, userB, (tx) => failPlannedRun(tx, { runId: planned, error: "not yours" }))).toBe(false);
    expect(await statusOf(planned)).toEqual({ status: "planned", error: null, finished: false });

    expect(await asUser(test.db, userA, (tx) => failPlannedRun(tx, { runId: planned, error: "the planner stopped" }))).toBe(true);
    expect(await statusOf(planned)).toEqual({ status: "failed", error: "the planner stopped", finished: true });
    expect(await asUser(test.db, userA, (tx) => failPlannedRun(tx, { runId: planned, error: "again" }))).toBe(false);
    expect((await statusOf(planned)).error).toBe("the planner stopped");

    const queued = await newRun(test.db, userA);
    await test.db.query("update runs set status = 'queued', finished_at = null where id = $1", [queued]);
    expect(await asUser(test.db, userA, (tx) => failPlannedRun(tx, { runId: queued, error: "too late" }))).toBe(false);
    expect(await statusOf(queued)).toEqual({ status: "queued", error: null, finished: false });
  });

  it("insertModels adds only the models a user does not have yet, and answers how many", async () => {
    const models = [
      { provider: "mock", model: "echo", label: "Mock / echo" },
      { provider: "mock", model: "fast", label: "Mock / fast" },
    ];
    expect(await asUser(test.db, userA, (tx) => insertModels(tx, { models: models.slice(0, 1) }))).toBe(1);
    expect(await asUser(test.db, userA, (tx) => insertModels(tx, { models }))).toBe(1);
    expect(await asUser(test.db, userA, (tx) => insertModels(tx, { models }))).toBe(0);
    expect(await asUser(test.db, userB, (tx) => insertModels(tx, { models }))).toBe(2);
    expect(await asUser(test.db, userA, (tx) => insertModels(tx, { models: [] }))).toBe(0);
    const rows = await asUser(
      test.db,
      userA,
      async (tx) =>
        (await tx.query<{ provider: string; model: string; label: string }>("select provider, model, label from models order by model"))
          .rows,
    );
    expect(rows).toEqual(models);
  });

  it("pingDatabase resolves while the database answers and rejects once it is closed", async () => {
    const own = await createPgliteTestDatabase();
    await expect(pingDatabase(own.db)).resolves.toBeUndefined();
    await own.drop();
    await expect(pingDatabase(own.db)).rejects.toThrow();
  });
});
