import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asUser } from "@/lib/db/as-user";
import { insertPrompt } from "@/lib/db/prompts/prompts";
import { createRun, estimateRun } from "@/lib/engine/create-run";
import { ActiveRunError, ValidationError } from "@/lib/engine/errors";
import { changeRunStatus } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { userA, userB, type TestDatabase } from "../helpers/databases";

const providers = createProviderRegistry([createMockProvider()]);
const models = [{ provider: "mock", model: "fast" }];

/**
 * What the server decides before a run starts, on one kind of database: every variable has a
 * column (else 400 naming each), and one unfinished run per prompt (else 409 naming it), also
 * when two requests race. No worker runs here, so every created run stays queued.
 */
export function describeRunAdmission(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`run admission on ${label}`, () => {
    let test: TestDatabase | null = null;
    beforeAll(async () => {
      test = await create();
    });
    afterAll(async () => {
      await test?.drop();
    });

    const newPrompt = (userId: string, text: string) =>
      asUser(test!.db, userId, (tx) => insertPrompt(tx, { name: `p-${Math.random()}`, text, type: "generator" }));
    const runCount = async () => (await test!.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n;
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => error,
      );

    it("refuses a prompt variable no row provides, naming each, and creates nothing", async (context) => {
      if (!test) return context.skip();
      const before = await runCount();
      const error = await refusal(
        createRun(
          { db: test.db, providers },
          {
            userId: userA,
            input: { prompt: "Write about {{topic}} in a {{tone}} tone for {{audience}}.", rows: [{ topic: "AI" }], models },
          },
        ),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe("rows");
      expect((error as Error).message).toContain("{{tone}} and {{audience}}");
      expect((error as Error).message).not.toContain("{{topic}}");
      expect((error as Error).message).toContain("Its columns are: topic.");
      // no rows at all, and a grader's variable that is neither a column nor {{output}}
      const noRows = await refusal(createRun({ db: test.db, providers }, { userId: userA, input: { prompt: "About {{topic}}", models } }));
      expect((noRows as Error).message).toContain("The prompt uses {{topic}}, but the run has no dataset or rows.");
      const grader = await refusal(
        createRun(
          { db: test.db, providers },
          {
            userId: userA,
            input: { prompt: "About {{topic}}", grader: "Grade {{output}} by {{rubric}}", rows: [{ topic: "AI" }], models },
          },
        ),
      );
      expect((grader as Error).message).toContain('The grader "Inline grader" uses {{rubric}}');
      expect(await runCount()).toBe(before);
      // the plan of such a draft is still given (the page estimates while a person types)
      expect((await estimateRun({ db: test.db, providers }, { userId: userA, input: { prompt: "About {{topic}}", models } })).cells).toBe(
        1,
      );
    });

    it("starts it anyway with the explicit warn rule (the experiments runner's)", async (context) => {
      if (!test) return context.skip();
      const run = await createRun(
        { db: test.db, providers },
        { userId: userA, input: { prompt: "About {{topic}} and {{missing}}", rows: [{ topic: "AI" }], models }, missingVariables: "warn" },
      );
      expect(run.status).toBe("queued");
      // extra columns are fine, and a grader may use {{output}}
      const fitting = await createRun(
        { db: test.db, providers },
        { userId: userA, input: { prompt: "About {{topic}}", grader: "Grade {{output}}", rows: [{ topic: "AI", extra: "x" }], models } },
      );
      expect(fitting.status).toBe("queued");
    });

    it("refuses a second run of a prompt while one is unfinished, naming it, until it ends", async (context) => {
      if (!test) return context.skip();
      const prompt = await newPrompt(userA, "Say hello.");
      const first = await createRun({ db: test.db, providers }, { userId: userA, input: { promptId: prompt.id, models } });
      for (const action of [null, "pause"] as const) {
        if (action) await changeRunStatus({ db: test.db }, { userId: userA, runId: first.id, action });
        const second = await refusal(createRun({ db: test.db, providers }, { userId: userA, input: { promptId: prompt.id, models } }));
        expect(second).toBeInstanceOf(ActiveRunError);
        expect((second as ActiveRunError).runId).toBe(first.id);
      }
      // another prompt, and an inline prompt, are not held by it
      const other = await newPrompt(userA, "Say goodbye.");
      await createRun({ db: test.db, providers }, { userId: userA, input: { promptId: other.id, models } });
      await createRun({ db: test.db, providers }, { userId: userA, input: { prompt: "Say hello.", models } });
      await changeRunStatus({ db: test.db }, { userId: userA, runId: first.id, action: "cancel" });
      const next = await createRun({ db: test.db, providers }, { userId: userA, input: { promptId: prompt.id, models } });
      expect(next.id).not.toBe(first.id);
    });

    it("lets one of two runs of a prompt created at once through, and names it to the other", async (context) => {
      if (!test) return context.skip();
      for (let round = 0; round < 5; round++) {
        const prompt = await newPrompt(userB, `Round ${round}: say hello.`);
        const start = () => createRun({ db: test!.db, providers }, { userId: userB, input: { promptId: prompt.id, models } });
        const outcomes = await Promise.allSettled([start(), start()]);
        const created = outcomes.filter((outcome) => outcome.status === "fulfilled");
        const refused = outcomes.filter((outcome) => outcome.status === "rejected");
        expect(created).toHaveLength(1);
        expect(refused).toHaveLength(1);
        expect(refused[0].reason).toBeInstanceOf(ActiveRunError);
        expect(refused[0].reason.runId).toBe(created[0].value.id);
        const { rows } = await test.db.query<{ n: number }>("select count(*)::int as n from runs where prompt_id = $1", [prompt.id]);
        expect(rows[0].n).toBe(1);
      }
    });
  });
}
