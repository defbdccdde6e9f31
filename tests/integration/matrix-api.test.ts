import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Parser } from "commonmark";
import { strFromU8, unzipSync } from "fflate";
import { parse as parseYaml } from "yaml";
import { GET as getComparisonRoute } from "@/app/api/v1/matrix/[id]/comparisons/[name]/route";
import { GET as getZipRoute } from "@/app/api/v1/matrix/[id]/download.zip/route";
import { GET as getMatrixRoute } from "@/app/api/v1/matrix/[id]/route";
import { GET as listMatrixRoute } from "@/app/api/v1/matrix/route";
import { GET as getSummaryRoute } from "@/app/api/v1/matrix/[id]/summary.json/route";
import { POST as postMatrix } from "@/app/api/v1/matrix/route";
import { createMatrixSchema, type MatrixDetail } from "@/lib/api/matrix";
import { readAccessConfig } from "@/lib/auth/access-config";
import { countWords, mockJudgeAnswer, parseJudgeAnswer } from "@/lib/core/eval/metrics";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createMatrix } from "@/lib/services/matrix";
import { userB, waitFor } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

// The matrix API (issue 13) through its route handlers, keyless on mock models: a run and its
// grid, a dry run's plan, and what a wrong or hostile request gets.

const providers = createProviderRegistry([createMockProvider()]);
const engine = pgliteEngine(providers);
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

beforeAll(() => {
  contextStore.__parallaxrContext = Promise.resolve({
    db: engine.db,
    providers,
    access: readAccessConfig({}),
    worker: null,
  } as unknown as AppContext);
});
afterAll(() => {
  contextStore.__parallaxrContext = undefined;
});

const BODY = {
  prompts: [
    { version: "v1", fileName: "v1.txt", text: "Summarize:\n\n{{input}}" },
    { version: "v2", fileName: "v2.md", text: "# Task\n\nList the key points of {{input_id}}:\n\n{{transcript}}" },
  ],
  models: ["mock/echo", "mock/fast"],
  inputs: [
    { id: "tech-talk-01", text: "# Example Tech Talk\n\nCompilers, <script>alert(1)</script> and more." },
    { id: "interview-02", text: "An interview." },
  ],
};

const post = (body: unknown) => postMatrix(new Request("http://test/api/v1/matrix", { method: "POST", body: JSON.stringify(body) }));
const comparison = (id: string, name: string) =>
  getComparisonRoute(new Request(`http://test/api/v1/matrix/${id}/comparisons/${name}`), { params: Promise.resolve({ id, name }) });
const zip = (id: string) => getZipRoute(new Request(`http://test/api/v1/matrix/${id}/download.zip`), { params: Promise.resolve({ id }) });
const summaryOf = (id: string) =>
  getSummaryRoute(new Request(`http://test/api/v1/matrix/${id}/summary.json`), { params: Promise.resolve({ id }) });
const get = (id: string) => getMatrixRoute(new Request(`http://test/api/v1/matrix/${id}`), { params: Promise.resolve({ id }) });

async function runToEnd(body: unknown): Promise<MatrixDetail> {
  const response = await post(body);
  expect(response.status).toBe(201);
  const { matrix } = (await response.json()) as { matrix: { id: string } };
  return waitFor(
    async () => {
      const detail = (await (await get(matrix.id)).json()) as MatrixDetail;
      return detail.matrix.status === "completed" ? detail : null;
    },
    { what: "the matrix to complete", timeoutMs: 20_000 },
  );
}

let finishedRun: MatrixDetail | null = null;

describe("the matrix API", () => {
  it("creates 8 evals for 2 x 2 x 2 and answers the grid with every output as the model wrote it", async () => {
    const detail = await runToEnd(BODY);
    expect(detail.matrix.plan.evals).toBe(8);
    expect(detail.matrix.counts).toEqual({ pending: 0, ok: 8, warning: 0, error: 0 });
    expect(detail.evals).toHaveLength(8);
    // The input's text reaches the model as it is (a script tag included): output is data, shown as text by the page.
    expect(detail.evals[0].output).toContain("<script>alert(1)</script>");
    finishedRun = detail;
  });

  it("serves each comparison in the spec's format, front matter and sections, one folder per group", async () => {
    const detail = finishedRun!;
    const id = detail.matrix.id;
    const ts = detail.matrix.batchId.replace(/_matrix$/, "");
    // 2 inputs x 2 models prompt comparisons, 2 inputs x 2 versions model comparisons: 8 folders, none shared.
    expect(detail.comparisons[0]).toBe("index");
    const folders = detail.comparisons.slice(1);
    expect(folders).toHaveLength(8);
    expect(new Set(folders).size).toBe(8);
    expect(folders).toContain(`${ts}_prompt_tech-talk-01_mock-echo`);
    expect(folders).toContain(`${ts}_model_interview-02_v2`);

    const response = await comparison(id, `${ts}_prompt_tech-talk-01_mock-echo.md`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/markdown");
    const markdown = await response.text();
    const [, frontMatter, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(markdown)!;
    expect(parseYaml(frontMatter)).toMatchObject({
      comparison_type: "prompt_comparison",
      transcript: "tech-talk-01",
      model: "mock/echo",
      prompts_compared: ["v1", "v2"],
    });
    const headings: Array<[number, string]> = [];
    const walker = new Parser().parse(body).walker();
    for (let event = walker.next(); event; event = walker.next()) {
      if (event.entering && event.node.type === "heading") headings.push([event.node.level, event.node.firstChild?.literal ?? ""]);
    }
    // The title, then a section per version; the outputs (the mock echoes the prompt) keep their own headings as written.
    expect(headings[0]).toEqual([1, "Prompt Comparison: tech-talk-01"]);
    expect(headings.filter(([level]) => level === 2)).toEqual([
      [2, "Version v1"],
      [2, "Version v2"],
    ]);
    expect(body).toContain("**Transcript**: Example Tech Talk");
    expect(body).toMatch(/\*\*Tokens\*\*: [\d,]+ input \/ [\d,]+ output/);

    const model = await (await comparison(id, `${ts}_model_interview-02_v2.md`)).text();
    expect(model).toContain("comparison_type: model_comparison");
    expect(model).toContain("## Model: mock/echo");
    expect(model).toContain("**Transcript**: interview-02");
  });

  it("serves a comparison whose folder carries a model name with a colon, a failed eval shown with its error", async () => {
    const detail = await runToEnd({ ...BODY, models: ["mock/echo", "mock/llama3:8b"], inputs: [BODY.inputs[1]] });
    const failed = detail.evals.filter((one) => one.model === "mock/llama3:8b");
    expect(failed.map((one) => one.status)).toEqual(["error", "error"]);
    const folder = detail.comparisons.find((name) => name.endsWith("_prompt_interview-02_mock-llama3:8b"))!;
    expect(folder).toBeDefined();
    const prompts = await comparison(detail.matrix.id, `${folder}.md`);
    expect(prompts.status).toBe(200);
    expect(await prompts.text()).toContain(failed[0].error!);
    const models = await (
      await comparison(detail.matrix.id, `${detail.comparisons.find((name) => name.endsWith("_model_interview-02_v1"))}.md`)
    ).text();
    expect(models).toContain("## Model: mock/llama3:8b");
  });

  it("answers 404 for a comparison that is not one and 400 for a name that could leave its folder", async () => {
    const id = finishedRun!.matrix.id;
    expect((await comparison(id, "20990101_000000_prompt_x_y.md")).status).toBe(404);
    for (const name of ["../../etc/passwd.md", "..%2F..%2Fsummary.md", "index.json", ".md", "a/b.md"]) {
      expect((await comparison(id, name)).status).toBe(400);
    }
  });

  it("downloads the batch folder as a zip built from the database, the index's links resolving inside it", async () => {
    const detail = finishedRun!;
    const response = await zip(detail.matrix.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toContain(`${detail.matrix.batchId}.zip`);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const names = Object.keys(files).sort();
    const runs = names.filter((name) => name.startsWith("runs/"));
    expect(runs.sort()).toEqual(detail.evals.map((one) => `runs/${one.runId}.json`).sort());
    const run = JSON.parse(strFromU8(files[runs[0]]));
    expect(Object.keys(run)).toEqual([
      "run_id",
      "batch_id",
      "timestamp",
      "prompt",
      "model",
      "input",
      "output",
      "tokens",
      "cost_usd",
      "duration_seconds",
      "error",
    ]);
    const summary = strFromU8(files[`batches/${detail.matrix.batchId}/summary.json`]);
    expect(summary).toBe(await (await summaryOf(detail.matrix.id)).text());
    expect(JSON.parse(summary)).toMatchObject({ total_runs: 8, successful_runs: 8, runs: detail.evals.map((one) => one.runId) });

    const index = strFromU8(files["comparisons/index.md"]);
    expect(index).toBe(await (await comparison(detail.matrix.id, "index.md")).text());
    const links = [...index.matchAll(/\]\((\.\/[^)]+)\)/g)].map((match) => match[1]);
    expect(links).toHaveLength(8);
    for (const link of links) {
      const target = `comparisons/${link.replace(/^\.\//, "")}`;
      expect(names).toContain(target);
      expect(strFromU8(files[target])).toMatch(/^---\ncomparison_type: (prompt|model)_comparison\n/);
    }
    // Every comparison file is linked: nothing in the folder is left out of the index.
    expect(names.filter((name) => name.endsWith("/comparison.md"))).toHaveLength(8);
    // The same batch gives the same bytes.
    const again = new Uint8Array(await (await zip(detail.matrix.id)).arrayBuffer());
    const first = new Uint8Array(await (await zip(detail.matrix.id)).arrayBuffer());
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
  });

  it("lists the caller's matrices newest first, and finds one by its batch id", async () => {
    const detail = finishedRun!;
    const list = await listMatrixRoute(new Request("http://test/api/v1/matrix"));
    expect(list.status).toBe(200);
    const { matrices } = (await list.json()) as { matrices: Array<{ id: string; batchId: string }> };
    expect(matrices.map((matrix) => matrix.id)).toContain(detail.matrix.id);
    const one = await listMatrixRoute(new Request(`http://test/api/v1/matrix?batchId=${detail.matrix.batchId}`));
    const found = ((await one.json()) as { matrices: Array<{ id: string; batchId: string }> }).matrices;
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found.every((matrix) => matrix.batchId === detail.matrix.batchId)).toBe(true);
    expect((await listMatrixRoute(new Request("http://test/api/v1/matrix?batchId=../x"))).status).toBe(400);
    const none = await listMatrixRoute(new Request("http://test/api/v1/matrix?batchId=19990101_000000_matrix"));
    expect(((await none.json()) as { matrices: unknown[] }).matrices).toEqual([]);
  });

  it("scores each output by eval metrics: response_length here, llm_judge by the (mock) judge, and the pass rule", async () => {
    const detail = await runToEnd({
      ...BODY,
      models: ["mock/echo"],
      prompts: [BODY.prompts[0]],
      inputs: [BODY.inputs[1]],
      metrics: [
        { type: "response_length", max_words: 400 },
        { type: "response_length", max_words: 2 },
        { type: "llm_judge", criteria: "Is it a faithful summary?" },
      ],
    });
    const [only] = detail.evals;
    const output = only.output!;
    expect(countWords(output)).toBeGreaterThan(2);
    const judged = parseJudgeAnswer(
      mockJudgeAnswer({ model: "echo", criteria: "Is it a faithful summary?", input: "Summarize:\n\nAn interview.", output }),
    );
    if (!judged.ok) throw new Error(judged.error);
    expect(only.metricScores).toEqual({
      scores: { response_length: 1, response_length_2: 0, llm_judge: judged.score },
      passed: false,
      failing: judged.score >= 0.5 ? ["response_length_2"] : ["response_length_2", "llm_judge"],
    });

    const both = await post({ ...BODY, metrics: [{ type: "llm_judge", criteria: "x" }], grader: { text: "{{output}}" } });
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: { message: string } }).error.message).toBe("Give a grader or metrics, not both.");
    // contains and exact_match need an expected output, which a matrix's inputs do not have.
    expect((await post({ ...BODY, metrics: [{ type: "contains" }] })).status).toBe(400);
  });

  it("answers a dry run with 200 and the plan, and creates nothing", async () => {
    const response = await post({ ...BODY, dryRun: true });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { dryRun: true; plan: { evals: number; estimate: { models: unknown[] } } };
    expect(answer.dryRun).toBe(true);
    expect(answer.plan.evals).toBe(8);
    expect(answer.plan.estimate.models).toHaveLength(2);
  });

  it("refuses an unknown field, a bad subset, a placeholder without a value and a name that could leave its folder", async () => {
    const unknown = await post({ ...BODY, max_concurrent: 3 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain("max_concurrent");

    const subset = await post({ ...BODY, subset: { prompts: "v1,,v2" } });
    expect(subset.status).toBe(400);
    expect(JSON.stringify(await subset.json())).toContain("--prompts must be comma-separated versions (e.g., v1,v2,v3)");

    const unknownModel = await post({ ...BODY, subset: { models: "mock/echo,gpt-9" } });
    expect(unknownModel.status).toBe(400);
    expect(((await unknownModel.json()) as { error: { message: string } }).error.message).toContain('--models: unknown model "gpt-9"');

    const placeholder = await post({ ...BODY, prompts: [{ version: "v3", text: "{{style}}: {{input}}" }] });
    expect(placeholder.status).toBe(400);
    expect(JSON.stringify(await placeholder.json())).toContain("{{style}}");

    for (const id of ["../etc", "a/b", "..", ".hidden"]) {
      const escaping = await post({ ...BODY, inputs: [{ id, text: "x" }] });
      expect(escaping.status).toBe(400);
    }
    const escapingVersion = await post({ ...BODY, prompts: [{ version: "../v1", text: "{{input}}" }] });
    expect(escapingVersion.status).toBe(400);
  });

  it("answers 404 for another user's matrix and for a matrix id that is not one", async () => {
    const theirs = await createMatrix({ db: engine.db }, { userId: userB, input: createMatrixSchema.parse(BODY) });
    if (!("matrix" in theirs)) throw new Error("expected a run");
    expect((await get(theirs.matrix.id)).status).toBe(404);
    expect((await get("not-a-uuid")).status).toBe(400);
  });
});
