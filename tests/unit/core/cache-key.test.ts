import { createHash } from "node:crypto";
import { describe, it, expect } from "vitest";
import { cacheKey, hashText, stableStringify } from "@/lib/core/cache-key";

const base = {
  provider: "openrouter",
  model: "anthropic/claude-sonnet-4",
  params: { temperature: 0.2, max_tokens: 512, stop: ["\n\n"] },
  input: "Summarize AI",
  trial: 0,
};

describe("stableStringify", () => {
  it("sorts object keys at every depth and keeps array order", () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: "x" } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it("gives the same text for objects that differ only in key order", () => {
    expect(stableStringify({ x: 1, y: { p: true, q: null } })).toBe(stableStringify({ y: { q: null, p: true }, x: 1 }));
  });

  it("produces JSON that parses back to an equal value", () => {
    const value = { text: 'quote " and \\ and \n and 😀', numbers: [0, -1.5, 1e21], flag: false, none: null };
    expect(JSON.parse(stableStringify(value))).toEqual(value);
  });

  it("follows JSON.stringify for undefined, functions, non-finite numbers and toJSON", () => {
    expect(stableStringify({ a: undefined, b: () => 1, c: Number.NaN, d: [undefined, Infinity] })).toBe('{"c":null,"d":[null,null]}');
    expect(stableStringify({ when: new Date("2024-01-02T03:04:05.000Z") })).toBe('{"when":"2024-01-02T03:04:05.000Z"}');
  });

  it("serialises top-level scalars", () => {
    expect(stableStringify("a")).toBe('"a"');
    expect(stableStringify(null)).toBe("null");
    expect(stableStringify(7)).toBe("7");
  });

  it("throws on values JSON cannot represent", () => {
    expect(() => stableStringify(undefined)).toThrow(TypeError);
    expect(() => stableStringify({ big: 1n })).toThrow(TypeError);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => stableStringify(circular)).toThrow(/circular/);
  });

  it("allows the same object twice when it is not circular", () => {
    const shared = { a: 1 };
    expect(stableStringify({ x: shared, y: [shared] })).toBe('{"x":{"a":1},"y":[{"a":1}]}');
  });
});

describe("hashText", () => {
  it("is the hex SHA-256 of the UTF-8 text", () => {
    expect(hashText("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hashText("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashText("é")).toBe(createHash("sha256").update(Buffer.from("é", "utf8")).digest("hex"));
  });
});

describe("cacheKey", () => {
  it("is a 64-character hex digest and is deterministic", () => {
    const key = cacheKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(cacheKey({ ...base, params: { ...base.params } })).toBe(key);
  });

  it("does not depend on the order of params, at any depth", () => {
    const a = cacheKey({ ...base, params: { temperature: 0.2, extra: { b: 1, a: 2 }, max_tokens: 512 } });
    const b = cacheKey({ ...base, params: { max_tokens: 512, extra: { a: 2, b: 1 }, temperature: 0.2 } });
    expect(a).toBe(b);
  });

  it("changes when any part of the call changes", () => {
    const key = cacheKey(base);
    const variants = [
      { ...base, provider: "ollama" },
      { ...base, model: "anthropic/claude-opus-4" },
      { ...base, params: { ...base.params, temperature: 0.3 } },
      { ...base, params: { ...base.params, seed: 1 } },
      { ...base, input: "Summarize AI." },
      { ...base, trial: 1 },
    ];
    const keys = variants.map(cacheKey);
    expect(keys).not.toContain(key);
    expect(new Set(keys).size).toBe(variants.length);
  });

  it("keeps fields apart, so text cannot move between provider and model", () => {
    expect(cacheKey({ ...base, provider: "a", model: "b/c" })).not.toBe(cacheKey({ ...base, provider: "a/b", model: "c" }));
  });

  it("treats an undefined param like an absent one, as JSON does", () => {
    expect(cacheKey({ ...base, params: { temperature: 0.2, top_p: undefined } })).toBe(cacheKey({ ...base, params: { temperature: 0.2 } }));
  });
});
