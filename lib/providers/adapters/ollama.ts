import { isProviderError, ProviderError } from "../provider-error";
import type { ModelInfo, TextGenerateRequest, TextProvider } from "../types";
import type { AdapterOptions } from "./adapter-options";
import { classifyProviderError, rethrowAsProviderError, type ErrorContext } from "./classify-error";
import { createGuardedFetch } from "./guarded-fetch";
import { METADATA_TIMEOUT_MS, readJsonBody, sendRequest } from "./send-request";
import { readParams, type StandardParams } from "./read-params";
import { toResult } from "./to-result";

/** The parts of Ollama's /api/chat answer (and of each streamed line) we read. */
interface OllamaChatChunk {
  message?: { content?: string };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

/**
 * Ollama's native API (https://github.com/ollama/ollama/blob/main/docs/api.md): /api/chat for
 * answers (one JSON object, or NDJSON lines when streaming), /api/show for the model's trained
 * context length, /api/tags for the installed models. Ollama has no error codes: errors are
 * `{"error": "..."}` with an HTTP status, or such a line inside a stream. It has no keys either;
 * one is sent as a Bearer token only when set, for an Ollama behind an authenticating proxy.
 */
export function createOllamaProvider(options: AdapterOptions): TextProvider {
  // People paste the API root in several forms: http://host:11434, .../, .../api.
  const root = options.baseURL.replace(/\/+$/, "").replace(/\/api$/, "");
  // Answers, model lists and /api/show alike: capped, no redirects (see createGuardedFetch).
  const fetch = createGuardedFetch({ ...options, label: "Ollama" });
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
  const contextFor = (model: string, signal: AbortSignal | null): ErrorContext => ({
    provider: "Ollama",
    model,
    apiKey: options.apiKey,
    signal,
  });

  return {
    id: "ollama",
    kind: "text",

    async generate(request) {
      const { values, warnings } = readParams(request.params, {
        provider: "Ollama",
        supported: ["temperature", "maxTokens", "topP", "topK", "stopSequences", "system", "seed", "frequencyPenalty", "presencePenalty"],
      });
      const context = contextFor(request.model, request.signal);
      const response = await sendRequest({
        url: `${root}/api/chat`,
        method: "POST",
        body: chatBody(request, values),
        headers,
        fetch,
        signal: request.signal,
        context,
      });
      const answer = request.onDelta
        ? await readStream(response, request.onDelta, context)
        : toAnswer((await readJsonBody(response, context)) as OllamaChatChunk, context);
      return toResult(answer, request.prompt, values.system, warnings);
    },

    async listModels(): Promise<ModelInfo[]> {
      const context = contextFor("(model list)", null);
      const response = await sendRequest({
        url: `${root}/api/tags`,
        headers,
        fetch,
        signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
        context,
      });
      const body = (await readJsonBody(response, context)) as { models?: unknown } | null;
      if (!Array.isArray(body?.models)) {
        throw new ProviderError({ code: "server", message: "Ollama's /api/tags answer has no models list." });
      }
      return body.models.flatMap((entry): ModelInfo[] => {
        const name = typeof entry?.model === "string" ? entry.model : typeof entry?.name === "string" ? entry.name : null;
        if (name === null) return [];
        const details = [entry.details?.parameter_size, entry.details?.quantization_level].filter((part) => typeof part === "string");
        return [
          {
            provider: "ollama",
            model: name,
            label: `Ollama / ${name}`,
            description: details.length > 0 ? details.join(", ") : undefined,
            // Each would cost an /api/show call; contextWindow(model) asks when needed.
            contextWindow: null,
          },
        ];
      });
    },

    async contextWindow(model) {
      const context = contextFor(model, null);
      let response: Response;
      try {
        response = await sendRequest({
          url: `${root}/api/show`,
          method: "POST",
          body: { model },
          headers,
          fetch,
          signal: AbortSignal.timeout(METADATA_TIMEOUT_MS),
          context,
        });
      } catch (error) {
        // A model Ollama does not have has no known window; everything else is a real failure.
        if (isProviderError(error) && error.code === "model_not_found") return null;
        throw error;
      }
      const body = (await readJsonBody(response, context)) as { model_info?: Record<string, unknown> } | null;
      const info = body?.model_info;
      const architecture = info?.["general.architecture"];
      if (!info || typeof architecture !== "string") return null;
      const length = info[`${architecture}.context_length`];
      return typeof length === "number" && Number.isInteger(length) && length > 0 ? length : null;
    },
  };
}

function chatBody(request: TextGenerateRequest, values: StandardParams) {
  const settings: Record<string, unknown> = {
    temperature: values.temperature,
    top_p: values.topP,
    top_k: values.topK,
    num_predict: values.maxTokens,
    stop: values.stopSequences,
    seed: values.seed,
    frequency_penalty: values.frequencyPenalty,
    presence_penalty: values.presencePenalty,
  };
  const modelOptions = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  return {
    model: request.model,
    messages: [
      ...(values.system === undefined ? [] : [{ role: "system", content: values.system }]),
      { role: "user", content: request.prompt },
    ],
    stream: request.onDelta !== undefined,
    ...(Object.keys(modelOptions).length > 0 ? { options: modelOptions } : {}),
  };
}

interface Answer {
  text: string;
  usage: { inputTokens?: number; outputTokens?: number };
  finishReason: string | null;
}

function toAnswer(chunk: OllamaChatChunk, context: ErrorContext): Answer {
  if (typeof chunk?.error === "string") throw streamedError(chunk.error, context);
  if (typeof chunk?.message?.content !== "string") {
    throw new ProviderError({ code: "server", message: "Ollama's answer has no message content." });
  }
  return {
    text: chunk.message.content,
    usage: usageOf(chunk),
    finishReason: chunk.done_reason ?? null,
  };
}

function usageOf(chunk: OllamaChatChunk): { inputTokens?: number; outputTokens?: number } {
  // Ollama leaves prompt_eval_count out when the whole prompt came from its cache.
  return {
    inputTokens: typeof chunk.prompt_eval_count === "number" ? chunk.prompt_eval_count : undefined,
    outputTokens: typeof chunk.eval_count === "number" ? chunk.eval_count : undefined,
  };
}

/** Reads Ollama's NDJSON stream: one JSON object per line, the last with `done: true` and counts. */
async function readStream(response: Response, onDelta: (text: string) => void, context: ErrorContext): Promise<Answer> {
  if (!response.body) throw new ProviderError({ code: "server", message: "Ollama sent an empty stream." });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  let text = "";
  let final: OllamaChatChunk | null = null;
  const handleLine = (line: string) => {
    if (line.trim() === "") return;
    let chunk: OllamaChatChunk;
    try {
      chunk = JSON.parse(line);
    } catch (error) {
      throw new ProviderError({ code: "server", message: "Ollama sent a malformed line in its stream.", cause: error });
    }
    if (typeof chunk.error === "string") throw streamedError(chunk.error, context);
    const piece = chunk.message?.content;
    if (typeof piece === "string" && piece !== "") {
      text += piece;
      onDelta(piece);
    }
    if (chunk.done) final = chunk;
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += value;
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        handleLine(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
      }
    }
    handleLine(buffered);
  } catch (error) {
    await reader.cancel().catch(() => {});
    rethrowAsProviderError(error, context);
  }
  const last = final as OllamaChatChunk | null;
  if (last === null) {
    throw new ProviderError({
      code: "server",
      message: text === "" ? "Ollama sent an empty stream." : "Ollama's stream ended before its final line (done: true).",
    });
  }
  return { text, usage: usageOf(last), finishReason: last.done_reason ?? null };
}

/** An error line inside a 200 stream: the call failed on Ollama's side after it began. */
function streamedError(message: string, context: ErrorContext): ProviderError {
  return classifyProviderError({ message }, context) as ProviderError;
}
