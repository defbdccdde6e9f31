import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { insertPrompt } from "@/lib/db/prompts/prompts";
import { insertDataset } from "@/lib/db/runs/insert-dataset";
import { getWorkbenchState, updateWorkbenchState } from "@/lib/db/workbench/workbench-state";
import { createPgliteTestDatabase, userA, userB, type TestDatabase } from "../helpers/databases";

describe("workbench state", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  it("keeps each user's setup, changing only the fields given", async () => {
    expect(await asUser(test.db, userA, getWorkbenchState)).toEqual({
      activePromptId: null,
      datasetId: null,
      graderPromptId: null,
      columns: [],
      latestRunId: null,
    });
    const prompt = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "p", text: "Hi {{x}}", type: "generator" }));
    const grader = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "g", text: "Grade {{output}}", type: "grader" }));
    const datasetId = await asUser(test.db, userA, (tx) =>
      insertDataset(tx, { name: "d.csv", source: "upload", headers: ["x"], rows: [{ x: "1" }] }),
    );

    await asUser(test.db, userA, (tx) =>
      updateWorkbenchState(tx, { activePromptId: prompt.id, columns: [{ provider: "mock", model: "echo", params: {} }] }),
    );
    const result = await asUser(test.db, userA, (tx) => updateWorkbenchState(tx, { datasetId, graderPromptId: grader.id }));
    expect(result).toEqual({
      state: {
        activePromptId: prompt.id,
        datasetId,
        graderPromptId: grader.id,
        columns: [{ provider: "mock", model: "echo", params: {} }],
        latestRunId: null,
      },
    });
    // null clears one field and leaves the rest
    await asUser(test.db, userA, (tx) => updateWorkbenchState(tx, { graderPromptId: null }));
    expect(await asUser(test.db, userA, getWorkbenchState)).toMatchObject({ activePromptId: prompt.id, graderPromptId: null, datasetId });

    // user B has a setup of their own, empty
    expect(await asUser(test.db, userB, getWorkbenchState)).toMatchObject({ activePromptId: null, columns: [] });
  });

  it("refuses ids of another user's prompt or dataset without writing, and forgets deleted ones", async () => {
    const secret = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "secret", text: "x", type: "grader" }));
    const result = await asUser(test.db, userB, (tx) => updateWorkbenchState(tx, { graderPromptId: secret.id }));
    expect(result).toEqual({ invisible: "graderPromptId" });
    // a generator prompt is not a grader
    const generator = await asUser(test.db, userB, (tx) => insertPrompt(tx, { name: "gen", text: "x", type: "generator" }));
    expect(await asUser(test.db, userB, (tx) => updateWorkbenchState(tx, { graderPromptId: generator.id }))).toEqual({
      invisible: "graderPromptId",
    });

    await asUser(test.db, userB, (tx) => updateWorkbenchState(tx, { activePromptId: generator.id }));
    await asUser(test.db, userB, (tx) => tx.query("delete from prompts where id = $1", [generator.id]));
    expect((await asUser(test.db, userB, getWorkbenchState)).activePromptId).toBeNull();
  });

  it("answers the newest workbench run of the active prompt, and none of another user's", async () => {
    const prompt = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "latest", text: "Hi", type: "generator" }));
    const other = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "other", text: "Yo", type: "generator" }));
    const insertRun = (promptId: string, createdAt: string, kind = "workbench") =>
      asUser(test.db, userA, async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          "insert into runs (prompt_id, kind, status, created_at) values ($1, $2, 'completed', $3) returning id",
          [promptId, kind, createdAt],
        );
        return rows[0].id;
      });
    await asUser(test.db, userA, (tx) => updateWorkbenchState(tx, { activePromptId: prompt.id }));
    expect((await asUser(test.db, userA, getWorkbenchState)).latestRunId).toBeNull();

    await insertRun(prompt.id, "2026-11-26T10:00:00Z");
    const newest = await insertRun(prompt.id, "2026-11-26T11:00:00Z");
    await insertRun(prompt.id, "2026-11-26T09:00:00Z");
    // Another prompt's run, and a run of another kind, are not the workbench's latest.
    await insertRun(other.id, "2026-11-26T12:00:00Z");
    await insertRun(prompt.id, "2026-11-26T13:00:00Z", "experiment");
    expect((await asUser(test.db, userA, getWorkbenchState)).latestRunId).toBe(newest);

    // Switching prompts switches the run.
    await asUser(test.db, userA, (tx) => updateWorkbenchState(tx, { activePromptId: other.id }));
    expect((await asUser(test.db, userA, getWorkbenchState)).latestRunId).not.toBe(newest);

    // User B pointing at A's prompt id cannot see it, nor its runs.
    await asUser(test.db, userB, (tx) => tx.query("update workbench_state set active_prompt_id = $1", [prompt.id]));
    expect((await asUser(test.db, userB, getWorkbenchState)).latestRunId).toBeNull();
  });
});
