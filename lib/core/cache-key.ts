import { createHash } from "node:crypto";

/** What identifies one model call for caching: the same input gives the same key. */
export type CacheKeyInput = {
  provider: string;
  model: string;
  params: Record<string, unknown>;
  input: string;
  trial: number;
};

// Bumped when the shape of the hashed document changes, so old cache entries stop matching
// instead of being read under a new meaning.
const CACHE_KEY_VERSION = 1;

/** JSON with object keys sorted at every depth, so two equal objects always give the same text. */
export function stableStringify(value: unknown): string {
  const text = serialize(value, new Set());
  if (text === undefined) throw new TypeError(`Cannot serialise a value of type ${typeof value}`);
  return text;
}

/** Hex SHA-256 of a text (UTF-8). */
export function hashText(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Hex SHA-256 of the canonical call description; parameter order does not change it. */
export function cacheKey(input: CacheKeyInput): string {
  return hashText(
    stableStringify({
      version: CACHE_KEY_VERSION,
      provider: input.provider,
      model: input.model,
      params: input.params,
      input: input.input,
      trial: input.trial,
    }),
  );
}

// Follows JSON.stringify's rules (toJSON, undefined/function/symbol skipped in objects and null in
// arrays, non-finite numbers as null) so the canonical text is still the JSON a person expects.
function serialize(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : "null";
    case "bigint":
      throw new TypeError("Cannot serialise a BigInt; convert it to a string or number first");
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
  }
  if (value === null) return "null";

  const object = value as object;
  if (ancestors.has(object)) throw new TypeError("Cannot serialise a circular structure");
  ancestors.add(object);
  let text: string;
  if (Array.isArray(object)) {
    text = `[${object.map((item) => serialize(item, ancestors) ?? "null").join(",")}]`;
  } else {
    const record = object as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = serialize(record[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    text = `{${members.join(",")}}`;
  }
  ancestors.delete(object);
  return text;
}
