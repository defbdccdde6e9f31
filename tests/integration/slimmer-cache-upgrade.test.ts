import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { findCachedResponses } from "@/lib/db/cache/response-cache";
import type { Database } from "@/lib/db/database";
import { migrate } from "@/lib/db/migrate";
import { createServerTestDatabase, postgresServerAvailable, userA, type TestDatabase } from "../helpers/databases";

// 0026_slimmer_cache_rows.sql changes how a database that already holds cached answers keys them:
// the key becomes its bytes, and the rows lose their ids. A database migrated up to 0025, with a
// cache row naming its cell and one keeping its own answer, is migrated on, and both are found.
describe("upgrading a database that holds cached answers to 0026 (slimmer cache rows)", () => {
  let test: TestDatabase | null = null;
  let db: Database | null = null;

  beforeAll(async () => {
    if (!(await postgresServerAvailable())) return;
    test = await createServerTestDatabase({ migratedBefore: "0026" });
    db = test.db;
  });
  afterAll(async () => {
    await test?.drop();
  });

  it("finds each row by its key, with the answer and the call's numbers", async (context) => {
    if (!db) return context.skip();
    const named = createHash("sha256").update("tides").digest("hex");
    await asUser(db, userA, async (tx) => {
      const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
      const prompt = await one("insert into prompts (name, text) values ('p', 'Tell me about {{x}}') returning id");
      const version = await one(
        "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 1, 'p', 'Tell me about {{x}}', 'h') returning id",
        [prompt],
      );
      const dataset = await one("insert into datasets (name, headers, row_count) values ('d', '{x}', 1) returning id");
      const run = await one(
        "insert into runs (prompt_id, prompt_version_id, dataset_id, row_count, status) values ($1, $2, $3, 1, 'completed') returning id",
        [prompt, version, dataset],
      );
      const column = await one(
        "insert into run_columns (run_id, column_index, provider, model) values ($1, 0, 'mock', 'echo') returning id",
        [run],
      );
      const cell = await one(
        `insert into run_cells (run_id, column_id, column_index, row_index, status, output_raw, parsed_is_raw, tokens_in, tokens_out, latency_ms, finish_reason)
         values ($1, $2, 0, 0, 'ok', 'Tides rise twice a day.', true, 7, 5, 120, 'stop') returning id`,
        [run, column],
      );
      await tx.query(
        `insert into response_cache (cache_key, provider, model, cell_id, tokens_in, tokens_out, latency_ms, finish_reason)
         values ($1, 'mock', 'echo', $2, 7, 5, 120, 'stop')`,
        [named, cell],
      );
      await tx.query(
        `insert into response_cache (cache_key, provider, model, output_raw, tokens_in, tokens_out, latency_ms, cost_usd, finish_reason)
         values ('not a hex key', 'mock', 'echo', 'Storms pass.', 3, 2, 80, 0.5, 'length')`,
      );
    });

    expect(await migrate(db)).toContain("0026_slimmer_cache_rows.sql");

    // a key that was not a hex hash is now the hash of what it was
    const hashed = createHash("sha256").update("not a hex key").digest("hex");
    const keys = (await db.query<{ key: string }>("select encode(cache_key, 'hex') as key from response_cache")).rows;
    expect(keys.map((row) => row.key).sort()).toEqual([named, hashed].sort());
    const found = await findCachedResponses(db, { userId: userA, keys: [named, hashed] });
    expect(found.get(named)).toMatchObject({
      outputRaw: "Tides rise twice a day.",
      tokensIn: 7,
      tokensOut: 5,
      latencyMs: 120,
      finishReason: "stop",
    });
    expect(found.get(hashed)).toMatchObject({
      outputRaw: "Storms pass.",
      tokensIn: 3,
      tokensOut: 2,
      latencyMs: 80,
      costUsd: 0.5,
      finishReason: "length",
    });
  });
});
