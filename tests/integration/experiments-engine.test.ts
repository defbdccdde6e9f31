import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createExperimentSchema, type CreateExperimentRequest, type Experiment } from "@/lib/api/experiments";
import { localUserId } from "@/lib/auth/local-user";
import { formatMockResponse } from "@/lib/core/mock-response";
import { estimateTokens } from "@/lib/core/tokens";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createExperiment, experimentOutputCsv, getExperiment } from "@/lib/services/experiments";
import { InvalidInputError } from "@/lib/engine/errors";
import { waitFor } from "../helpers/databases";
import { routeExampleVendors } from "../helpers/experiment-vendors";
import { pgliteEngine } from "../helpers/engine";
import { readJsonFixture, startVendorServer, TEST_API_KEY, type VendorServer } from "../helpers/vendor-server";

// The experiments runner on the engine, against local servers speaking OpenRouter's and Ollama's
// wire formats (their model list and /api/show included): the spec's example scenario, then each
// provider outcome of its testing strategy, checked in the rows the output CSV is written from.

let openrouter: VendorServer;
let ollama: VendorServer;

const providers = createProviderRegistry([createMockProvider()], {
  factories: { openrouter: providerFactories.openrouter, ollama: providerFactories.ollama },
  credentials: async ({ provider }) =>
    provider === "openrouter"
      ? { apiKey: TEST_API_KEY, baseURL: openrouter.baseURL, allowPrivateAddresses: true }
      : { apiKey: null, baseURL: ollama.origin, allowPrivateAddresses: true },
});
const engine = pgliteEngine(providers);

const prompt = { name: "prompt.txt", text: "Summarize the following information from {{source}}:\n\nThe topic is {{topic}}.\n" };
const context = { name: "context.txt", text: "Additional context: This is a test of the parallaxr system.\n" };

async function runExperiment(
  request: Omit<CreateExperimentRequest, "prompt"> & { prompt?: CreateExperimentRequest["prompt"] },
): Promise<Experiment> {
  const input = createExperimentSchema.parse({ prompt, ...request });
  const created = await createExperiment({ db: engine.db }, { userId: localUserId, input });
  if (!("experiment" in created)) throw new Error("expected an experiment");
  return waitFor(
    async () => {
      const experiment = await getExperiment({ db: engine.db }, { userId: localUserId, experimentId: created.experiment.id });
      return experiment.status === "completed" ? experiment : null;
    },
    { what: "the experiment to complete", timeoutMs: 20_000 },
  );
}

describe("experiments on the engine", () => {
  beforeAll(async () => {
    openrouter = await startVendorServer({ prefix: "/api/v1" });
    ollama = await startVendorServer();
  });
  afterAll(async () => {
    await openrouter.close();
    await ollama.close();
  });
  beforeEach(() => {
    openrouter.reset();
    ollama.reset();
    routeExampleVendors(openrouter, ollama);
  });

  it("runs the spec's example: the mock's echo, OpenRouter's and Ollama's answers and context windows", async () => {
    const experiment = await runExperiment({
      contexts: [context],
      experiments: {
        name: "experiments.csv",
        text: "provider,model,source,topic\nmock,mock,Wikipedia,AI\nopenrouter,anthropic/claude-sonnet-4,Encyclopedia,ML\nollama,llama3.2,Database,NLP\n",
      },
    });
    const document = `## Document: prompt.txt\n\n${prompt.text}\n\n---\n\n## Document: context.txt\n\n${context.text}\n\n---\n\n`;
    expect(experiment.document).toBe(document);
    const rendered = document.replace("{{source}}", "Wikipedia").replace("{{topic}}", "AI");
    const echo = formatMockResponse({ model: "mock", variables: { source: "Wikipedia", topic: "AI" }, input: rendered });
    expect(echo.split("\n").slice(0, 5)).toEqual([
      "MOCK RESPONSE",
      `Input tokens: ${estimateTokens(rendered)}`,
      "Model: mock",
      "Variables: {'source': 'Wikipedia', 'topic': 'AI'}",
      "--- Original Input ---",
    ]);
    expect(
      experiment.rows.map(({ number, values, status, contextWindow, output, errorMessage }) => ({
        number,
        values,
        status,
        contextWindow,
        output,
        errorMessage,
      })),
    ).toEqual([
      { number: 1, values: ["mock", "mock", "Wikipedia", "AI"], status: "ok", contextWindow: null, output: echo, errorMessage: "" },
      {
        number: 2,
        values: ["openrouter", "anthropic/claude-sonnet-4", "Encyclopedia", "ML"],
        status: "ok",
        contextWindow: 200000,
        output: "Machine learning is...",
        errorMessage: "",
      },
      {
        number: 3,
        values: ["ollama", "llama3.2", "Database", "NLP"],
        status: "ok",
        contextWindow: 8192,
        output: "Natural language processing...",
        errorMessage: "",
      },
    ]);
    const inputTokens = (source: string, topic: string) =>
      estimateTokens(document.replace("{{source}}", source).replace("{{topic}}", topic));
    expect(experiment.rows.map((row) => [row.inputTokens, row.outputTokens])).toEqual([
      [inputTokens("Wikipedia", "AI"), estimateTokens(echo)],
      [inputTokens("Encyclopedia", "ML"), 123],
      [inputTokens("Database", "NLP"), 89],
    ]);
    // what was sent is the rendered document, as the spec concatenates it
    const sent = openrouter.requests.find((request) => request.path.endsWith("/chat/completions"))!.body as {
      messages: Array<{ content: string }>;
    };
    expect(sent.messages.at(-1)!.content).toBe(document.replace("{{source}}", "Encyclopedia").replace("{{topic}}", "ML"));

    const csv = await experimentOutputCsv({ db: engine.db }, { userId: localUserId, experimentId: experiment.id });
    const lines = csv.text.split("\r\n");
    expect(lines[0]).toBe("provider,model,source,topic,status,input_tokens,context_window,output_tokens,output,error_message");
    expect(csv.text).toContain(
      `\r\nopenrouter,anthropic/claude-sonnet-4,Encyclopedia,ML,ok,${inputTokens("Encyclopedia", "ML")},200000,123,Machine learning is...,\r\n`,
    );
    expect(csv.text).toMatch(/^[^]*\r\nmock,mock,Wikipedia,AI,ok,\d+,,\d+,"MOCK RESPONSE\n/);
    expect([csv.rows, csv.finished, csv.filename]).toEqual([3, true, "experiments-results.csv"]);
  });

  it("warns for a blank cell and a missing column, leaving the placeholder, and still calls", async () => {
    const experiment = await runExperiment({
      experiments: { name: "e.csv", text: "provider,model,source\nmock,mock,\n" },
    });
    const [row] = experiment.rows;
    expect(row.status).toBe("warning");
    expect(row.errorMessage).toBe(
      "Variable {{source}} in template has no value in experiment row 1; Variable {{topic}} in template has no value in experiment row 1",
    );
    expect(row.output).toContain("Summarize the following information from {{source}}:");
    expect(row.output).toContain("Variables: {'source': ''}");
  });

  it("writes each failure as its row's status and message, and goes on past every one", async () => {
    openrouter.route("POST /api/v1/chat/completions", (request) => {
      const model = (request.body as { model: string }).model;
      if (model === "gone/model") return { status: 404, body: readJsonFixture("openrouter", "error-404-no-endpoints.json") };
      if (model === "busy/model")
        return { status: 429, headers: { "retry-after": "7" }, body: readJsonFixture("openrouter", "error-429-rate-limited.json") };
      if (model === "locked/model") return { status: 401, body: readJsonFixture("openrouter", "error-401-no-auth.json") };
      return { hang: true };
    });
    const experiment = await runExperiment({
      timeoutSeconds: 1,
      experiments: {
        name: "e.csv",
        text: [
          "provider,model,source,topic",
          "openrouter,gone/model,a,b",
          "openrouter,busy/model,a,b",
          "openrouter,locked/model,a,b",
          "openrouter,slow/model,a,b",
          "nowhere,x,a,b",
          "mock,mock,a,b",
        ].join("\n"),
      },
    });
    expect(experiment.rows.map((row) => [row.status, row.errorMessage])).toEqual([
      ["error", "Context window unknown for model gone/model; Model gone/model not found or unavailable"],
      [
        "warning",
        expect.stringMatching(/^Context window unknown for model busy\/model; Rate limited by openrouter: .*\(retry after 7 s\)$/),
      ],
      [
        "error",
        "Context window unknown for model locked/model; Authentication failed for openrouter: check OPENROUTER_API_KEY in .env or the key saved in Settings -> Keys",
      ],
      ["error", "Context window unknown for model slow/model; Request timed out after 1 seconds"],
      ["error", expect.stringMatching(/^Unknown provider nowhere: use one of .*mock.*openrouter/)],
      ["ok", ""],
    ]);
    // each failing call was made once: the spec's v1 retries nothing
    const calls = openrouter.requests
      .filter((request) => request.path.endsWith("/chat/completions"))
      .map((request) => (request.body as { model: string }).model);
    expect(calls.sort()).toEqual(["busy/model", "gone/model", "locked/model", "slow/model"]);
  });

  it("refuses a CSV it cannot read with file, line and column, before storing anything", async () => {
    const input = createExperimentSchema.parse({ prompt, experiments: { name: "bad.csv", text: "provider,model\nmock,mock,extra\n" } });
    const refusal = await createExperiment({ db: engine.db }, { userId: localUserId, input }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InvalidInputError);
    expect((refusal as Error).message).toMatch(/^bad\.csv, line 2, column 3: the line has 3 fields but the header has 2\./);
  });
});
