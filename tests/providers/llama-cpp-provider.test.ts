import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { createLlamaCppProvider, type LlamaCppProvider } from "@/lib/providers/llama-cpp-provider";
import { isProviderError, type ProviderError } from "@/lib/providers/provider-error";
import type { TextGenerateRequest } from "@/lib/providers/types";

// Real inference on the 1.2 MB stories260K model (see ../shared/models/README.md beside the repository); no stubs.
// shared/ sits beside the repository (on CI too); PARALLAXR_TEST_MODEL points elsewhere.
const modelPath =
  process.env.PARALLAXR_TEST_MODEL ?? path.resolve(import.meta.dirname, "..", "..", "..", "shared", "models", "stories260K.gguf");
const modelsDir = path.dirname(modelPath);
const greedyStart = ", there was a little girl named Lily";

function request(overrides: Partial<TextGenerateRequest> = {}): TextGenerateRequest {
  return {
    model: "stories",
    prompt: "Once upon a time",
    params: {},
    variables: {},
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function providerErrorOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (caught: unknown) => caught,
  );
  if (!isProviderError(error)) throw error;
  return error;
}

let provider: LlamaCppProvider;
// The test's own handle on the model, to count tokens independently of the provider.
let llama: Llama;
let tokenizer: LlamaModel;

beforeAll(async () => {
  provider = createLlamaCppProvider({ models: { stories: modelPath }, maxThreads: 1, maxParallel: 2 });
  llama = await getLlama({ gpu: false, build: "never", maxThreads: 1 });
  tokenizer = await llama.loadModel({ modelPath });
});

afterAll(async () => {
  await provider?.close();
  await tokenizer?.dispose();
  await llama?.dispose();
});

describe("llama.cpp provider", () => {
  it("completes the prompt greedily, counting tokens with the model's tokenizer", async () => {
    const result = await provider.generate(request({ params: { maxTokens: 40 } }));

    expect(result.text.startsWith(greedyStart)).toBe(true);
    expect(result.tokensIn).toBe(tokenizer.tokenize("Once upon a time").length);
    // The reply continues the prompt, so it is tokenised without the leading-space marker a fresh text gets.
    expect(result.tokensOut).toBe(tokenizer.tokenize(result.text, false, "trimLeadingSpace").length);
    expect(result.tokensEstimated).toBe(false);
    // local inference reports no cost of its own; the price list (free by default) decides
    expect(result.costUsd).toBeUndefined();
    expect(result.warnings).toEqual([]);
  });

  it("stops at maxTokens with finishReason length", async () => {
    const result = await provider.generate(request({ params: { maxTokens: 5 } }));

    expect(result.tokensOut).toBe(5);
    expect(result.finishReason).toBe("length");
    expect(greedyStart.startsWith(result.text)).toBe(true);
  });

  it("stops at a stop sequence, which is left out of the text", async () => {
    const result = await provider.generate(request({ params: { maxTokens: 60, stopSequences: ["Lily"] } }));

    // "Lily" starts inside the token " Lily": the space before it is kept.
    expect(result.text).toBe(", there was a little girl named ");
    expect(result.finishReason).toBe("stop");

    const earliest = await provider.generate(request({ params: { maxTokens: 60, stopSequences: ["park", "girl"] } }));
    expect(earliest.text).toBe(", there was a little ");
  });

  it("streams deltas that concatenate to the final text", async () => {
    const deltas: string[] = [];
    const result = await provider.generate(
      request({ params: { maxTokens: 30, stopSequences: ["park"] }, onDelta: (text) => deltas.push(text) }),
    );

    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(result.text);
    expect(result.text).toBe(", there was a little girl named Lily. She loved to play outside in the ");
  });

  it("runs two calls in parallel, each on its own sequence, with the same deterministic text", async () => {
    const [first, second] = await Promise.all([
      provider.generate(request({ params: { maxTokens: 30 } })),
      provider.generate(request({ params: { maxTokens: 30 } })),
    ]);

    expect(first.text.startsWith(greedyStart)).toBe(true);
    expect(second.text).toBe(first.text);
  });

  it("queues calls beyond maxParallel until a sequence is free, and lets a queued call be aborted", async () => {
    const queued = new AbortController();
    const onDelta = () => queued.abort(new Error("cell timed out"));
    // Two calls take both sequences; by the time the first streams a delta the others are queued.
    const calls = [
      provider.generate(request({ params: { maxTokens: 20 }, onDelta })),
      provider.generate(request({ params: { maxTokens: 20 } })),
      provider.generate(request({ params: { maxTokens: 20 }, signal: queued.signal })),
      provider.generate(request({ params: { maxTokens: 20 } })),
      provider.generate(request({ params: { maxTokens: 20 } })),
    ];
    const abortedWhileQueued = providerErrorOf(calls[2]);
    const results = await Promise.all([calls[0], calls[1], calls[3], calls[4]]);

    expect((await abortedWhileQueued).code).toBe("timeout");
    expect(results[0].text.startsWith(greedyStart)).toBe(true);
    expect(results.map((result) => result.text)).toEqual(Array(4).fill(results[0].text));
  });

  it("refuses a prompt longer than the context before generating", async () => {
    const deltas: string[] = [];
    const prompt = "Once upon a time ".repeat(600);
    expect(tokenizer.tokenize(prompt).length).toBeGreaterThan(2048);

    const error = await providerErrorOf(provider.generate(request({ prompt, onDelta: (text) => deltas.push(text) })));

    expect(error.code).toBe("context_overflow");
    expect(error.retryable).toBe(false);
    expect(deltas).toEqual([]);
  });

  it("names the configured models when the model is unknown", async () => {
    const error = await providerErrorOf(provider.generate(request({ model: "gpt-9" })));

    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain("stories");
  });

  it("accepts an absolute path to a .gguf file inside modelsDir, and no other", async () => {
    const local = createLlamaCppProvider({ modelsDir, maxThreads: 1 });
    try {
      const result = await local.generate(request({ model: modelPath, params: { maxTokens: 8 } }));
      expect(result.text).toBe(", there was a little girl");
    } finally {
      await local.close();
    }
    // the main provider has no modelsDir: a path is not a model name there
    const error = await providerErrorOf(provider.generate(request({ model: modelPath })));
    expect(error.code).toBe("model_not_found");
  });

  it("counts tokens with the model's own tokenizer (for run plans)", async () => {
    const text = "Once upon a time, there was a little girl named Lily.";
    await expect(provider.countTokens!("stories", text)).resolves.toBe(tokenizer.tokenize(text).length);
  });

  it("warns about parameters it does not use instead of dropping them", async () => {
    const result = await provider.generate(request({ params: { maxTokens: 3, system: "Be brief.", seed: 7 } }));

    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toContain('"system"');
    expect(result.warnings[1]).toContain('"seed" has no effect at temperature 0');
  });

  it("rejects parameters of the wrong type as bad_request", async () => {
    for (const params of [{ maxTokens: "ten" }, { temperature: -1 }, { topP: 2 }, { stopSequences: "Lily" }, { seed: 1.5 }]) {
      const error = await providerErrorOf(provider.generate(request({ params })));
      expect(error.code, JSON.stringify(params)).toBe("bad_request");
    }
  });

  it("samples with temperature, topP and seed, reproducibly for one seed", async () => {
    const params = { maxTokens: 20, temperature: 1, topP: 0.9, seed: 42 };
    const [first, second] = await Promise.all([provider.generate(request({ params })), provider.generate(request({ params }))]);

    expect(first.warnings).toEqual([]);
    expect(first.tokensOut).toBe(20);
    expect(second.text).toBe(first.text);
  });

  it("turns an abort during generation into a timeout error", async () => {
    const controller = new AbortController();
    let deltas = 0;
    const error = await providerErrorOf(
      provider.generate(
        request({
          params: { maxTokens: 1500 },
          signal: controller.signal,
          onDelta: () => {
            deltas += 1;
            if (deltas === 3) controller.abort(new Error("cell timed out"));
          },
        }),
      ),
    );

    expect(error.code).toBe("timeout");
    expect(error.retryable).toBe(true);
    // The sequence is usable again afterwards.
    const after = await provider.generate(request({ params: { maxTokens: 10 } }));
    expect(greedyStart.startsWith(after.text)).toBe(true);
  });

  it("reports the model's train context and lists the configured models", async () => {
    expect(await provider.contextWindow("stories")).toBe(2048);
    expect(await provider.listModels()).toEqual([
      expect.objectContaining({ provider: "llama-cpp", model: "stories", label: "Local / stories", contextWindow: 2048 }),
    ]);
    expect(await provider.contextWindow("missing")).toBeNull();
  });

  it("turns a .gguf file that is no model (garbage, empty, cut short) into a provider error naming the file", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "parallaxr-gguf-"));
    const files = {
      garbage: path.join(folder, "garbage.gguf"),
      empty: path.join(folder, "empty.gguf"),
      // a real header, then the file stops: only llama.cpp's own load finds out
      cut: path.join(folder, "cut.gguf"),
    };
    writeFileSync(files.garbage, Buffer.from("this is not a model, just a hundred bytes of text. ".repeat(2).slice(0, 100)));
    writeFileSync(files.empty, "");
    writeFileSync(files.cut, readFileSync(modelPath).subarray(0, 600_000));
    const local = createLlamaCppProvider({ modelsDir: folder, maxThreads: 1 });
    try {
      for (const [name, file] of Object.entries(files)) {
        const error = await providerErrorOf(local.generate(request({ model: name, params: { maxTokens: 3 } })));
        expect(error.code, name).toBe("model_not_found");
        expect(error.retryable, name).toBe(false);
        expect(error.message, name).toContain(file);
        await expect(local.contextWindow(name), name).resolves.toBeNull();
        expect(isProviderError(await local.countTokens!(name, "Once").catch((caught: unknown) => caught)), name).toBe(true);
      }
      // asked again, the cut file is refused from what is known of it: a second failed load left
      // node-llama-cpp unable to close (close() below hung)
      expect((await providerErrorOf(local.generate(request({ model: "cut" })))).message).toContain("llama.cpp could not load it");
      expect((await providerErrorOf(local.generate(request({ model: "empty" })))).message).toContain("empty");
      expect((await providerErrorOf(local.generate(request({ model: "garbage" })))).message).toContain("GGUF signature");

      // listed, each saying what is wrong, rather than failing the list or vanishing from it
      const listed = await local.listModels();
      expect(listed.map((model) => model.model)).toEqual(["cut", "empty", "garbage"]);
      for (const model of listed) expect(model.description).toMatch(new RegExp(`^Not usable: ${model.model}\\.gguf`));

      // a failed load is not remembered: the file, once replaced, loads
      copyFileSync(modelPath, files.garbage);
      expect((await local.generate(request({ model: "garbage", params: { maxTokens: 8 } }))).text).toBe(", there was a little girl");
      expect((await local.listModels()).find((model) => model.model === "garbage")?.description).toMatch(/^GGUF model garbage\.gguf/);
    } finally {
      await local.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("reads the context window from the file's own GGUF metadata (<architecture>.context_length), without loading it", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "parallaxr-gguf-window-"));
    // The real model with its declared context length changed from 2048 to 4096, and a copy of
    // its header alone, which llama.cpp could never load.
    const patched = readFileSync(modelPath);
    const at = patched.indexOf("llama.context_length") + "llama.context_length".length;
    expect(patched.readUInt32LE(at)).toBe(4); // a uint32 value follows
    expect(patched.readUInt32LE(at + 4)).toBe(2048);
    patched.writeUInt32LE(4096, at + 4);
    writeFileSync(path.join(folder, "wide.gguf"), patched);
    writeFileSync(path.join(folder, "header-only.gguf"), patched.subarray(0, at + 8));
    const local = createLlamaCppProvider({ modelsDir: folder, maxThreads: 1 });
    const fixed = createLlamaCppProvider({ models: { stories: modelPath }, contextSize: 512, maxThreads: 1 });
    try {
      await expect(local.contextWindow("wide")).resolves.toBe(4096);
      await expect(local.contextWindow("header-only")).resolves.toBe(4096);
      expect((await local.listModels()).map(({ model, contextWindow }) => ({ model, contextWindow }))).toEqual([
        { model: "header-only", contextWindow: 4096 },
        { model: "wide", contextWindow: 4096 },
      ]);
      // the file changed: read again
      copyFileSync(modelPath, path.join(folder, "wide.gguf"));
      await expect(local.contextWindow("wide")).resolves.toBe(2048);
      // a context size set for the provider is the window its calls run with
      await expect(fixed.contextWindow("stories")).resolves.toBe(512);
    } finally {
      await local.close();
      await fixed.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("offers every .gguf file in modelsDir and says when a configured file is missing", async () => {
    const local = createLlamaCppProvider({ modelsDir, models: { gone: "/nowhere/gone.gguf" } });
    try {
      expect(await local.listModels()).toEqual([
        // read from the file's metadata, before anything was loaded
        expect.objectContaining({ model: "stories260K", label: "Local / stories260K", contextWindow: 2048 }),
        expect.objectContaining({ model: "gone", label: "Local / gone" }),
      ]);
      const error = await providerErrorOf(local.generate(request({ model: "gone" })));
      expect(error.code).toBe("model_not_found");
      expect(error.message).toContain("/nowhere/gone.gguf");
    } finally {
      await local.close();
    }
  });
});
