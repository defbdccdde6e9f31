import { describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { deletePrompt, getPromptById, insertPrompt, listPrompts, updatePrompt } from "@/lib/db/prompts/prompts";
import { listPromptRuns } from "@/lib/db/runs/list-prompt-runs";
import { seedExamples } from "@/lib/services/seed";
import { getWorkbenchState } from "@/lib/db/workbench/workbench-state";
import { setManualGrade } from "@/lib/db/runs/run-lifecycle";
import { getRun } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, userB } from "../helpers/databases";
import { pgliteEngine, runToEnd } from "../helpers/engine";

describe("prompt versions and manual grades", () => {
  const providers = createProviderRegistry([createMockProvider()]);

  const test = pgliteEngine(providers);

  const runPrompt = (promptId: string, missingVariables?: "warn") =>
    runToEnd(
      { db: test.db, providers },
      { userId: userA, input: { promptId, models: [{ provider: "mock", model: "fast" }] }, missingVariables },
    );
  const versionOf = async (promptVersionId: string | null) =>
    (await test.db.query<{ version: number; text: string }>("select version, text from prompt_versions where id = $1", [promptVersionId]))
      .rows[0];

  it("bumps the version on Run only when the text changed since the last run; autosave and rename do not", async () => {
    const prompt = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "Summary", text: "Summarise.", type: "generator" }));
    expect(prompt.versionCounter).toBe(1);

    const first = await runPrompt(prompt.id);
    expect(await versionOf(first.promptVersionId)).toEqual({ version: 1, text: "Summarise." });
    const same = await runPrompt(prompt.id);
    expect((await versionOf(same.promptVersionId)).version).toBe(1);

    // autosave: the text changes, the version does not, until the next run
    const saved = await asUser(test.db, userA, (tx) => updatePrompt(tx, { id: prompt.id, text: "Summarise briefly." }));
    expect(saved).toMatchObject({ text: "Summarise briefly.", versionCounter: 1 });
    const second = await runPrompt(prompt.id);
    expect(await versionOf(second.promptVersionId)).toEqual({ version: 2, text: "Summarise briefly." });
    // the earlier version is untouched: every run points at an immutable version
    expect(await versionOf(first.promptVersionId)).toEqual({ version: 1, text: "Summarise." });

    // rename: the count starts again at 1, and the next run is version 1 of the new name
    const renamed = await asUser(test.db, userA, (tx) => updatePrompt(tx, { id: prompt.id, name: "Brief summary" }));
    expect(renamed).toMatchObject({ name: "Brief summary", versionCounter: 1 });
    const third = await runPrompt(prompt.id);
    expect((await versionOf(third.promptVersionId)).version).toBe(1);
  });

  it("lists, hides from other users, and deletes for good while runs keep their versions", async () => {
    const prompt = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "Doomed", text: "Bye {{x}}", type: "grader" }));
    // with the experiments runner's rule, a missing variable is a warning on the cell, not a refusal
    const run = await runPrompt(prompt.id, "warn");
    expect(run.cells.map((cell) => [cell.status, cell.warnings])).toEqual([
      ["warning", ["Variable {{x}} in template has no value in row 1"]],
    ]);
    expect((await asUser(test.db, userA, (tx) => listPrompts(tx))).map((p) => p.name)).toContain("Doomed");
    expect(await asUser(test.db, userB, (tx) => getPromptById(tx, { id: prompt.id }))).toBeNull();
    expect(await asUser(test.db, userB, (tx) => deletePrompt(tx, { id: prompt.id }))).toBe(false);
    expect(await asUser(test.db, userA, (tx) => deletePrompt(tx, { id: prompt.id }))).toBe(true);
    expect(await asUser(test.db, userA, (tx) => getPromptById(tx, { id: prompt.id }))).toBeNull();
    expect(await versionOf(run.promptVersionId)).toEqual({ version: 1, text: "Bye {{x}}" });
  });

  it("stores a person's grade per cell, for the owner only", async () => {
    const prompt = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "Graded", text: "Grade me", type: "generator" }));
    const run = await runPrompt(prompt.id);
    const cell = run.cells[0];
    expect(await asUser(test.db, userA, (tx) => setManualGrade(tx, { runId: run.id, cellId: cell.id, grade: 1 }))).toBe(true);
    expect(await asUser(test.db, userB, (tx) => setManualGrade(tx, { runId: run.id, cellId: cell.id, grade: 0 }))).toBe(false);
    const graded = await getRun({ db: test.db }, { userId: userA, runId: run.id });
    expect(graded.cells[0].manualGrade).toBe(1);
    await asUser(test.db, userA, (tx) => setManualGrade(tx, { runId: run.id, cellId: cell.id, grade: null }));
    expect((await getRun({ db: test.db }, { userId: userA, runId: run.id })).cells[0].manualGrade).toBeNull();
  });

  it("lists a prompt's runs newest first with versions, and manual grades override in the averages", async () => {
    const prompt = await asUser(test.db, userA, (tx) => insertPrompt(tx, { name: "History", text: "v1 text", type: "generator" }));
    const first = await runPrompt(prompt.id);
    await asUser(test.db, userA, (tx) => updatePrompt(tx, { id: prompt.id, text: "v2 text" }));
    const second = await runPrompt(prompt.id);
    // no grader: the person's thumbs are the only grades
    await asUser(test.db, userA, (tx) => setManualGrade(tx, { runId: second.id, cellId: second.cells[0].id, grade: 1 }));

    const history = await asUser(test.db, userA, (tx) => listPromptRuns(tx, { promptId: prompt.id }));
    expect(history.map((entry) => [entry.id, entry.version])).toEqual([
      [second.id, 2],
      [first.id, 1],
    ]);
    expect(history[0].models[0]).toMatchObject({ provider: "mock", model: "fast", averageGrade: 1, gradedCells: 1 });
    expect(history[1].models[0]).toMatchObject({ averageGrade: null, gradedCells: 0 });
    expect(await asUser(test.db, userB, (tx) => listPromptRuns(tx, { promptId: prompt.id }))).toEqual([]);
  });

  it("seeds examples once per user, even when asked twice at once", async () => {
    const userC = "00000000-0000-4000-8000-00000000000c";
    const results = await Promise.all([seedExamples(test, { userId: userC }), seedExamples(test, { userId: userC })]);
    expect(results.filter((result) => result.seeded)).toHaveLength(1);
    expect((await seedExamples(test, { userId: userC })).seeded).toBe(false);
    const counts = await asUser(test.db, userC, async (tx) => ({
      prompts: (await tx.query<{ n: number }>("select count(*)::int as n from prompts")).rows[0].n,
      graders: (await tx.query<{ n: number }>("select count(*)::int as n from prompts where type = 'grader'")).rows[0].n,
      datasets: (await tx.query<{ n: number }>("select count(*)::int as n from datasets")).rows[0].n,
      models: (await tx.query<{ n: number }>("select count(*)::int as n from models")).rows[0].n,
    }));
    expect(counts).toEqual({ prompts: 2, graders: 1, datasets: 1, models: 2 });
    // the first visit opens the example prompt, grader and dataset with the first mock model
    const state = await asUser(test.db, userC, getWorkbenchState);
    const example = await asUser(
      test.db,
      userC,
      async (tx) => (await tx.query<{ id: string }>("select id from prompts where type = 'generator'")).rows[0].id,
    );
    const exampleGrader = await asUser(
      test.db,
      userC,
      async (tx) => (await tx.query<{ id: string }>("select id from prompts where type = 'grader'")).rows[0].id,
    );
    expect(state).toMatchObject({
      activePromptId: example,
      graderPromptId: exampleGrader,
      columns: [{ provider: "mock", model: "echo", params: {} }],
    });
    const exampleDataset = await asUser(
      test.db,
      userC,
      async (tx) => (await tx.query<{ id: string }>("select id from datasets")).rows[0].id,
    );
    expect(state.datasetId).toBe(exampleDataset);
  });
});
