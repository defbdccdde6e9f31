import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import type { ExecuteCellDeps } from "@/lib/engine/execute-cell";
import { executeExperimentCell } from "@/lib/engine/execute-experiment-cell";
import { prepareCell } from "@/lib/engine/prepare-cell";
import { createLlamaCppProvider } from "@/lib/providers/llama-cpp-provider";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";

// One experiment cell at a time through the real registry: the mock (its failures chosen with
// its own parameters, its random roll fixed at 0), OpenRouter without credentials, and the
// stories260K model for a real context window. The engine test (tests/integration/experiments-engine)
// runs the same rules through the queue; this covers the branches a run rarely reaches.

const modelPath =
  process.env.PARALLAXR_TEST_MODEL ?? path.resolve(import.meta.dirname, "..", "..", "..", "..", "shared", "models", "stories260K.gguf");
const llama = createLlamaCppProvider({ models: { stories: modelPath }, maxThreads: 1 });
afterAll(() => llama.close());

const providers = createProviderRegistry([createMockProvider({ random: () => 0 }), llama], {
  factories: { openrouter: providerFactories.openrouter },
});

function deps(overrides: Partial<ExecuteCellDeps> = {}): ExecuteCellDeps {
  return {
    providers,
    now: () => performance.now(),
    random: () => 0.5,
    stopSignal: new AbortController().signal,
    cacheTtlSeconds: null,
    contextWindows: new Map(),
    ...overrides,
  };
}

function settings(overrides: Partial<RunSettings> = {}): RunSettings {
  return {
    id: "run-1",
    userId: "00000000-0000-4000-8000-000000000001",
    promptText: "Tell {{who}} about {{topic}}.",
    maxAttempts: 1,
    timeoutMs: 5_000,
    concurrency: 1,
    cache: false,
    prices: new Map(),
    graderText: null,
    graderModel: null,
    kind: "experiment",
    experimentColumns: ["provider", "model", "who", "topic"],
    ...overrides,
  };
}

function cell(overrides: Partial<ClaimedCell> = {}): ClaimedCell {
  return {
    id: "cell-1",
    runId: "run-1",
    columnIndex: 0,
    rowIndex: 2,
    trial: 0,
    variant: 0,
    attempts: 1,
    bypassCache: false,
    provider: "mock",
    model: "mock",
    params: {},
    variables: { provider: "mock", model: "mock", who: "Ada", topic: "GGUF" },
    ...overrides,
  };
}

async function execute(cellOverrides: Partial<ClaimedCell> = {}, settingsOverrides: Partial<RunSettings> = {}, depsOverrides = {}) {
  const run = settings(settingsOverrides);
  return executeExperimentCell(deps(depsOverrides), run, prepareCell(run, cell(cellOverrides)), null);
}

describe("executeExperimentCell", () => {
  it("answers ok with the spec's token counts when nothing is wrong", async () => {
    const result = await execute();
    expect(result).toMatchObject({
      status: "ok",
      tokensIn: Math.floor("Tell Ada about GGUF.".length / 4),
      errorMessage: null,
      warnings: [],
    });
    expect(result.outputRaw).toContain("MOCK RESPONSE");
  });

  it("an unknown or empty provider, and an empty model, are errors after the row's own warnings", async () => {
    const unknown = await execute({ provider: "nowhere", variables: { who: "Ada" } });
    expect(unknown.status).toBe("error");
    expect(unknown.errorMessage).toMatch(
      /^Variable \{\{topic\}\} in template has no value in experiment row 3; Unknown provider nowhere: use one of mock, llama-cpp, openrouter$/,
    );
    expect((await execute({ provider: "" })).errorMessage).toBe("No provider in this row: use one of mock, llama-cpp, openrouter");
    expect((await execute({ model: "" })).errorMessage).toBe("No model in this row: give the model's identifier in the model column");
  });

  it("a provider that needs a key it does not have says which variable to set", async () => {
    const result = await execute({ provider: "openrouter", model: "openai/gpt-4o" });
    expect(result).toMatchObject({ status: "error", errorCode: "auth" });
    expect(result.errorMessage).toBe("Missing API key for openrouter: set OPENROUTER_API_KEY in .env or save one in Settings -> Keys");
  });

  it("answers from the cache unless the row is re-run, estimating output tokens the cache did not count", async () => {
    const run = settings({ cache: true });
    const prepared = prepareCell(run, cell());
    const hit = { outputRaw: "cached answer!", tokensIn: 5, tokensOut: null, tokensEstimated: true, latencyMs: 12, finishReason: "stop" };
    const result = await executeExperimentCell(deps(), run, prepared, hit);
    expect(result).toMatchObject({ status: "ok", cached: true, outputRaw: "cached answer!", tokensOut: 3, costUsd: 0 });
    const rerun = await executeExperimentCell(deps(), run, prepareCell(run, cell({ bypassCache: true })), hit);
    expect(rerun.cached).toBeUndefined();
    expect(rerun.outputRaw).toContain("MOCK RESPONSE");
  });

  it("gives up on a row whose worker died during its call once too often", async () => {
    const result = await execute({ attempts: 3 });
    expect(result.status).toBe("error");
    expect(result.errorMessage).toBe("API error from mock: gave up after 1 attempts (the worker stopped during the call)");
  });

  it("a rate limit is retried while attempts remain, and is a warning with its retry time after the last", async () => {
    const params = { rateLimitRate: 1, retryAfterSeconds: 2 };
    const retried = await execute({ params, attempts: 1 }, { maxAttempts: 2 });
    expect(retried).toMatchObject({ status: "queued", errorCode: "rate_limited", retryDelayMs: expect.any(Number) });
    const last = await execute({ params, attempts: 2 }, { maxAttempts: 2 });
    expect(last).toMatchObject({ status: "warning", outputRaw: "", tokensOut: 0 });
    expect(last.errorMessage).toBe("Rate limited by mock: Mock rate limit: retry after 2 s (retry after 2 s)");
  });

  it("a server error is an API error in the provider's words; no answer within the timeout is a timeout", async () => {
    expect((await execute({ params: { failureRate: 1 } })).errorMessage).toBe("API error from mock: Mock server error (500)");
    const late = await execute({ params: { timeoutRate: 1 } }, { timeoutMs: 50 });
    expect(late).toMatchObject({ status: "error", errorCode: "timeout" });
    expect(late.errorMessage).toBe("Request timed out after 0.05 seconds");
  });

  it("an input over the model's context window is a warning before the call, which is still made", async () => {
    const recorded: Array<number | null> = [];
    const long = "word ".repeat(2_000); // 10,000 characters: 2,500 tokens by the spec's estimate, over stories260K's 2,048
    const result = await execute(
      { provider: "llama-cpp", model: "stories", variables: { who: long, topic: "x" } },
      {},
      { recordContextWindow: async ({ contextWindow }: { contextWindow: number | null }) => void recorded.push(contextWindow) },
    );
    expect(recorded).toEqual([2048]);
    const tokens = Math.floor(`Tell ${long} about x.`.length / 4);
    // the model itself then refuses a prompt its context cannot hold
    expect(result.errorMessage).toMatch(
      new RegExp(
        `^Input tokens ${tokens} exceed context window 2048 for model stories; API error from llama-cpp: The prompt is \\d+ tokens`,
      ),
    );
    expect(result.status).toBe("error");
  });
});
