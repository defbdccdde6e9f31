import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEvalSchema, type CreateEvalRequest } from "@/lib/api/evals";
import { localUserId } from "@/lib/auth/local-user";
import { createEval } from "@/lib/engine/create-eval";
import { InvalidInputError, TooLargeError } from "@/lib/engine/errors";
import { defaultRunLimits } from "@/lib/engine/run-limits";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

// Planning an eval run (issue 12) on PGlite, with no worker: the cells of each prompt x model x
// test case x trial, the rendered inputs the worker sends, and the refusals before anything is
// stored.

let test: TestDatabase;
beforeAll(async () => {
  test = await createPgliteTestDatabase();
});
afterAll(() => test?.drop());

const SUMMARIZER = `name: summarizer_v1
description: "A custom prompt"
version: "1.0"
system: "You are a helpful assistant."
template: |
  Summarize this in {max_sentences} sentences:

  {text}
`;

const CONFIG = `models: [mock/fast, mock/echo]
max_tokens: 256
temperature: 0.0
evaluation_threshold: 0.5
repeat: 2
surprise: 1

prompts:
  - ../prompts/summarizer_v1.yaml
  - name: inline_prompt
    template: "Summarize {text} in {max_sentences} sentences"

test_cases:
  - name: test1
    inputs: {text: "Python is a programming language.", max_sentences: 2.0}
    expected_contains: ["Python"]
  - name: no_sentences
    inputs: {text: "Rust"}

metrics:
  - type: contains
  - type: llm_judge
    criteria: Accuracy
    model: mock/fast
`;

function input(request: Partial<CreateEvalRequest>) {
  return createEvalSchema.parse({ config: CONFIG, configName: "configs/eval_summarizer.yaml", ...request });
}

describe("eval runs: planning", () => {
  it("plans one cell per prompt x model x test case x trial, each prompt a variant with its rendered inputs", async () => {
    const summary = await createEval(
      { db: test.db },
      { userId: localUserId, input: input({ files: { "../prompts/summarizer_v1.yaml": SUMMARIZER } }) },
    );
    expect(summary).toMatchObject({
      configName: "configs/eval_summarizer.yaml",
      prompts: ["summarizer_v1", "inline_prompt"],
      models: ["mock/fast", "mock/echo"],
      testCases: 2,
      repeat: 2,
      cells: 16,
      counts: { pending: 16, ok: 0, warning: 0, error: 0 },
    });
    expect(summary.warnings).toEqual([expect.stringMatching(/^configs\/eval_summarizer\.yaml, line 6: Unknown key "surprise"/)]);

    const { rows: cells } = await test.db.query<{ variant: number; column_index: number; row_index: number; trial: number; name: string }>(
      `select c.variant, c.column_index, c.row_index, c.trial, v.name
         from run_cells c join prompt_versions v on v.id = c.prompt_version_id
        where c.run_id = $1 order by c.variant, c.column_index, c.row_index, c.trial`,
      [summary.id],
    );
    expect(cells).toHaveLength(16);
    expect(new Set(cells.map((cell) => `${cell.variant}:${cell.name}`))).toEqual(new Set(["0:summarizer_v1", "1:inline_prompt"]));
    expect(cells.slice(0, 4).map((cell) => [cell.column_index, cell.row_index, cell.trial])).toEqual([
      [0, 0, 0],
      [0, 0, 1],
      [0, 1, 0],
      [0, 1, 1],
    ]);

    const { rows: columns } = await test.db.query<{ provider: string; model: string; params: unknown }>(
      "select provider, model, params from run_columns where run_id = $1 order by column_index",
      [summary.id],
    );
    expect(columns).toEqual([
      { provider: "mock", model: "fast", params: { maxTokens: 256, temperature: 0 } },
      { provider: "mock", model: "echo", params: { maxTokens: 256, temperature: 0 } },
    ]);

    const { rows } = await test.db.query<{ data: { name: string; rendered: unknown[]; inputs: unknown } }>(
      "select d.data from runs r join dataset_rows d on d.dataset_id = r.dataset_id where r.id = $1 order by d.row_index",
      [summary.id],
    );
    // 2.0 renders as Python's str() writes it; a variable the inputs lack is that result's error.
    expect(rows.map((row) => row.data.rendered)).toEqual([
      [
        { input: "Summarize this in 2.0 sentences:\n\nPython is a programming language.\n" },
        { input: "Summarize Python is a programming language. in 2.0 sentences" },
      ],
      [
        { error: "Missing input variable max_sentences in test case no_sentences" },
        { error: "Missing input variable max_sentences in test case no_sentences" },
      ],
    ]);
    expect(rows[0].data.inputs).toEqual({ text: "Python is a programming language.", max_sentences: "2.0" });

    const { rows: runs } = await test.db.query<{ kind: string; config: { eval: { judges: unknown; prompts: unknown } } }>(
      "select kind, config from runs where id = $1",
      [summary.id],
    );
    expect(runs[0].kind).toBe("eval");
    expect(runs[0].config.eval.judges).toEqual({ llm_judge: { provider: "mock", model: "fast" } });
    expect(runs[0].config.eval.prompts).toEqual([
      { name: "summarizer_v1", description: "A custom prompt", version: "1.0", system: "You are a helpful assistant." },
      { name: "inline_prompt", description: "", version: "1.0", system: null },
    ]);
  });

  it("finds a prompt file sent under its normalized path", async () => {
    const summary = await createEval(
      { db: test.db },
      {
        userId: localUserId,
        input: input({ config: CONFIG.replace("../prompts/", "./../prompts/"), files: { "../prompts/summarizer_v1.yaml": SUMMARIZER } }),
      },
    );
    expect(summary.prompts).toEqual(["summarizer_v1", "inline_prompt"]);
  });

  it("refuses a prompt file the request does not carry, naming its path and line, and stores nothing", async () => {
    const before = await test.db.query<{ count: number }>("select count(*)::int as count from runs");
    const refused = createEval({ db: test.db }, { userId: localUserId, input: input({ files: { "prompts/other.yaml": SUMMARIZER } }) });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toMatchObject({
      field: "files",
      message: expect.stringMatching(
        /^configs\/eval_summarizer\.yaml, line 9: FileNotFoundError: \.\.\/prompts\/summarizer_v1\.yaml \(prompt file paths are relative to the config file/,
      ),
    });
    const after = await test.db.query<{ count: number }>("select count(*)::int as count from runs");
    expect(after.rows[0].count).toBe(before.rows[0].count);
  });

  it("refuses a config's and a prompt file's problems with their lines", async () => {
    await expect(
      createEval(
        { db: test.db },
        { userId: localUserId, input: input({ config: "model: mock/fast\nprompts: []\ntest_cases:\n  - inputs: {}\n" }) },
      ),
    ).rejects.toMatchObject({
      field: "config",
      message:
        "configs/eval_summarizer.yaml, line 2: No prompts found in config!\nconfigs/eval_summarizer.yaml, line 4: test_cases[0].name is required",
    });
    await expect(
      createEval(
        { db: test.db },
        { userId: localUserId, input: input({ files: { "../prompts/summarizer_v1.yaml": "name: x\ntemplate: 'a {b'\n" } }) },
      ),
    ).rejects.toMatchObject({ field: "files", message: expect.stringMatching(/^\.\.\/prompts\/summarizer_v1\.yaml, line 2: template: /) });
  });

  it("bounds the cells before anything is rendered or stored", async () => {
    const refused = createEval(
      { db: test.db, limits: { ...defaultRunLimits, maxCellsPerRun: 15 } },
      { userId: localUserId, input: input({ files: { "../prompts/summarizer_v1.yaml": SUMMARIZER } }) },
    );
    await expect(refused).rejects.toBeInstanceOf(TooLargeError);
    await expect(refused).rejects.toMatchObject({ message: expect.stringMatching(/^This run would have 16 cells/) });
  });
});
