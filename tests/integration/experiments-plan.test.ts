import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExperimentSchema } from "@/lib/api/experiments";
import { localUserId } from "@/lib/auth/local-user";
import { savePrice } from "@/lib/services/prices";
import { createExperiment, listExperiments } from "@/lib/services/experiments";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

// `parallaxr run --dry-run` and the list `--resume` reads, on PGlite: the plan's tokens are the
// spec's estimate of each rendered row, its cost the caller's price else the shipped reference,
// and nothing is stored.

let test: TestDatabase;
beforeAll(async () => {
  test = await createPgliteTestDatabase();
});
afterAll(() => test?.drop());

const prompt = { name: "prompt.txt", text: "Tell {{who}} about {{topic}}.\n" };
const experiments = {
  name: "experiments.csv",
  text: "provider,model,who,topic\nmock,mock,Ada,GGUF\nopenai,gpt-4o,Grace,\nmock,mock,Alan,tides\nnowhere,x,Linus,kernels\n",
};
const documentOf = (who: string, topic: string) => `## Document: prompt.txt\n\nTell ${who} about ${topic}.\n\n\n---\n\n`;
const tokens = (text: string) => Math.floor([...text].length / 4);

describe("experiments: the dry run's plan and the list", () => {
  it("plans each model's rows, estimated input tokens and input cost, warning for a missing value, storing nothing", async () => {
    await savePrice(
      { db: test.db },
      { userId: localUserId, price: { provider: "mock", model: "mock", inputPerMTok: 1_000_000, outputPerMTok: 0 } },
    );
    const input = createExperimentSchema.parse({ prompt, experiments, dryRun: true });

    const answer = await createExperiment({ db: test.db }, { userId: localUserId, input });

    if (!("plan" in answer)) throw new Error("expected a plan");
    const mockTokens = tokens(documentOf("Ada", "GGUF")) + tokens(documentOf("Alan", "tides"));
    const openaiTokens = tokens(documentOf("Grace", "{{topic}}"));
    expect(answer.plan).toEqual({
      rowCount: 4,
      models: [
        // the caller's own price: a dollar a token
        { provider: "mock", model: "mock", rows: 2, inputTokens: mockTokens, estimatedCostUsd: mockTokens },
        // the shipped reference's $2.50 per million input tokens
        { provider: "openai", model: "gpt-4o", rows: 1, inputTokens: openaiTokens, estimatedCostUsd: (openaiTokens * 2.5) / 1e6 },
        { provider: "nowhere", model: "x", rows: 1, inputTokens: tokens(documentOf("Linus", "kernels")), estimatedCostUsd: null },
      ],
      warnings: ["Variable {{topic}} in template has no value in experiment row 2"],
    });
    expect((await listExperiments({ db: test.db }, { userId: localUserId })).experiments).toEqual([]);
  });

  it("lists the runs made, newest first, and those of the same input by its hash", async () => {
    const first = createExperimentSchema.parse({ prompt, experiments });
    const other = createExperimentSchema.parse({ prompt, experiments, timeoutSeconds: 5 });
    const made = [];
    for (const input of [first, other]) {
      const answer = await createExperiment({ db: test.db }, { userId: localUserId, input });
      if (!("experiment" in answer)) throw new Error("expected an experiment");
      made.push(answer.experiment);
    }

    const all = await listExperiments({ db: test.db }, { userId: localUserId });
    expect(all.experiments.map((entry) => entry.id)).toEqual([made[1].id, made[0].id]);
    const same = await listExperiments({ db: test.db }, { userId: localUserId, inputHash: made[0].inputHash });
    expect(same.experiments.map((entry) => entry.id)).toEqual([made[0].id]);
    expect(same.experiments[0]).toMatchObject({ promptFile: "prompt.txt", experimentsFile: "experiments.csv", rowCount: 4 });
  });
});
