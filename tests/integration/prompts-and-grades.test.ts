import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { deletePrompt, getPromptById, insertPrompt, listPrompts, updatePrompt } from "@/lib/db/prompts/prompts";
import { setManualGrade } from "@/lib/db/runs/run-lifecycle";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/engine/run-service";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, userA, userB, waitFor, type TestDatabase } from "../helpers/databases";

describe("prompt versions and manual grades", () => {
  let test: TestDatabase;
  let worker: Worker;
  const providers = createProviderRegistry([createMockProvider()]);

  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    worker = await startWorker({ db: test.db, providers, pollMs: 20 });
  });
  afterAll(async () => {
    await worker.stop();
    await test.drop();
  });

  const runPrompt = async (promptId: string) => {
    const run = await createRun({ db: test.db, providers }, { userId: userA, input: { promptId, models: [{ provider: "mock", model: "fast" }] } });
    return waitFor(async () => {
      const current = await getRun({ db: test.db }, { userId: userA, runId: run.id });
      return current.status === "completed" ? current : null;
    });
  };
  const versionOf = async (promptVersionId: string | null) =>
    (await test.db.query<{ version: number; text: string }>("select version, text from prompt_versions where id = $1", [promptVersionId])).rows[0];

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
    const run = await runPrompt(prompt.id).catch(() => null); // a missing variable is a warning, not a failure
    expect((await asUser(test.db, userA, (tx) => listPrompts(tx))).map((p) => p.name)).toContain("Doomed");
    expect(await asUser(test.db, userB, (tx) => getPromptById(tx, { id: prompt.id }))).toBeNull();
    expect(await asUser(test.db, userB, (tx) => deletePrompt(tx, { id: prompt.id }))).toBe(false);
    expect(await asUser(test.db, userA, (tx) => deletePrompt(tx, { id: prompt.id }))).toBe(true);
    expect(await asUser(test.db, userA, (tx) => getPromptById(tx, { id: prompt.id }))).toBeNull();
    if (run) expect((await versionOf(run.promptVersionId)).text).toBe("Bye {{x}}");
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
});
