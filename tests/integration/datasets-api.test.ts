import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as deleteDatasetRoute, GET as getDatasetRoute, PATCH as patchDatasetRoute } from "@/app/api/v1/datasets/[id]/route";
import { GET as listDatasetsRoute, POST as postDatasetRoute } from "@/app/api/v1/datasets/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { getDatasetWithRows } from "@/lib/db/datasets/get-dataset-with-rows";
import { listDatasets } from "@/lib/db/datasets/list-datasets";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import type { AppContext } from "@/lib/server/context";
import { createDataset } from "@/lib/services/datasets";
import { createPgliteTestDatabase, userB, type TestDatabase } from "../helpers/databases";

// The route handlers find the database through the process's app context; this file gives them
// its own PGlite instead of opening the configured one. The handlers answer as the local user.
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("datasets API", () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    contextStore.__parallaxrContext = Promise.resolve({ db: test.db, access: readAccessConfig({}) } as AppContext);
  });
  afterAll(async () => {
    contextStore.__parallaxrContext = undefined;
    await test.drop();
  });

  const post = (body: unknown) =>
    postDatasetRoute(new Request("http://test/api/v1/datasets", { method: "POST", body: JSON.stringify(body) }));
  const getOne = (id: string, query = "") =>
    getDatasetRoute(new Request(`http://test/api/v1/datasets/${id}${query}`), { params: Promise.resolve({ id }) });

  const patch = (id: string, body: unknown) =>
    patchDatasetRoute(new Request(`http://test/api/v1/datasets/${id}`, { method: "PATCH", body: JSON.stringify(body) }), {
      params: Promise.resolve({ id }),
    });
  const remove = (id: string) =>
    deleteDatasetRoute(new Request(`http://test/api/v1/datasets/${id}`, { method: "DELETE" }), { params: Promise.resolve({ id }) });
  const listNames = async () =>
    ((await (await listDatasetsRoute(new Request("http://test/api/v1/datasets"))).json()) as Array<{ id: string; name: string }>).map(
      (dataset) => dataset.name,
    );
  const countStored = (datasetId: string) =>
    asUser(test.db, localUserId, async (tx) => {
      const datasets = await tx.query<{ n: number }>("select count(*)::int as n from datasets where id = $1", [datasetId]);
      const rows = await tx.query<{ n: number }>("select count(*)::int as n from dataset_rows where dataset_id = $1", [datasetId]);
      return { datasets: datasets.rows[0].n, rows: rows.rows[0].n };
    });

  it("stores a 10,000-row, multi-megabyte upload and answers the dataset", async () => {
    const headers = ["id", "question", "notes"];
    const rows = Array.from({ length: 10_000 }, (_, index) => ({
      id: String(index),
      question: `Question ${index}: ${'why is the sky blue, and what does, "quoting" do? '.repeat(5)}`,
      notes: index % 7 === 0 ? "line one\nline two" : "",
    }));
    const body = JSON.stringify({ name: "big.csv", headers, rows });
    expect(body.length).toBeGreaterThan(2_500_000);

    const response = await post({ name: "big.csv", headers, rows });
    expect(response.status).toBe(201);
    const created = (await response.json()) as { id: string; name: string; headers: string[]; rowCount: number; createdAt: string };
    expect(created).toMatchObject({ name: "big.csv", headers, rowCount: 10_000 });
    expect(Number.isNaN(Date.parse(created.createdAt))).toBe(false);

    const stored = await asUser(test.db, localUserId, (tx) => getDatasetWithRows(tx, { id: created.id, limit: 100_000 }));
    expect(stored?.rows).toHaveLength(10_000);
    expect(stored?.rows[9_999]).toEqual(rows[9_999]);
    expect(stored?.rows[7]).toEqual({ id: "7", question: rows[7].question, notes: "line one\nline two" });
  });

  it("lists the caller's uploads newest first, without runs' inline datasets", async () => {
    const older = await (await post({ name: "older.csv", headers: ["topic"], rows: [{ topic: "a" }] })).json();
    const newer = await (await post({ name: "newer.json", headers: ["topic"], rows: [{ topic: "b" }, { topic: "c" }] })).json();
    await asUser(test.db, localUserId, (tx) =>
      insertDataset(tx, { name: "Inline rows", source: "inline", headers: ["x"], rows: [{ x: "1" }] }),
    );

    const response = await listDatasetsRoute(new Request("http://test/api/v1/datasets"));
    expect(response.status).toBe(200);
    const listed = (await response.json()) as Array<{ id: string; name: string; rowCount: number; headers: string[]; createdAt: string }>;
    expect(listed.map((dataset) => dataset.name)).toEqual(["newer.json", "older.csv", "big.csv"]);
    expect(listed[0]).toEqual({ id: newer.id, name: "newer.json", headers: ["topic"], rowCount: 2, createdAt: newer.createdAt });
    expect(listed[1].id).toBe(older.id);
  });

  it("answers a dataset with its first rows: 50 by default, ?limit= up to 100,000", async () => {
    const rows = Array.from({ length: 120 }, (_, index) => ({ n: String(index) }));
    const { id } = await (await post({ name: "numbers.csv", headers: ["n"], rows })).json();

    const byDefault = await (await getOne(id)).json();
    expect(byDefault).toMatchObject({ id, name: "numbers.csv", headers: ["n"], rowCount: 120 });
    expect(byDefault.rows).toHaveLength(50);
    expect(byDefault.rows[0]).toEqual({ n: "0" });
    expect(byDefault.rows[49]).toEqual({ n: "49" });

    const limited = await (await getOne(id, "?limit=3")).json();
    expect(limited.rows).toEqual([{ n: "0" }, { n: "1" }, { n: "2" }]);
    const all = await (await getOne(id, "?limit=100000")).json();
    expect(all.rows).toHaveLength(120);

    const tooMany = await getOne(id, "?limit=100001");
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.code).toBe("bad_request");
  });

  it("hides a dataset from everyone but its owner", async () => {
    const { id } = await (await post({ name: "mine.csv", headers: ["secret"], rows: [{ secret: "s3cret" }] })).json();
    expect(await asUser(test.db, userB, (tx) => getDatasetWithRows(tx, { id, limit: 50 }))).toBeNull();
    expect(await asUser(test.db, userB, (tx) => listDatasets(tx))).toEqual([]);

    const theirs = await asUser(test.db, userB, (tx) =>
      insertDataset(tx, { name: "theirs.csv", source: "upload", headers: ["a"], rows: [{ a: "1" }] }),
    );
    const response = await getOne(theirs);
    expect(response.status).toBe(404);
    expect((await response.json()).error).toEqual({ code: "not_found", message: `Dataset ${theirs} not found.` });
    const names = ((await (await listDatasetsRoute(new Request("http://test/api/v1/datasets"))).json()) as Array<{ name: string }>).map(
      (d) => d.name,
    );
    expect(names).not.toContain("theirs.csv");
  });

  it("rejects a body without rows with the route helper's error", async () => {
    const response = await post({ name: "empty.csv", headers: ["a"], rows: [] });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "bad_request", field: "rows" });
  });

  describe("one copy per file, rename and delete", () => {
    const cities = {
      headers: ["city", "country"],
      rows: [
        { city: "Paris", country: "France" },
        { city: "Lyon", country: "France" },
      ],
    };
    const countUploads = () =>
      asUser(test.db, localUserId, async (tx) => {
        const { rows } = await tx.query<{ datasets: number; rows: number }>(
          `select (select count(*)::int from datasets where source = 'upload') as datasets,
                  (select count(*)::int from dataset_rows r join datasets d on d.id = r.dataset_id where d.source = 'upload') as rows`,
        );
        return rows[0];
      });

    it("keeps the same file uploaded twice once, under the latest name, and says it was already stored", async () => {
      const before = await countUploads();
      const firstResponse = await post({ name: "cities.csv", ...cities });
      expect(firstResponse.status).toBe(201);
      const first = await firstResponse.json();
      expect(first.alreadyStored).toBe(false);
      const again = await (await post({ name: "cities (1).csv", ...cities })).json();
      expect(again).toEqual({ ...first, name: "cities (1).csv", alreadyStored: true });
      expect(await countUploads()).toEqual({ datasets: before.datasets + 1, rows: before.rows + 2 });
      expect((await listNames()).filter((name) => name.startsWith("cities"))).toEqual(["cities (1).csv"]);

      // Another row, or the columns in another order, is another dataset.
      const changed = await (await post({ name: "cities.csv", headers: ["city", "country"], rows: cities.rows.slice(0, 1) })).json();
      expect(changed.alreadyStored).toBe(false);
      expect(changed.id).not.toBe(first.id);
    });

    it("keeps one copy per user: another user's identical upload is their own", async () => {
      const mine = await (await post({ name: "shared.csv", headers: ["q"], rows: [{ q: "same" }] })).json();
      const theirs = await createDataset(test, { userId: userB, dataset: { name: "shared.csv", headers: ["q"], rows: [{ q: "same" }] } });
      expect(theirs.alreadyStored).toBe(false);
      expect(theirs.id).not.toBe(mine.id);
      expect(await asUser(test.db, userB, (tx) => getDatasetWithRows(tx, { id: mine.id, limit: 5 }))).toBeNull();
    });

    it("renames a dataset with PATCH, refusing an empty name, unknown fields and another user's dataset", async () => {
      const { id } = await (await post({ name: "draft.csv", headers: ["a"], rows: [{ a: "rename me" }] })).json();
      const renamed = await patch(id, { name: "  support tickets  " });
      expect(renamed.status).toBe(200);
      expect(await renamed.json()).toMatchObject({ id, name: "support tickets", rowCount: 1 });
      expect(await listNames()).toContain("support tickets");

      expect((await (await patch(id, { name: "   " })).json()).error).toMatchObject({ code: "bad_request", field: "name" });
      expect((await (await patch(id, { name: "x".repeat(201) })).json()).error).toMatchObject({ code: "bad_request", field: "name" });
      expect((await (await patch(id, { name: "ok", rows: [] })).json()).error).toMatchObject({ code: "bad_request" });
      const theirs = await createDataset(test, { userId: userB, dataset: { name: "b.csv", headers: ["b"], rows: [{ b: "1" }] } });
      expect((await patch(theirs.id, { name: "stolen" })).status).toBe(404);
      const stillTheirs = await asUser(test.db, userB, (tx) => getDatasetWithRows(tx, { id: theirs.id, limit: 1 }));
      expect(stillTheirs?.name).toBe("b.csv");
    });

    it("deletes a dataset no run used, with its rows, and takes it off the workbench", async () => {
      const { id } = await (await post({ name: "unused.csv", headers: ["a"], rows: [{ a: "1" }, { a: "2" }] })).json();
      await asUser(test.db, localUserId, (tx) =>
        tx.query(
          `insert into workbench_state (dataset_id) values ($1)
           on conflict (user_id) do update set dataset_id = excluded.dataset_id`,
          [id],
        ),
      );
      const response = await remove(id);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ deleted: true, keptForRuns: false });
      expect(await countStored(id)).toEqual({ datasets: 0, rows: 0 });
      expect((await getOne(id)).status).toBe(404);
      const state = await asUser(test.db, localUserId, (tx) =>
        tx.query<{ dataset_id: string | null }>("select dataset_id from workbench_state"),
      );
      expect(state.rows[0].dataset_id).toBeNull();
      expect((await remove(id)).status).toBe(404);
    });

    it("keeps a dataset a run used for that run's history: gone from the list, its rows still there; the same file brings it back", async () => {
      const { id } = await (await post({ name: "used.csv", headers: ["topic"], rows: [{ topic: "tides" }] })).json();
      const runId = await asUser(test.db, localUserId, async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          "insert into runs (dataset_id, row_count, status) values ($1, 1, 'completed') returning id",
          [id],
        );
        return rows[0].id;
      });
      expect(await (await remove(id)).json()).toEqual({ deleted: true, keptForRuns: true });
      expect(await listNames()).not.toContain("used.csv");
      expect(await countStored(id)).toEqual({ datasets: 1, rows: 1 });
      const run = await asUser(test.db, localUserId, (tx) =>
        tx.query<{ dataset_id: string }>("select dataset_id from runs where id = $1", [runId]),
      );
      expect(run.rows[0].dataset_id).toBe(id);
      // The run's history still reads it by id.
      expect(await (await getOne(id)).json()).toMatchObject({ id, name: "used.csv", rows: [{ topic: "tides" }] });
      // Deleted once: it can be neither renamed nor deleted again.
      expect((await patch(id, { name: "again" })).status).toBe(404);
      expect((await remove(id)).status).toBe(404);

      const back = await (await post({ name: "used again.csv", headers: ["topic"], rows: [{ topic: "tides" }] })).json();
      expect(back).toMatchObject({ id, name: "used again.csv", alreadyStored: true });
      expect(await listNames()).toContain("used again.csv");
    });

    it("refuses to delete another user's dataset, and keeps runs' inline rows out of reach", async () => {
      const theirs = await createDataset(test, { userId: userB, dataset: { name: "keep.csv", headers: ["k"], rows: [{ k: "1" }] } });
      expect((await remove(theirs.id)).status).toBe(404);
      expect(await asUser(test.db, userB, (tx) => getDatasetWithRows(tx, { id: theirs.id, limit: 1 }))).not.toBeNull();
      const inline = await asUser(test.db, localUserId, (tx) =>
        insertDataset(tx, { name: "Inline rows", source: "inline", headers: ["x"], rows: [{ x: "1" }] }),
      );
      expect((await remove(inline)).status).toBe(404);
      expect((await patch(inline, { name: "mine now" })).status).toBe(404);
    });
  });
});
