import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import type { Executor } from "@/lib/db/database";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, userA, userB, waitFor, type TestDatabase } from "../helpers/databases";

// What user A keeps to themselves. None of it may reach a provider in a call made for user B.
const secrets = { prompt: "A-SECRET-PROMPT", row: "A-SECRET-ROW", grader: "A-SECRET-GRADER", system: "A-SECRET-SYSTEM" };

/** User A's prompt, prompt version, grader version and dataset, and a paused run with one column. */
async function seedOwner(tx: Executor) {
  const one = async (sql: string, params: unknown[] = []) => (await tx.query<{ id: string }>(sql, params)).rows[0].id;
  const promptId = await one("insert into prompts (name, text) values ('a', $1) returning id", [`${secrets.prompt} {{q}}`]);
  const versionId = await one("insert into prompt_versions (prompt_id, name, text, text_hash) values ($1, 'a', $2, 'a') returning id", [
    promptId,
    `${secrets.prompt} {{q}}`,
  ]);
  const graderId = await one("insert into prompt_versions (name, type, text, text_hash) values ('g', 'grader', $1, 'g') returning id", [
    `${secrets.grader} {{output}}`,
  ]);
  const datasetId = await one("insert into datasets (name, headers, row_count) values ('d', '{q}', 1) returning id");
  await tx.query("insert into dataset_rows (dataset_id, row_index, data) values ($1, 0, $2)", [
    datasetId,
    JSON.stringify({ q: secrets.row }),
  ]);
  const runId = await one("insert into runs (prompt_version_id, dataset_id, row_count, status) values ($1, $2, 1, 'paused') returning id", [
    versionId,
    datasetId,
  ]);
  const columnId = await one(
    "insert into run_columns (run_id, column_index, provider, model, params) values ($1, 0, 'mock', 'fast', $2) returning id",
    [runId, JSON.stringify({ system: secrets.system })],
  );
  return { promptId, versionId, graderId, datasetId, runId, columnId };
}

/**
 * A run, column and cells of user B's that name user A's ids: the run points at A's prompt
 * version, grader and dataset; cell 0 uses B's own column, cell 1 (when withOwnerColumn) A's.
 */
async function insertIntruderRun(
  tx: Executor,
  owner: Awaited<ReturnType<typeof seedOwner>>,
  { withOwnerColumn }: { withOwnerColumn: boolean },
) {
  const run = await tx.query<{ id: string }>(
    `insert into runs (user_id, prompt_id, prompt_version_id, grader_version_id, dataset_id, row_count, status)
     values ($1, $2, $3, $4, $5, 1, 'queued') returning id`,
    [userB, owner.promptId, owner.versionId, owner.graderId, owner.datasetId],
  );
  const runId = run.rows[0].id;
  const column = await tx.query<{ id: string }>(
    "insert into run_columns (user_id, run_id, column_index, provider, model) values ($1, $2, 0, 'mock', 'fast') returning id",
    [userB, runId],
  );
  await tx.query("insert into run_cells (user_id, run_id, column_id, column_index, row_index) values ($1, $2, $3, 0, 0)", [
    userB,
    runId,
    column.rows[0].id,
  ]);
  if (withOwnerColumn) {
    await tx.query("insert into run_cells (user_id, run_id, column_id, column_index, row_index) values ($1, $2, $3, 1, 0)", [
      userB,
      runId,
      owner.columnId,
    ]);
  }
  return runId;
}

describe("ownership: the worker renders only the run owner's prompts and rows", () => {
  let test: TestDatabase;
  let worker: Worker;
  let owner: Awaited<ReturnType<typeof seedOwner>>;
  // Every prompt the mock was sent, to look for user A's text in calls made for user B.
  const prompts: string[] = [];

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    owner = await asUser(test.db, userA, seedOwner);
    const providers = createProviderRegistry([createMockProvider({ onCall: ({ prompt }) => prompts.push(prompt) })]);
    worker = await startWorker({ db: test.db, providers, pollMs: 20 });
  });
  afterAll(async () => {
    await worker?.stop();
    await test?.drop();
  });

  it("user B, with direct table access, cannot make a run of A's prompt version, grader and dataset", async () => {
    const attempt = await asUser(test.db, userB, (tx) => insertIntruderRun(tx, owner, { withOwnerColumn: false })).then(
      (runId) => ({ runId, error: null }),
      (error: Error) => ({ runId: null, error }),
    );
    if (attempt.runId) {
      // The insert went through: let the worker run it and show what B got.
      await waitFor(
        async () =>
          (await test.db.query<{ status: string }>("select status from runs where id = $1", [attempt.runId])).rows[0].status ===
          "completed",
        { what: "B's run to complete" },
      );
    }
    const { rows } = await test.db.query<{ output_raw: string | null; grader_output_raw: string | null }>(
      "select output_raw, grader_output_raw from run_cells where user_id = $1",
      [userB],
    );
    const seenByB = JSON.stringify(rows);
    for (const secret of Object.values(secrets)) expect(seenByB).not.toContain(secret);
    expect(attempt.error?.message).toMatch(/does not belong to this user/);
  });

  it("a run that already names A's ids (written before the check, or past it) gets none of A's text", async () => {
    prompts.length = 0;
    // Rows written before 0009_ownership_checks.sql can be on a user's database already; loading
    // them with triggers off is how this test puts such rows there.
    const runId = await test.db.transaction(async (tx) => {
      await tx.query("set local session_replication_role = replica");
      return insertIntruderRun(tx, owner, { withOwnerColumn: true });
    });

    // Cell 0 (B's own column) runs; cell 1 names A's column and is never handed to a worker.
    const cells = await waitFor(
      async () => {
        const { rows } = await test.db.query<{
          column_index: number;
          status: string;
          attempts: number;
          output_raw: string | null;
          grader_output_raw: string | null;
        }>("select column_index, status, attempts, output_raw, grader_output_raw from run_cells where run_id = $1 order by column_index", [
          runId,
        ]);
        return rows[0].status !== "queued" && rows[0].status !== "running" ? rows : null;
      },
      { what: "B's own cell to finish" },
    );
    expect(cells[0].output_raw).toContain("MOCK RESPONSE");
    const seenByB = JSON.stringify(cells);
    for (const secret of Object.values(secrets)) expect(seenByB).not.toContain(secret);
    for (const secret of Object.values(secrets)) expect(prompts.join("\n")).not.toContain(secret);
    // The worker claims in grid order, so cell 1 (same row, next column) was up in the same claim
    // as cell 0; it was passed over, not merely not reached yet.
    expect(cells[1]).toMatchObject({ status: "queued", attempts: 0, output_raw: null });
  });
});
