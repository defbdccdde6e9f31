import { estimateTokens } from "@/lib/core/tokens";

// Python's str.isprintable() is false for these general categories (space excepted); repr
// escapes such characters, so we do too to match the reference implementation's output.
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;

/** A string as Python's `repr()` writes it: `'AI'`, or `"it's"` when only single quotes occur. */
export function pythonRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let body = "";
  for (const character of value) {
    body += reprCharacter(character, quote);
  }
  return quote + body + quote;
}

/** A string-to-string dictionary as Python's `repr()` writes it, in insertion order: `{'topic': 'AI'}`. */
export function pythonDictRepr(obj: Record<string, string>): string {
  const entries = Object.entries(obj).map(([key, value]) => `${pythonRepr(key)}: ${pythonRepr(value)}`);
  return `{${entries.join(", ")}}`;
}

/** The mock provider's echo, byte for byte the format in the experiments spec. */
export function formatMockResponse(input: { model: string; variables: Record<string, string>; input: string }): string {
  return [
    "MOCK RESPONSE",
    `Input tokens: ${estimateTokens(input.input)}`,
    `Model: ${input.model}`,
    `Variables: ${pythonDictRepr(input.variables)}`,
    "--- Original Input ---",
    input.input,
  ].join("\n");
}

/**
 * The grade a mock model gives when it grades: made up, yet the same for the same model, prompt and
 * variables (a re-run keeps it), in tenths from 0 to 1. The grader's variables hold the graded
 * answer whole, header included, so two columns' answers to one row get different grades even
 * when one model grades both.
 */
export function mockGrade(input: { model: string; prompt: string; variables: Record<string, string> }): number {
  const variables = Object.keys(input.variables)
    .sort()
    .map((key) => `${key}=${input.variables[key]}`);
  return (fnv1a([input.model, input.prompt, ...variables].join("\u0000")) % 11) / 10;
}

// FNV-1a, 32 bits: a small, well-spread hash; this needs no more than that.
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function reprCharacter(character: string, quote: string): string {
  if (character === quote || character === "\\") return `\\${character}`;
  if (character === "\t") return "\\t";
  if (character === "\n") return "\\n";
  if (character === "\r") return "\\r";
  if (character === " " || !NOT_PRINTABLE.test(character)) return character;
  const code = character.codePointAt(0) ?? 0;
  if (code <= 0xff) return `\\x${hex(code, 2)}`;
  if (code <= 0xffff) return `\\u${hex(code, 4)}`;
  return `\\U${hex(code, 8)}`;
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}
