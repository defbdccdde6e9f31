import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readGgufContextLength } from "@/lib/providers/gguf-context-length";

// GGUF headers written byte by byte as docs/gguf.md of ggml lays them out, plus the real
// stories260K file (../shared/models/README.md beside the repository).
const modelPath =
  process.env.PARALLAXR_TEST_MODEL ?? path.resolve(import.meta.dirname, "..", "..", "..", "..", "shared", "models", "stories260K.gguf");
const folder = mkdtempSync(path.join(tmpdir(), "parallaxr-gguf-header-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

type Value =
  | { type: "u32"; value: number }
  | { type: "u64"; value: number }
  | { type: "i32"; value: number }
  | { type: "f32"; value: number }
  | { type: "string"; value: string }
  | { type: "strings"; value: string[] }
  | { type: "u8s"; value: number[] };

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};
const u64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  return bytes;
};
const text = (value: string) => Buffer.concat([u64(Buffer.byteLength(value)), Buffer.from(value)]);

function encode(entry: Value): Buffer {
  switch (entry.type) {
    case "u32":
      return Buffer.concat([u32(4), u32(entry.value)]);
    case "u64":
      return Buffer.concat([u32(10), u64(entry.value)]);
    case "i32": {
      const bytes = Buffer.alloc(4);
      bytes.writeInt32LE(entry.value);
      return Buffer.concat([u32(5), bytes]);
    }
    case "f32": {
      const bytes = Buffer.alloc(4);
      bytes.writeFloatLE(entry.value);
      return Buffer.concat([u32(6), bytes]);
    }
    case "string":
      return Buffer.concat([u32(8), text(entry.value)]);
    case "strings":
      return Buffer.concat([u32(9), u32(8), u64(entry.value.length), ...entry.value.map(text)]);
    case "u8s":
      return Buffer.concat([u32(9), u32(0), u64(entry.value.length), Buffer.from(entry.value)]);
  }
}

function gguf(metadata: Array<[string, Value]>, { version = 3 } = {}): Buffer {
  return Buffer.concat([
    Buffer.from("GGUF"),
    u32(version),
    u64(0),
    u64(metadata.length),
    ...metadata.map(([key, value]) => Buffer.concat([text(key), encode(value)])),
  ]);
}

let files = 0;
function write(bytes: Buffer): string {
  const file = path.join(folder, `model-${files++}.gguf`);
  writeFileSync(file, bytes);
  return file;
}

describe("readGgufContextLength", () => {
  it("reads <general.architecture>.context_length of the real stories260K file", () => {
    expect(readGgufContextLength(modelPath)).toBe(2048);
  });

  it("finds the architecture's key wherever it is, past long lists, in any integer type", () => {
    const vocabulary = Array.from({ length: 30_000 }, (_, index) => `token-${index}`);
    const file = write(
      gguf([
        ["tokenizer.ggml.tokens", { type: "strings", value: vocabulary }],
        ["tokenizer.ggml.token_type", { type: "u8s", value: [1, 2, 3] }],
        ["general.name", { type: "string", value: "Qwen2 0.5B" }],
        // another architecture's key is not this model's
        ["llama.context_length", { type: "u32", value: 4096 }],
        ["qwen2.rope.freq_base", { type: "f32", value: 1_000_000 }],
        ["qwen2.context_length", { type: "u64", value: 131_072 }],
        ["general.architecture", { type: "string", value: "qwen2" }],
      ]),
    );
    expect(readGgufContextLength(file)).toBe(131_072);
    expect(
      readGgufContextLength(
        write(
          gguf([
            ["general.architecture", { type: "string", value: "gemma" }],
            ["gemma.context_length", { type: "i32", value: 8192 }],
          ]),
        ),
      ),
    ).toBe(8192);
  });

  it("is null when the file declares no context length, or one that is not a positive integer", () => {
    expect(readGgufContextLength(write(gguf([["general.architecture", { type: "string", value: "llama" }]])))).toBeNull();
    expect(readGgufContextLength(write(gguf([["llama.context_length", { type: "u32", value: 2048 }]])))).toBeNull();
    const zero = gguf([
      ["general.architecture", { type: "string", value: "llama" }],
      ["llama.context_length", { type: "u32", value: 0 }],
    ]);
    expect(readGgufContextLength(write(zero))).toBeNull();
    const floating = gguf([
      ["general.architecture", { type: "string", value: "llama" }],
      ["llama.context_length", { type: "f32", value: 2048 }],
    ]);
    expect(readGgufContextLength(write(floating))).toBeNull();
  });

  it("says what is wrong with a file that is no readable GGUF header", () => {
    const whole = gguf([
      ["general.name", { type: "string", value: "x".repeat(100) }],
      ["general.architecture", { type: "string", value: "llama" }],
      ["llama.context_length", { type: "u32", value: 2048 }],
    ]);
    expect(() => readGgufContextLength(write(Buffer.from("not a model at all")))).toThrow("GGUF signature");
    expect(() => readGgufContextLength(write(whole.subarray(0, 60)))).toThrow("past the end of the file");
    expect(() => readGgufContextLength(write(gguf([], { version: 1 })))).toThrow("GGUF version 1 is not supported");
    const unknownType = Buffer.concat([Buffer.from("GGUF"), u32(3), u64(0), u64(1), text("general.odd"), u32(99)]);
    expect(() => readGgufContextLength(write(unknownType))).toThrow("unknown type 99");
    const hugeCount = Buffer.concat([Buffer.from("GGUF"), u32(3), u64(0), u64(2 ** 40)]);
    expect(() => readGgufContextLength(write(hugeCount))).toThrow("metadata entries");
    // a string length far beyond the file is refused before any allocation
    const hugeString = Buffer.concat([Buffer.from("GGUF"), u32(3), u64(0), u64(1), u64(2 ** 50)]);
    expect(() => readGgufContextLength(write(hugeString))).toThrow("past the end of the file");
  });

  it("reads a real header cut right after its metadata (the tensors are not needed)", () => {
    const real = readFileSync(modelPath);
    const end = real.indexOf("llama.context_length") + "llama.context_length".length + 4 + 4;
    expect(readGgufContextLength(write(real.subarray(0, end)))).toBe(2048);
    expect(() => readGgufContextLength(write(real.subarray(0, end - 1)))).toThrow("past the end of the file");
  });
});
