import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getDatasetRoute } from "@/app/api/v1/datasets/[id]/route";
import { GET as listDatasetsRoute, POST as postDatasetRoute } from "@/app/api/v1/datasets/route";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { asUser } from "@/lib/db/as-user";
import { getDatasetWithRows } from "@/lib/db/datasets/get-dataset-with-rows";
import { listDatasets } from "@/lib/db/datasets/list-datasets";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import type { AppContext } from "@/lib/server/context";
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
});
