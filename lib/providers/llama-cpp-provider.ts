import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { Llama, LlamaCompletion, LlamaContext, LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { readParams, type StandardParamName } from "./adapters/read-params";
import { readGgufContextLength } from "./gguf-context-length";
import { isProviderError, ProviderError } from "./provider-error";
import type { ModelInfo, ModelParams, TextGenerateRequest, TextGenerateResult, TextProvider } from "./types";

/** Options of the llama.cpp provider: where the GGUF models are and how much of the machine to use. */
export interface LlamaCppProviderOptions {
  /** Every `*.gguf` file in this folder is offered under its file name without `.gguf`. */
  modelsDir?: string;
  /** Model name -> .gguf path (relative paths resolve against modelsDir, else the working directory). */
  models?: Record<string, string>;
  /** CPU threads for llama.cpp. */
  maxThreads?: number;
  /** Tokens per sequence; defaults to the model's train context. */
  contextSize?: number;
  /** Calls one model serves at once, each on its own context sequence; more wait their turn. */
  maxParallel?: number;
}

/** The llama.cpp provider: a TextProvider that also frees the models it loaded. */
export type LlamaCppProvider = TextProvider & {
  /**
   * The context the model runs with: contextSize when set, else the length its file declares in
   * its GGUF metadata, read without loading it; null when the name is no usable model.
   */
  contextWindow(model: string): Promise<number | null>;
  close(): Promise<void>;
};

interface LoadedModel {
  model: LlamaModel;
  context: LlamaContext;
  freeSequences: LlamaContextSequence[];
  waiting: Array<{ grant(sequence: LlamaContextSequence): void; refuse(error: Error): void }>;
}

interface Runtime {
  llama: Llama;
  LlamaCompletion: typeof LlamaCompletion;
}

interface GenerationParams {
  maxTokens: number;
  temperature: number;
  topP?: number;
  stopSequences: string[];
  seed?: number;
}

const providerId = "llama-cpp";
const defaultMaxTokens = 128;
const supportedParams: readonly StandardParamName[] = ["maxTokens", "temperature", "topP", "stopSequences", "seed"];

/** A provider that runs GGUF models in this process with llama.cpp (node-llama-cpp), as plain completion. */
export function createLlamaCppProvider(options: LlamaCppProviderOptions = {}): LlamaCppProvider {
  // The default thread count (every core) fell to about 1 token/s on a busy 2-core machine; leave
  // one core to the server.
  const maxThreads = positiveInteger(options.maxThreads, "maxThreads") ?? Math.max(1, availableParallelism() - 1);
  const maxParallel = positiveInteger(options.maxParallel, "maxParallel") ?? 2;
  const contextSize = positiveInteger(options.contextSize, "contextSize");

  let runtimePromise: Promise<Runtime> | null = null;
  // Keyed by the resolved file, so one file reached by name and by path loads once.
  const loads = new Map<string, Promise<LoadedModel>>();
  // Why a file's last load failed, and the file's size and time as it was then: shown in the model
  // list, and answered again without asking llama.cpp until the file changes. A second failed load
  // of one file left node-llama-cpp unable to dispose of its runtime (close hung for good), and
  // each attempt of a multi-gigabyte file costs seconds.
  const failures = new Map<string, { problem: string; version: string }>();
  // The context length each file declares, kept while the file stays the same.
  const declared = new Map<string, { length: number | null; version: string }>();
  let closed = false;

  // Imported on first use: the native binding is only loaded by a server that runs a local model.
  function getRuntime(): Promise<Runtime> {
    runtimePromise ??= import("node-llama-cpp").then(async ({ getLlama, LlamaCompletion }) => ({
      // build "never": use the prebuilt binary; never compile or download on a request path.
      llama: await getLlama({ gpu: false, build: "never", maxThreads }),
      LlamaCompletion,
    }));
    return runtimePromise;
  }

  function load(file: string): Promise<LoadedModel> {
    let loading = loads.get(file);
    if (!loading) {
      loading = loadModel(file);
      loads.set(file, loading);
      // A failed load is not kept, so fixing the file and retrying works.
      loading.catch(() => loads.delete(file));
    }
    return loading;
  }

  async function loadModel(file: string): Promise<LoadedModel> {
    // A half-finished download or a stray file named .gguf: said in words before llama.cpp sees it.
    const problem = ggufFileProblem(file);
    if (problem) throw brokenModelFile(file, problem);
    const known = failures.get(file);
    if (known && known.version === fileVersion(file)) throw brokenModelFile(file, known.problem);
    const { llama } = await getRuntime();
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: file });
    } catch (error) {
      // node-llama-cpp throws plain Errors (and TypeErrors on some truncated headers); the file
      // is what is wrong, which the person can fix, so it is a provider error naming the file.
      const problem = `llama.cpp could not load it (${(error as Error).message})`;
      failures.set(file, { problem, version: fileVersion(file) });
      throw brokenModelFile(file, problem, error);
    }
    failures.delete(file);
    try {
      const context = await model.createContext({
        sequences: maxParallel,
        contextSize: contextSize ?? model.trainContextSize,
        threads: maxThreads,
      });
      const freeSequences = Array.from({ length: maxParallel }, () => context.getSequence());
      return { model, context, freeSequences, waiting: [] };
    } catch (error) {
      await model.dispose();
      throw error;
    }
  }

  /** The context a usable file runs with; null for a broken or unreadable one. */
  function fileContextWindow(file: string): number | null {
    if (ggufFileProblem(file) || failedProblem(file)) return null;
    if (contextSize) return contextSize;
    const version = fileVersion(file);
    const known = declared.get(file);
    if (known && known.version === version) return known.length;
    let length: number | null;
    try {
      length = readGgufContextLength(file);
    } catch {
      // A header that cannot be read is a file llama.cpp will refuse too; generate says why.
      length = null;
    }
    declared.set(file, { length, version });
    return length;
  }

  function failedProblem(file: string): string | null {
    const known = failures.get(file);
    return known && known.version === fileVersion(file) ? known.problem : null;
  }

  function configuredModels(): { models: Map<string, string>; problem: string | null } {
    const models = new Map<string, string>();
    let problem: string | null = null;
    if (options.modelsDir) {
      try {
        for (const entry of readdirSync(/*turbopackIgnore: true*/ options.modelsDir).sort()) {
          if (entry.endsWith(".gguf")) models.set(entry.slice(0, -".gguf".length), path.resolve(options.modelsDir, entry));
        }
      } catch (error) {
        problem = `The models folder ${options.modelsDir} could not be read (${(error as Error).message}).`;
      }
    }
    for (const [name, file] of Object.entries(options.models ?? {})) {
      models.set(name, path.resolve(options.modelsDir ?? process.cwd(), file));
    }
    return { models, problem };
  }

  function resolveModelFile(name: string): string {
    const { models, problem } = configuredModels();
    const configured = models.get(name);
    if (configured) {
      if (!isFile(configured)) {
        throw new ProviderError({
          code: "model_not_found",
          statusCode: 404,
          message: `Model ${name} is configured as ${configured}, but that file does not exist.`,
        });
      }
      return configured;
    }
    // An absolute path is accepted only inside modelsDir: a caller must not make a shared server
    // load whatever .gguf file happens to be on its disk.
    if (path.isAbsolute(name) && name.endsWith(".gguf") && isFile(name) && options.modelsDir && isInside(options.modelsDir, name))
      return name;
    const known = models.size > 0 ? [...models.keys()].join(", ") : "none";
    throw new ProviderError({
      code: "model_not_found",
      statusCode: 404,
      message: `Model ${name} not found. Configured llama.cpp models: ${known}.${problem ? ` ${problem}` : ""}`,
    });
  }

  async function loadFor(name: string, signal?: AbortSignal): Promise<LoadedModel> {
    if (closed) throw new Error("The llama.cpp provider is closed.");
    const file = resolveModelFile(name);
    return signal ? untilAborted(load(file), signal) : load(file);
  }

  return {
    id: providerId,
    kind: "text",

    async listModels(): Promise<ModelInfo[]> {
      const { models } = configuredModels();
      return [...models].map(([name, file]) => {
        // A broken file stays in the list, saying what is wrong with it, rather than vanishing.
        const problem = isFile(file) ? (ggufFileProblem(file) ?? failedProblem(file)) : null;
        return {
          provider: providerId,
          model: name,
          label: `Local / ${name}`,
          description: problem
            ? `Not usable: ${path.basename(file)} is not a loadable GGUF model (${problem})`
            : `GGUF model ${path.basename(file)}, run by llama.cpp in this process`,
          contextWindow: problem || !isFile(file) ? null : fileContextWindow(file),
        };
      });
    },

    async contextWindow(model: string): Promise<number | null> {
      let file: string;
      try {
        file = resolveModelFile(model);
      } catch (error) {
        if (isProviderError(error) && error.code === "model_not_found") return null;
        throw error;
      }
      return fileContextWindow(file);
    },

    async countTokens(model: string, text: string): Promise<number> {
      return (await loadFor(model)).model.tokenize(text).length;
    },

    async generate(request: TextGenerateRequest): Promise<TextGenerateResult> {
      const { params, warnings } = readGenerationParams(request.params);
      if (request.signal.aborted) throw abortError(request.signal);
      const loaded = await loadFor(request.model, request.signal);
      const { model } = loaded;

      const promptTokens = model.tokenize(request.prompt);
      // LlamaCompletion puts a BOS token in front; at least one token must fit after the prompt.
      const bos = model.tokens.shouldPrependBosToken && model.tokens.bos != null ? 1 : 0;
      const room = loaded.context.contextSize - bos - promptTokens.length;
      if (room < 1) {
        throw new ProviderError({
          code: "context_overflow",
          message: `The prompt is ${promptTokens.length} tokens; the context of ${request.model} holds ${loaded.context.contextSize}.`,
        });
      }
      if (params.maxTokens > room) {
        warnings.push(`Only ${room} tokens fit after the prompt, so maxTokens ${params.maxTokens} was lowered to ${room}.`);
      }

      const { LlamaCompletion } = await getRuntime();
      const sequence = await acquireSequence(loaded, request.signal);
      let completion: LlamaCompletion | null = null;
      let tokensOut = 0;
      let failed = false;
      const stops = createStopSequenceFilter(params.stopSequences, request.onDelta);
      // Stops end generation through this signal; llama.cpp's own stop triggers cut whole tokens, so
      // a stop sequence starting inside a token (" Lily" for "Lily") lost the text before it.
      const stopController = new AbortController();
      try {
        completion = new LlamaCompletion({ contextSequence: sequence });
        const { metadata } = await completion.generateCompletionWithMeta(promptTokens, {
          maxTokens: Math.min(params.maxTokens, room),
          temperature: params.temperature,
          ...(params.temperature > 0 ? { topP: params.topP, seed: params.seed } : {}),
          // Plain sampling: llama.cpp's own default repeat penalty is off, and temperature 0 means argmax.
          repeatPenalty: false,
          signal: AbortSignal.any([request.signal, stopController.signal]),
          stopOnAbortSignal: true,
          // Never shift the context: that would drop the start of the prompt without a word.
          disableContextShift: true,
          contextShiftSize: 1,
          onToken: (tokens: Token[]) => {
            tokensOut += tokens.length;
          },
          onTextChunk: (chunk: string) => {
            if (stops.push(chunk)) stopController.abort();
          },
        });
        if (request.signal.aborted) throw abortError(request.signal);
        return {
          text: stops.finish(),
          tokensIn: promptTokens.length,
          tokensOut,
          tokensEstimated: false,
          finishReason: metadata.stopReason === "maxTokens" && !stops.stopped ? "length" : "stop",
          warnings,
          // no cost of its own: the price list decides (free by the shipped reference)
        };
      } catch (error) {
        failed = true;
        if (request.signal.aborted) throw isProviderError(error) ? error : abortError(request.signal, error);
        throw error;
      } finally {
        completion?.dispose({ disposeSequence: false });
        releaseSequence(loaded, sequence, failed);
      }
    },

    async close(): Promise<void> {
      closed = true;
      const pending = [...loads.values()];
      loads.clear();
      for (const loading of pending) {
        const loaded = await loading.catch(() => null);
        if (!loaded) continue;
        for (const waiter of loaded.waiting.splice(0)) waiter.refuse(new Error("The llama.cpp provider is closed."));
        await settleWithin(loaded.context.dispose(), "a model's context");
        await settleWithin(loaded.model.dispose(), "a model");
      }
      const runtime = await runtimePromise?.catch(() => null);
      runtimePromise = null;
      if (runtime) await settleWithin(runtime.llama.dispose(), "the llama.cpp runtime");
    },
  };
}

/**
 * Cuts the generated text at the first stop sequence. Text that could still turn into a stop
 * sequence is held back from onDelta, so the deltas always add up to the final text.
 */
function createStopSequenceFilter(stopSequences: string[], onDelta: ((text: string) => void) | undefined) {
  let text = "";
  let emitted = 0;
  let stopped = false;
  const emitUpTo = (end: number) => {
    if (end > emitted) onDelta?.(text.slice(emitted, end));
    emitted = Math.max(emitted, end);
  };
  return {
    get stopped() {
      return stopped;
    },
    /** Adds generated text; true once a stop sequence has appeared. */
    push(chunk: string): boolean {
      if (stopped) return true;
      text += chunk;
      let stopAt = -1;
      for (const stop of stopSequences) {
        const index = text.indexOf(stop, Math.max(0, emitted - stop.length));
        if (index >= 0 && (stopAt < 0 || index < stopAt)) stopAt = index;
      }
      if (stopAt >= 0) {
        text = text.slice(0, stopAt);
        stopped = true;
        emitUpTo(stopAt);
        return true;
      }
      emitUpTo(text.length - heldBack(text, stopSequences));
      return false;
    },
    /** The final text, after sending whatever was still held back. */
    finish(): string {
      emitUpTo(text.length);
      return text;
    },
  };
}

/** Length of the longest end of text that begins some stop sequence. */
function heldBack(text: string, stopSequences: string[]): number {
  let longest = 0;
  for (const stop of stopSequences) {
    for (let length = Math.min(stop.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(stop.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

function acquireSequence(loaded: LoadedModel, signal: AbortSignal): Promise<LlamaContextSequence> {
  const free = loaded.freeSequences.pop();
  if (free) return Promise.resolve(free);
  return new Promise((resolve, reject) => {
    const waiter = {
      grant(sequence: LlamaContextSequence) {
        signal.removeEventListener("abort", onAbort);
        resolve(sequence);
      },
      refuse(error: Error) {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    };
    const onAbort = () => {
      const index = loaded.waiting.indexOf(waiter);
      if (index >= 0) loaded.waiting.splice(index, 1);
      reject(abortError(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    loaded.waiting.push(waiter);
  });
}

function releaseSequence(loaded: LoadedModel, sequence: LlamaContextSequence, failed: boolean): void {
  const handOn = () => {
    const next = loaded.waiting.shift();
    if (next) next.grant(sequence);
    else loaded.freeSequences.push(sequence);
  };
  // A sequence is handed on with its history, so a prompt sharing a prefix reuses it; after a
  // failure the history may be half-evaluated, so it is cleared first.
  if (failed && !sequence.disposed) {
    sequence.clearHistory().then(handOn, handOn);
  } else {
    handOn();
  }
}

/**
 * The column's params as llama.cpp takes them: the shared rules of every provider (readParams), then
 * llama.cpp's own limits on top, and the defaults of plain completion.
 */
function readGenerationParams(input: ModelParams): { params: GenerationParams; warnings: string[] } {
  const { values, warnings } = readParams(input, {
    provider: "The llama.cpp provider",
    supported: supportedParams,
    unsupportedReasons: { system: "It runs plain completion, so put instructions in the prompt." },
  });
  // node-llama-cpp reads the seed as an unsigned 32-bit number: -1 would silently become 4294967295.
  if (values.seed !== undefined && values.seed < 0) {
    throw new ProviderError({
      code: "bad_request",
      message: `Parameter "seed" must be a whole number >= 0 for llama.cpp; got ${values.seed}.`,
    });
  }
  // An empty stop sequence matches at once (createStopSequenceFilter): every completion would be empty.
  if (values.stopSequences?.some((stop) => stop === "")) {
    throw new ProviderError({
      code: "bad_request",
      message: `Parameter "stopSequences" must be a list of non-empty strings for llama.cpp; got an empty one.`,
    });
  }
  const params: GenerationParams = {
    maxTokens: values.maxTokens ?? defaultMaxTokens,
    temperature: values.temperature ?? 0,
    topP: values.topP,
    seed: values.seed,
    stopSequences: values.stopSequences ?? [],
  };
  if (params.temperature === 0) {
    for (const key of ["topP", "seed"] as const) {
      if (params[key] !== undefined) warnings.push(`"${key}" has no effect at temperature 0 (greedy decoding).`);
    }
  }
  return { params, warnings };
}

function positiveInteger(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new Error(`llama.cpp option ${name} must be an integer >= 1, got ${value}.`);
  return value;
}

/**
 * Why file cannot be a GGUF model, judged from its first bytes (every GGUF file starts with the
 * four bytes "GGUF" and a version); null when it starts like one.
 */
function ggufFileProblem(file: string): string | null {
  let handle: number | null = null;
  try {
    handle = openSync(file, "r");
    const header = Buffer.alloc(8);
    const read = readSync(handle, header, 0, header.length, 0);
    if (read === 0) return "the file is empty";
    if (read < header.length || header.toString("latin1", 0, 4) !== "GGUF") {
      return `it does not start with the GGUF signature; it is ${statSync(file).size} bytes`;
    }
    return null;
  } catch (error) {
    return `it cannot be read: ${(error as Error).message}`;
  } finally {
    if (handle !== null) closeSync(handle);
  }
}

/** The provider error for a model file that is there but cannot be used. */
function brokenModelFile(file: string, problem: string, cause?: unknown): ProviderError {
  return new ProviderError({
    code: "model_not_found",
    message: `The model file ${file} cannot be used: ${problem}. It may be an incomplete download or not a model at all: download it again, or remove it from the models folder.`,
    cause,
  });
}

// After a failed load, node-llama-cpp's native dispose now and then never settles on a busy machine
// (seen in 1 of 3 full test runs: close() hung after one failed and one good load). Closing must
// not hang a server's shutdown on it: the memory goes with the process anyway.
const disposeWaitMs = 5_000;

async function settleWithin(disposal: Promise<void>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), disposeWaitMs);
    timer.unref();
  });
  const outcome = await Promise.race([
    disposal.then(
      () => "done" as const,
      () => "done" as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === "late")
    console.warn(
      `[parallaxr llama.cpp] disposing ${what} did not finish within ${disposeWaitMs / 1000} s; closing without waiting for it.`,
    );
}

/** A file's size and modification time: a download that finishes or a replaced file changes it. */
function fileVersion(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "missing";
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function abortError(signal: AbortSignal, cause: unknown = signal.reason): ProviderError {
  return new ProviderError({ code: "timeout", message: "The llama.cpp call was aborted before it finished.", cause });
}

function isInside(folder: string, file: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(file));
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}
