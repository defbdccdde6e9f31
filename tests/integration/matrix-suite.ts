import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMatrixSchema, type CreateMatrixRequest, type MatrixDetail } from "@/lib/api/matrix";
import { batchTimestampOf } from "@/lib/core/matrix/ids";
import type { Database } from "@/lib/db/database";
import { InvalidInputError, NotFoundError, TooLargeError } from "@/lib/engine/errors";
import { defaultRunLimits } from "@/lib/engine/run-limits";
import { startWorker, type Worker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createMatrix, getMatrix, matrixComparison, matrixSummaryFile, matrixZip } from "@/lib/services/matrix";
import { changeRunStatus } from "@/lib/services/runs";
import { referencePrice } from "@/lib/providers/pricing-reference";
import { strFromU8, unzipSync } from "fflate";
import { userA, userB, waitFor, type TestDatabase } from "../helpers/databases";
import { readJsonFixture, TEST_API_KEY } from "../helpers/vendor-server";

/**
 * A local server speaking Groq's chat completions (OpenAI's wire format), answering each call
 * after delayMs and counting the calls in flight at once, from the request's arrival to the end
 * of its answer: what the concurrency cap is measured by.
 */
interface CountingServer {
  baseURL: string;
  maxInFlight: number;
  calls: Array<{ model: string; prompt: string; system: string | null }>;
  /** Answers a model's calls with this HTTP status and error instead of a completion. */
  failing: Set<string>;
  reset(): void;
  close(): Promise<void>;
}

async function startCountingServer(delayMs: number): Promise<CountingServer> {
  let inFlight = 0;
  const state: CountingServer = {
    baseURL: "",
    maxInFlight: 0,
    calls: [],
    failing: new Set(),
    reset() {
      state.maxInFlight = 0;
      state.calls = [];
      state.failing.clear();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    response.on("close", () => {
      inFlight -= 1;
    });
    let raw = "";
    request.on("data", (chunk) => (raw += chunk));
    request.on("end", () => {
      const body = JSON.parse(raw) as { model: string; messages: Array<{ role: string; content: string }> };
      const prompt = body.messages.find((message) => message.role === "user")?.content ?? "";
      const system = body.messages.find((message) => message.role === "system")?.content ?? null;
      state.calls.push({ model: body.model, prompt, system });
      setTimeout(() => {
        if (state.failing.has(body.model)) {
          response.writeHead(400, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: { message: `The model ${body.model} is not available`, type: "invalid_request_error" } }));
          return;
        }
        const completion = readJsonFixture("groq", "chat-completion.json");
        completion.model = body.model;
        // A grader's prompt (the tests' start with "Grade:") gets a grade.
        completion.choices[0].message.content = prompt.startsWith("Grade:") ? "0.75" : `${body.model} says: ${prompt.slice(0, 40)}`;
        completion.usage.prompt_tokens = 1000;
        completion.usage.completion_tokens = 100;
        completion.usage.total_tokens = 1100;
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(completion));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

const PROMPTS = [
  { version: "v1", fileName: "v1.txt", text: "Summarize {{input_id}}:\n\n{{input}}" },
  {
    version: "v2",
    fileName: "v2.yaml",
    text: "name: summary\nsystem: Be brief.\ntemplate: |\n  Key points of {input_id}:\n  {transcript}\n",
  },
];
const INPUTS = [
  { id: "tech-talk-01", text: "# Example Tech Talk\n\nWe talk about compilers." },
  { id: "interview-02", text: "An interview without a heading." },
];

/** Matrix runs on the engine, run against one kind of database. */
export function describeMatrix(label: string, create: () => Promise<TestDatabase | null>): void {
  describe(`matrix runs on ${label}`, () => {
    let test: TestDatabase | null = null;
    let worker: Worker | null = null;
    let groq: CountingServer;
    beforeAll(async () => {
      test = await create();
      // 400 ms per answer: long enough for the worker to claim a third call while two are held,
      // even on a loaded machine (at 120 ms a busy test run saw only 2 in flight)
      groq = await startCountingServer(400);
      if (!test) return;
      const providers = createProviderRegistry([createMockProvider()], {
        factories: { groq: providerFactories.groq },
        credentials: async () => ({ apiKey: TEST_API_KEY, baseURL: groq.baseURL, allowPrivateAddresses: true }),
      });
      worker = await startWorker({ db: test.db, providers, pollMs: 20 });
    });
    afterAll(async () => {
      await worker?.stop();
      await test?.drop();
      await groq.close();
    });

    const request = (overrides: Partial<CreateMatrixRequest> = {}) =>
      createMatrixSchema.parse({ prompts: PROMPTS, models: ["mock/echo", "mock/fast"], inputs: INPUTS, cache: false, ...overrides });

    async function runToEnd(db: Database, userId: string, overrides: Partial<CreateMatrixRequest> = {}): Promise<MatrixDetail> {
      const created = await createMatrix({ db }, { userId, input: request(overrides) });
      if (!("matrix" in created)) throw new Error("expected a run");
      return waitFor(
        async () => {
          const detail = await getMatrix({ db }, { userId, matrixId: created.matrix.id });
          return detail.matrix.status === "completed" ? detail : null;
        },
        { timeoutMs: 30_000, what: "the matrix to complete" },
      );
    }

    it("runs 2 prompt versions x 2 models x 2 inputs as 8 evals, each prompt rendered and sent once", async (context) => {
      if (!test) return context.skip();
      const detail = await runToEnd(test.db, userA);
      expect(detail.matrix.plan).toMatchObject({
        prompts: ["v1", "v2"],
        models: ["mock/echo", "mock/fast"],
        inputs: ["tech-talk-01", "interview-02"],
        evals: 8,
      });
      expect(batchTimestampOf(detail.matrix.batchId)).not.toBeNull();
      expect(detail.evals).toHaveLength(8);
      expect(detail.evals.map((one) => `${one.prompt}+${one.model}+${one.input}`)).toEqual([
        "v1+mock/echo+tech-talk-01",
        "v1+mock/echo+interview-02",
        "v1+mock/fast+tech-talk-01",
        "v1+mock/fast+interview-02",
        "v2+mock/echo+tech-talk-01",
        "v2+mock/echo+interview-02",
        "v2+mock/fast+tech-talk-01",
        "v2+mock/fast+interview-02",
      ]);
      for (const one of detail.evals) {
        expect(one.status).toBe("ok");
        expect(one.error).toBeNull();
        expect(one.output).toBeTruthy();
        expect(one.tokensInput).toBeGreaterThan(0);
        expect(one.durationSeconds).not.toBeNull();
        // The spec's run id: the eval's start, then version, model (its "/" written "-") and input.
        expect(one.runId).toMatch(new RegExp(`^\\d{8}_\\d{6}_${one.prompt}_${one.model.replace("/", "-")}_${one.input}$`));
      }
      const { rows } = await test.db.query<{ input: string }>(
        `select d.data -> 'rendered' -> c.variant ->> 'input' as input
           from run_cells c join runs r on r.id = c.run_id join dataset_rows d on d.dataset_id = r.dataset_id and d.row_index = c.row_index
          where r.id = $1 order by c.variant, c.column_index, c.row_index`,
        [detail.matrix.id],
      );
      expect(rows[0].input).toBe("Summarize tech-talk-01:\n\n# Example Tech Talk\n\nWe talk about compilers.");
      expect(rows[4].input).toBe("Key points of tech-talk-01:\n# Example Tech Talk\n\nWe talk about compilers.\n");
    });

    it("answers a dry run with the plan and the estimate per model, and stores nothing", async (context) => {
      if (!test) return context.skip();
      const count = async () => (await test!.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n;
      const before = await count();
      const answer = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ models: ["llama-3.3-70b", "groq/unpriced-model"], dryRun: true }) },
      );
      expect(await count()).toBe(before);
      if (!("plan" in answer)) throw new Error("expected a plan");
      const { plan } = answer;
      expect(plan).toMatchObject({
        prompts: ["v1", "v2"],
        models: ["llama-3.3-70b", "groq/unpriced-model"],
        evals: 8,
        needsConfirmation: false,
      });
      // Above 100 evals the spec asks first: 2 versions x 1 model x 51 inputs is 102.
      const many = Array.from({ length: 51 }, (_, n) => ({ id: `input-${n}`, text: `text ${n}` }));
      const big = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ models: ["mock/echo"], inputs: many, dryRun: true }) },
      );
      expect("plan" in big && big.plan).toMatchObject({ evals: 102, needsConfirmation: true });
      const [llama, unpriced] = plan.estimate.models;
      expect(llama).toMatchObject({ model: "llama-3.3-70b", evals: 4 });
      expect(llama.inputTokens).toBeGreaterThan(0);
      expect(llama.outputTokens).toBeGreaterThan(0);
      expect(llama.costUsd).toBeGreaterThan(0);
      // An unpriced model's cost is unknown, not $0, and the total says one model is left out.
      expect(unpriced.costUsd).toBeNull();
      expect(plan.estimate.unpricedModels).toEqual(["groq/unpriced-model"]);
      expect(plan.estimate.costUsd).toBeCloseTo(llama.costUsd!, 10);
      // The cost from the shipped price of Groq's llama-3.3-70b-versatile: 1,000 output tokens an eval.
      const price = referencePrice("groq", "llama-3.3-70b-versatile")!;
      expect(llama.outputTokens).toBe(4 * 1000);
      expect(llama.costUsd).toBeCloseTo((llama.inputTokens * price.inputPerMTok! + llama.outputTokens * price.outputPerMTok!) / 1e6, 12);
      expect(groq.calls).toHaveLength(0);
    });

    it("keeps at most 3 calls in flight by default, measured at the vendor's server", async (context) => {
      if (!test) return context.skip();
      groq.reset();
      const detail = await runToEnd(test.db, userA, { models: ["llama-3.3-70b", "llama-3.1-8b"] });
      expect(groq.calls).toHaveLength(8);
      expect(groq.maxInFlight).toBe(3);
      expect(detail.evals.every((one) => one.status === "ok")).toBe(true);
      // The alias table: the spec's short names are Groq's full ids on the wire.
      expect(new Set(groq.calls.map((call) => call.model))).toEqual(new Set(["llama-3.3-70b-versatile", "llama-3.1-8b-instant"]));
      // A YAML prompt's system text is sent as the system message.
      expect(groq.calls.filter((call) => call.system === "Be brief.")).toHaveLength(4);
      const llama = detail.evals.find((one) => one.model === "llama-3.3-70b")!;
      expect(llama).toMatchObject({ tokensInput: 1000, tokensOutput: 100 });
      expect(llama.costUsd).toBeGreaterThan(0);

      // summary.json: the spec's keys in its order, and totals that add up.
      const file = await matrixSummaryFile({ db: test.db }, { userId: userA, matrixId: detail.matrix.id });
      const summary = JSON.parse(file.text);
      expect(Object.keys(summary).slice(0, 11)).toEqual([
        "batch_id",
        "timestamp",
        "total_runs",
        "successful_runs",
        "failed_runs",
        "total_tokens_input",
        "total_tokens_output",
        "total_cost_usd",
        "duration_seconds",
        "config",
        "runs",
      ]);
      expect(summary).toMatchObject({
        batch_id: detail.matrix.batchId,
        total_runs: 8,
        successful_runs: 8,
        failed_runs: 0,
        total_tokens_input: 8000,
        total_tokens_output: 800,
        config: { prompts: ["v1", "v2"], models: ["llama-3.3-70b", "llama-3.1-8b"], transcripts: ["tech-talk-01", "interview-02"] },
        errors: [],
        unpriced_runs: 0,
      });
      const costs = detail.evals.reduce((total, one) => total + one.costUsd!, 0);
      expect(summary.total_cost_usd).toBeCloseTo(costs, 6);
      expect(summary.duration_seconds).toBeGreaterThan(0);
      expect(summary.runs).toEqual(detail.evals.map((one) => one.runId));
    });

    it("records an unpriced model's cost as null and a failed call's error, and goes on", async (context) => {
      if (!test) return context.skip();
      groq.reset();
      groq.failing.add("broken-model");
      const detail = await runToEnd(test.db, userA, {
        models: ["groq/unpriced-model", "groq/broken-model"],
        prompts: [PROMPTS[0]],
        inputs: [INPUTS[0]],
        retries: 0,
      });
      const [unpriced, broken] = detail.evals;
      expect(unpriced).toMatchObject({ status: "ok", costUsd: null, tokensInput: 1000 });
      expect(broken.status).toBe("error");
      expect(broken.error).toContain("broken-model is not available");

      // The failed eval's error is in the summary's errors; the unpriced run counted, its cost unknown, not $0.
      const summary = JSON.parse((await matrixSummaryFile({ db: test.db }, { userId: userA, matrixId: detail.matrix.id })).text);
      expect(summary).toMatchObject({ total_runs: 2, successful_runs: 1, failed_runs: 1, total_cost_usd: null, unpriced_runs: 1 });
      expect(summary.unpriced_models).toEqual(["groq/unpriced-model"]);
      expect(summary.errors).toEqual([{ run_id: broken.runId, message: broken.error }]);
    });

    it("holds the engine's budget: evals that would pass it are skipped with the reason, and never called", async (context) => {
      if (!test) return context.skip();
      groq.reset();
      // About $0.0008 an eval by the estimate (1,000 output tokens at llama-3.3-70b's price): a $0.0005 budget starts none.
      const detail = await runToEnd(test.db, userA, { models: ["llama-3.3-70b"], prompts: [PROMPTS[0]], budgetUsd: 0.0005 });
      expect(groq.calls).toHaveLength(0);
      expect(detail.evals.map((one) => one.status)).toEqual(["skipped", "skipped"]);
      expect(detail.evals[0].error).toContain("budget of $0.0005");
      const summary = JSON.parse((await matrixSummaryFile({ db: test.db }, { userId: userA, matrixId: detail.matrix.id })).text);
      expect(summary).toMatchObject({ total_runs: 2, successful_runs: 0, failed_runs: 2, total_cost_usd: 0 });
      expect(summary.errors).toEqual(detail.evals.map((one) => ({ run_id: one.runId, message: one.error })));
      expect(detail.evals[0].runId).not.toBeNull();
    });

    it("grades each output with the grader's model when a grader is given, and refuses a grader without {{output}}", async (context) => {
      if (!test) return context.skip();
      groq.reset();
      const detail = await runToEnd(test.db, userA, {
        models: ["llama-3.3-70b"],
        prompts: [PROMPTS[0]],
        grader: { text: "Grade: is this a good summary of {{input_id}}?\n\n{{output}}", model: "llama-3.1-8b" },
      });
      expect(detail.evals.map((one) => one.grade)).toEqual([0.75, 0.75]);
      expect(detail.evals.map((one) => one.graderError)).toEqual([null, null]);
      // The grader's model is priced like the matrix's (Groq's llama-3.1-8b-instant: 1,000 in and 100 out at the server).
      const price = referencePrice("groq", "llama-3.1-8b-instant")!;
      for (const one of detail.evals)
        expect(one.graderCostUsd).toBeCloseTo((1000 * price.inputPerMTok! + 100 * price.outputPerMTok!) / 1e6, 12);
      const grading = groq.calls.filter((call) => call.prompt.startsWith("Grade:"));
      expect(grading.map((call) => call.model)).toEqual(["llama-3.1-8b-instant", "llama-3.1-8b-instant"]);
      const answer = detail.evals.find((one) => one.input === "tech-talk-01")!.output!;
      expect(grading.map((call) => call.prompt)).toContain(`Grade: is this a good summary of tech-talk-01?\n\n${answer}`);

      const refused = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ grader: { text: "Grade: {{answer}}" } }) },
      ).catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(InvalidInputError);
      expect((refused as Error).message).toContain("{{output}}");
    });

    it("writes an empty batch's files before any eval finished, and a cancelled batch's evals as errors", async (context) => {
      if (!test) return context.skip();
      const created = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ models: ["mock/slow"], prompts: [PROMPTS[0]], concurrency: 1 }) },
      );
      if (!("matrix" in created)) throw new Error("expected a run");
      const matrixId = created.matrix.id;
      const empty = JSON.parse((await matrixSummaryFile({ db: test.db }, { userId: userA, matrixId })).text);
      expect(empty).toMatchObject({ total_runs: 0, successful_runs: 0, failed_runs: 0, total_cost_usd: 0, runs: [], errors: [] });
      const index = (await matrixComparison({ db: test.db }, { userId: userA, matrixId, name: "index" })).text;
      expect(index).toContain("## Prompt Comparisons\n\nNone yet.");
      const files = unzipSync((await matrixZip({ db: test.db }, { userId: userA, matrixId })).bytes);
      expect(Object.keys(files).sort()).toEqual([`batches/${created.matrix.batchId}/summary.json`, "comparisons/index.md"]);
      expect(JSON.parse(strFromU8(files[`batches/${created.matrix.batchId}/summary.json`])).total_runs).toBe(0);

      await changeRunStatus({ db: test.db }, { userId: userA, runId: matrixId, action: "cancel" });
      const cancelled = await waitFor(
        async () => {
          const detail = await getMatrix({ db: test!.db }, { userId: userA, matrixId });
          return detail.matrix.counts.pending === 0 ? detail : null;
        },
        { what: "the cancelled matrix's evals to settle" },
      );
      const summary = JSON.parse((await matrixSummaryFile({ db: test.db }, { userId: userA, matrixId })).text);
      expect(summary.total_runs).toBe(2);
      expect(cancelled.evals.map((one) => one.status)).toContain("cancelled");
      expect(summary.failed_runs).toBe(cancelled.evals.filter((one) => one.status !== "ok").length);
      expect(summary.errors.map((error: { message: string }) => error.message)).toEqual(
        cancelled.evals.filter((one) => one.status !== "ok").map((one) => one.error),
      );
    });

    it("runs only the subset asked for, and names an unknown one", async (context) => {
      if (!test) return context.skip();
      const detail = await runToEnd(test.db, userA, { subset: { prompts: "v1,v2", models: "mock/echo", inputs: ["tech-talk-01"] } });
      expect(detail.evals.map((one) => `${one.prompt}+${one.model}+${one.input}`)).toEqual([
        "v1+mock/echo+tech-talk-01",
        "v2+mock/echo+tech-talk-01",
      ]);
      await expect(createMatrix({ db: test.db }, { userId: userA, input: request({ subset: { prompts: "v1,v9" } }) })).rejects.toThrow(
        '--prompts: unknown prompt version "v9"; available: v1, v2',
      );
      // --transcripts, the spec's name for --inputs, with its own words.
      const plan = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ dryRun: true, subset: { transcripts: "interview-02" } }) },
      );
      expect("plan" in plan && plan.plan.inputs).toEqual(["interview-02"]);
      await expect(
        createMatrix({ db: test.db }, { userId: userA, input: request({ subset: { transcripts: "tech-talk-01,,x" } }) }),
      ).rejects.toThrow("--transcripts must be comma-separated transcript IDs (e.g., tech-talk-01,interview-02)");
    });

    it("refuses a placeholder no input fills before anything is stored", async (context) => {
      if (!test) return context.skip();
      const count = async () => (await test!.db.query<{ n: number }>("select count(*)::int as n from runs")).rows[0].n;
      const before = await count();
      const error = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ prompts: [{ version: "v3", text: "Use {{style}} on {{input}}" }] }) },
      ).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toContain("{{style}}");
      expect(await count()).toBe(before);
    });

    it("refuses a matrix whose prompts would render past the run limits, counted before rendering", async (context) => {
      if (!test) return context.skip();
      // 1,000 places for a 1,000,000-character input: 1e9 characters, past what a string can hold,
      // so only a count made before rendering answers with the limit.
      const input = request({
        prompts: [{ version: "v1", text: "{{input}}".repeat(1000) }],
        inputs: [{ id: "long", text: "x".repeat(1_000_000) }],
      });
      const error = await createMatrix({ db: test.db }, { userId: userA, input }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TooLargeError);
      expect((error as Error).message).toMatch(/the limit is [\d,]+ characters per cell/);
      const limits = { ...defaultRunLimits, maxRenderedCharsPerCell: 5_000 };
      const fits = request({
        prompts: [{ version: "v1", text: "{{input}} ".repeat(10) }],
        inputs: [{ id: "long", text: "x".repeat(100) }],
        dryRun: true,
      });
      expect(await createMatrix({ db: test.db, limits }, { userId: userA, input: fits })).toHaveProperty("plan");
    });

    it("uses a prompt saved in the app as name@vN", async (context) => {
      if (!test) return context.skip();
      const { asUser } = await import("@/lib/db/as-user");
      await asUser(test.db, userA, (tx) => tx.query("insert into prompts (name, text) values ('saved-summary', 'Saved: {{input}}')"));
      const detail = await runToEnd(test.db, userA, {
        prompts: [{ version: "saved-summary@v1" }],
        models: ["mock/echo"],
        inputs: [INPUTS[1]],
      });
      expect(detail.evals).toHaveLength(1);
      expect(detail.evals[0].prompt).toBe("saved-summary@v1");
      expect(detail.evals[0].output).toContain("Saved: An interview without a heading.");

      // Once the prompt has run, each version is the text that run used, whatever the prompt says now.
      await asUser(test.db, userA, async (tx) => {
        const { rows } = await tx.query<{ id: string }>("select id from prompts where name = 'saved-summary'");
        await tx.query(
          "insert into prompt_versions (prompt_id, version, name, text, text_hash) values ($1, 2, 'saved-summary', 'Second: {{input}}', 'h2')",
          [rows[0].id],
        );
        await tx.query(
          "update prompts set text = 'Edited since: {{input}}', version_counter = 3, last_run_text_hash = 'h2' where id = $1",
          [rows[0].id],
        );
      });
      const second = await runToEnd(test.db, userA, {
        prompts: [{ version: "saved-summary@v2" }],
        models: ["mock/echo"],
        inputs: [INPUTS[1]],
      });
      expect(second.evals[0].output).toContain("Second: An interview without a heading.");
      const gone = await createMatrix(
        { db: test.db },
        { userId: userA, input: request({ prompts: [{ version: "saved-summary@v1" }], dryRun: true }) },
      ).catch((caught: unknown) => caught);
      // v1 was never run and the prompt has changed since: there is no v1 text to use.
      expect(gone).toBeInstanceOf(NotFoundError);
      const missing = await createMatrix(
        { db: test.db },
        { userId: userB, input: request({ prompts: [{ version: "saved-summary@v1" }] }) },
      ).catch((caught: unknown) => caught);
      // Another user's saved prompt is not there for them.
      expect(missing).toBeInstanceOf(NotFoundError);
    });

    it("shows a matrix only to its owner: another user gets a 404", async (context) => {
      if (!test) return context.skip();
      const detail = await runToEnd(test.db, userA, { models: ["mock/echo"], prompts: [PROMPTS[0]], inputs: [INPUTS[0]] });
      await expect(getMatrix({ db: test.db }, { userId: userB, matrixId: detail.matrix.id })).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}
