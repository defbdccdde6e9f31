import { streamText, type CallWarning, type LanguageModel, type LanguageModelUsage, type ProviderMetadata } from "ai";
import { ProviderError } from "../provider-error";
import type { ModelInfo, TextProvider } from "../types";
import { rethrowAsProviderError, type ErrorContext, type VendorErrorCodes } from "./classify-error";
import { readParams, type StandardParamName, type StandardParams } from "./read-params";
import { toResult } from "./to-result";

/** A vendor's model as its AI SDK provider package makes it (the SDK's language model specification, v3). */
export type SdkLanguageModel = Extract<LanguageModel, { specificationVersion: "v3" }>;

/** How one vendor plugs into the shared AI SDK adapter. */
export interface AiSdkProviderConfig {
  id: string;
  /** The vendor as people know it, for messages: "OpenAI". */
  label: string;
  apiKey: string | null;
  /** Whether a call without a key is pointless (false for local servers). */
  needsKey: boolean;
  supportedParams: readonly StandardParamName[];
  errorCodes: VendorErrorCodes;
  /** The SDK's model; the adapters load their vendor's SDK on the first call (load-once.ts). */
  languageModel(model: string): SdkLanguageModel | Promise<SdkLanguageModel>;
  listModels(): Promise<ModelInfo[]>;
  contextWindow(model: string): Promise<number | null>;
  /** The call's cost in US dollars, for vendors that report it in their answer. */
  costUsd?(metadata: ProviderMetadata | undefined): number | null;
}

/**
 * A TextProvider that calls a vendor through its AI SDK model: one answer through the model's own
 * doGenerate (generateAnswer), a streamed one through the SDK's streamText.
 */
export function createAiSdkTextProvider(config: AiSdkProviderConfig): TextProvider {
  // The SDK's model for each model name, made once and used for every call, as the SDK intends:
  // making one builds its answer schemas, which the SDK's validation then compiles on first use
  // (about half a millisecond of every call when made per call).
  const models = new Map<string, Promise<SdkLanguageModel>>();
  const languageModel = (model: string): Promise<SdkLanguageModel> => {
    let made = models.get(model);
    if (!made) {
      if (models.size >= 256) models.clear();
      made = Promise.resolve(config.languageModel(model));
      models.set(model, made);
      made.catch(() => models.delete(model));
    }
    return made;
  };
  return {
    id: config.id,
    kind: "text",
    listModels: () => config.listModels(),
    contextWindow: (model) => config.contextWindow(model),
    async generate(request) {
      const { values, warnings } = readParams(request.params, { provider: config.label, supported: config.supportedParams });
      if (config.needsKey && !config.apiKey) {
        throw new ProviderError({ code: "auth", message: `${config.label} needs an API key: add one in Settings -> Keys.` });
      }
      const errorContext: ErrorContext = {
        provider: config.label,
        model: request.model,
        apiKey: config.apiKey,
        signal: request.signal,
        codes: config.errorCodes,
      };
      const model = await languageModel(request.model);
      const asked: AnswerRequest = {
        system: values.system,
        prompt: request.prompt,
        settings: callSettings(values),
        signal: request.signal,
      };
      try {
        const answer = request.onDelta
          ? await streamAnswer(model, asked, request.onDelta, config.label)
          : await generateAnswer(model, asked);
        const allWarnings = [...warnings, ...answer.sdkWarnings.map((warning) => describeWarning(warning, config.label))];
        const result = toResult(answer, request.prompt, values.system, allWarnings);
        return config.costUsd ? { ...result, costUsd: config.costUsd(answer.providerMetadata) } : result;
      } catch (error) {
        rethrowAsProviderError(error, errorContext);
      }
    },
  };
}

function callSettings(values: StandardParams) {
  return {
    temperature: values.temperature,
    maxOutputTokens: values.maxTokens,
    topP: values.topP,
    topK: values.topK,
    stopSequences: values.stopSequences,
    seed: values.seed,
    frequencyPenalty: values.frequencyPenalty,
    presencePenalty: values.presencePenalty,
  };
}

interface Answer {
  text: string;
  usage: Pick<LanguageModelUsage, "inputTokens" | "outputTokens"> | undefined;
  finishReason: string | null;
  sdkWarnings: CallWarning[];
  providerMetadata: ProviderMetadata | undefined;
}

/** One prompt as the adapter asks it: a system text and a user text, with the call's parameters. */
interface AnswerRequest {
  system: string | undefined;
  prompt: string;
  settings?: Partial<ReturnType<typeof callSettings>>;
  signal?: AbortSignal;
}

/**
 * One answer from the vendor's model, asked through the model's own doGenerate: the call the SDK's
 * generateText makes for a prompt without tools, without generateText's work around it (validating
 * the prompt's messages against its schemas, telemetry spans, retries, tool steps), which was
 * ~0.75 ms of every call's time between an answer and the next call (bench/README.md). The prompt
 * is one system text and one user text, made here, so there is nothing to validate; the parameters
 * were checked by readParams; the engine owns retries. The answer's text, usage and finish reason
 * are read as generateText reads them.
 */
export async function generateAnswer(model: SdkLanguageModel, request: AnswerRequest): Promise<Answer> {
  const result = await model.doGenerate({
    prompt: [
      ...(request.system === undefined ? [] : [{ role: "system" as const, content: request.system }]),
      { role: "user", content: [{ type: "text", text: request.prompt }] },
    ],
    ...request.settings,
    abortSignal: request.signal,
  });
  return {
    text: result.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
    usage: { inputTokens: result.usage.inputTokens.total, outputTokens: result.usage.outputTokens.total },
    finishReason: result.finishReason.unified,
    sdkWarnings: result.warnings,
    providerMetadata: result.providerMetadata,
  };
}

async function streamAnswer(
  model: SdkLanguageModel,
  request: AnswerRequest,
  onDelta: (text: string) => void,
  label: string,
): Promise<Answer> {
  const result = streamText({
    model,
    system: request.system,
    messages: [{ role: "user", content: request.prompt }],
    ...request.settings,
    // The engine owns retries and their backoff; the SDK would retry 2 more times by default.
    maxRetries: 0,
    abortSignal: request.signal,
    // Errors arrive as stream parts and are thrown from here; the default onError would also log them.
    onError: () => {},
  });
  let text = "";
  let usage: LanguageModelUsage | undefined;
  let finishReason: string | null = null;
  let rawFinishReason: string | undefined;
  let providerMetadata: ProviderMetadata | undefined;
  const sdkWarnings: CallWarning[] = [];
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "start-step":
        sdkWarnings.push(...part.warnings);
        break;
      case "text-delta":
        // Some vendors send empty parts (Gemini's thought signatures); they are not deltas.
        if (part.text === "") break;
        text += part.text;
        onDelta(part.text);
        break;
      case "error":
        throw part.error;
      case "finish-step":
        providerMetadata = part.providerMetadata;
        break;
      case "abort":
        throw request.signal?.reason ?? new DOMException("The stream was aborted", "AbortError");
      case "finish":
        usage = part.totalUsage;
        finishReason = part.finishReason;
        rawFinishReason = part.rawFinishReason;
        break;
    }
  }
  if (text === "" && rawFinishReason === undefined && usage?.inputTokens === undefined && usage?.outputTokens === undefined) {
    throw new ProviderError({ code: "server", message: `${label} ended the stream without sending an answer.` });
  }
  return { text, usage, finishReason, sdkWarnings, providerMetadata };
}

/** An AI SDK call warning in words for the cell. */
function describeWarning(warning: CallWarning, label: string): string {
  switch (warning.type) {
    case "unsupported":
      // The details say more than "unsupported" when the SDK clamped or dropped a value.
      return warning.details ? `${label} (${warning.feature}): ${warning.details}` : `${label} does not support ${warning.feature}.`;
    case "compatibility":
      return `${label} runs ${warning.feature} in compatibility mode${warning.details ? `: ${warning.details}` : "."}`;
    case "other":
      return `${label}: ${warning.message}`;
  }
}
