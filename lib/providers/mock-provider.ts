import { validateOutput } from "@/lib/core/expected-output";
import { formatMockResponse, mockGrade } from "@/lib/core/mock-response";
import { estimateTokens } from "@/lib/core/tokens";
import { ProviderError } from "./provider-error";
import type { ModelInfo, TextGenerateRequest, TextGenerateResult, TextProvider } from "./types";

/** How a mock model behaves; every field can also be set per column in its params. */
export interface MockBehaviour {
  latencyMs: number;
  /** Up to this much is added to latencyMs at random. */
  jitterMs: number;
  /** Share of calls that fail with a 500 (retryable). */
  failureRate: number;
  /** Share of calls that answer 429 with Retry-After. */
  rateLimitRate: number;
  retryAfterSeconds: number;
  /** Share of calls that never answer (the engine's timeout ends them). */
  timeoutRate: number;
  /** Share of calls whose output is cut short, which fails `<response>`/JSON validation. */
  malformedRate: number;
}

const defaultBehaviour: MockBehaviour = {
  latencyMs: 0,
  jitterMs: 0,
  failureRate: 0,
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  timeoutRate: 0,
  malformedRate: 0,
};

/** The mock models offered in the picker, each a preset of behaviour. */
export const mockModels: Record<string, { description: string; behaviour: Partial<MockBehaviour>; unlisted?: boolean }> = {
  echo: { description: "Echoes its input after about 300 ms", behaviour: { latencyMs: 200, jitterMs: 200 } },
  fast: { description: "Echoes its input at once", behaviour: {} },
  slow: { description: "Echoes its input after about 2 s", behaviour: { latencyMs: 1800, jitterMs: 400 } },
  flaky: {
    description: "Echoes after about 300 ms; 20% of calls answer 429 with Retry-After: 1",
    behaviour: { latencyMs: 200, jitterMs: 200, rateLimitRate: 0.2, retryAfterSeconds: 1 },
  },
  malformed: { description: "Answers with cut-off output", behaviour: { latencyMs: 100, malformedRate: 1 } },
  // the experiments spec's example rows say `mock,mock`
  // An alias for files, kept out of the picker: a person sees fast, which it is.
  mock: { description: "Echoes its input at once (experiments CSV alias)", behaviour: {}, unlisted: true },
};

/** Counts the mock keeps about itself: how many calls, and how many at once at most. */
export interface MockStats {
  calls: number;
  inFlight: number;
  peakInFlight: number;
}

/** Options of the mock provider: a random source, and a hook called at the start of every call. */
export interface MockProviderOptions {
  random?: () => number;
  onCall?: (call: { model: string; prompt: string }) => void;
}

/** The mock provider: answers in the echo format of specs/experiments-cli.md. */
export function createMockProvider(options: MockProviderOptions = {}): TextProvider & { stats(): MockStats; resetStats(): void } {
  const random = options.random ?? Math.random;
  const stats: MockStats = { calls: 0, inFlight: 0, peakInFlight: 0 };

  return {
    id: "mock",
    kind: "text",
    stats: () => ({ ...stats }),
    resetStats() {
      stats.calls = 0;
      stats.peakInFlight = stats.inFlight;
    },
    async listModels(): Promise<ModelInfo[]> {
      return Object.entries(mockModels)
        .filter(([, preset]) => !preset.unlisted)
        .map(([model, preset]) => ({
          provider: "mock",
          model,
          label: `Mock / ${model}`,
          description: preset.description,
          contextWindow: null,
        }));
    },
    async generate(request: TextGenerateRequest): Promise<TextGenerateResult> {
      const preset = mockModels[request.model];
      if (!preset) {
        throw new ProviderError({
          code: "model_not_found",
          statusCode: 404,
          message: `Model ${request.model} not found or unavailable. Mock models: ${Object.keys(mockModels).join(", ")}.`,
        });
      }
      const { behaviour, warnings } = resolveBehaviour(preset.behaviour, request.params);
      stats.calls += 1;
      stats.inFlight += 1;
      stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
      try {
        options.onCall?.({ model: request.model, prompt: request.prompt });
        const roll = random();
        if (roll < behaviour.timeoutRate) {
          await waitForAbort(request.signal);
        }
        const delay = behaviour.latencyMs + behaviour.jitterMs * random();
        if (delay > 0) await sleep(delay, request.signal);
        let threshold = behaviour.timeoutRate;
        if (roll < (threshold += behaviour.rateLimitRate)) {
          throw new ProviderError({
            code: "rate_limited",
            statusCode: 429,
            retryAfterMs: behaviour.retryAfterSeconds * 1000,
            message: `Mock rate limit: retry after ${behaviour.retryAfterSeconds} s`,
          });
        }
        if (roll < (threshold += behaviour.failureRate)) {
          throw new ProviderError({ code: "server", statusCode: 500, message: "Mock server error (500)" });
        }
        const malformed = roll < threshold + behaviour.malformedRate;
        const full =
          formatMockResponse({ model: request.model, variables: request.variables, input: request.prompt }) +
          (malformed ? "" : gradeAnswer(request));
        // Cut mid-way, as a model that hit its token limit would: no closing tag, no closing brace.
        const text = malformed ? `${full.slice(0, Math.max(1, Math.floor(full.length / 2)))} <response>{"cut":` : full;
        return {
          text,
          tokensIn: estimateTokens(request.prompt),
          tokensOut: estimateTokens(text),
          tokensEstimated: false,
          finishReason: malformed ? "length" : "stop",
          warnings,
        };
      } finally {
        stats.inFlight -= 1;
      }
    },
  };
}

/**
 * As a grader, the echo alone would leave an empty `<response></response>` form empty (no grade,
 * the cell's grader malformed), so the mock fills it in, saying that the grade is made up. A form
 * the prompt fills itself (`<response>{{expected}}</response>`) is echoed as it is.
 */
function gradeAnswer(request: TextGenerateRequest): string {
  if (request.purpose !== "grade") return "";
  const form = validateOutput(request.prompt, { response: true, json: false });
  if (!form.ok || form.parsed !== "") return "";
  const grade = mockGrade({ model: request.model, prompt: request.prompt, variables: request.variables });
  return `\n--- Mock grade (made up) ---\n<response>${grade.toFixed(1)}</response>`;
}

const behaviourKeys = Object.keys(defaultBehaviour) as Array<keyof MockBehaviour>;

function resolveBehaviour(
  preset: Partial<MockBehaviour>,
  params: Record<string, unknown>,
): { behaviour: MockBehaviour; warnings: string[] } {
  const behaviour: MockBehaviour = { ...defaultBehaviour, ...preset };
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (!(behaviourKeys as string[]).includes(key)) {
      warnings.push(`The mock provider ignores the parameter "${key}".`);
      continue;
    }
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new ProviderError({ code: "bad_request", message: `Mock parameter "${key}" must be a number >= 0.` });
    }
    behaviour[key as keyof MockBehaviour] = value;
  }
  return { behaviour, warnings };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function waitForAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    signal.addEventListener("abort", () => reject(abortError(signal)), { once: true });
  });
}

function abortError(signal: AbortSignal): ProviderError {
  return new ProviderError({ code: "timeout", message: "The mock call was aborted before it answered", cause: signal.reason });
}
