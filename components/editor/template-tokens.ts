import { placeholderPattern } from "@/lib/core/template";

/** A highlighted span of prompt text: a `{{variable}}`, a `<tag>` or the word "json". */
export type TemplateToken =
  | { kind: "variable"; from: number; to: number; name: string }
  | { kind: "tag"; from: number; to: number }
  | { kind: "json"; from: number; to: number };

// One alternation, so the three kinds never overlap and the leftmost match wins. Tags take no
// braces or newlines in their attributes, so `<a x="{{v}}">` still shows its variable.
const TAG_SOURCE = String.raw`<\/?[A-Za-z][\w:.-]*(?:\s[^<>{}\n]*?)?\/?>`;
// The same word test as the run's output check (lib/core/expected-output.ts), so what is
// highlighted is exactly what makes the run expect JSON.
const JSON_SOURCE = String.raw`\bjson\b`;

/** A new global regex for all three kinds: group 1 is a variable (its name in group 2), group 3 a tag. */
export function templateTokenPattern(): RegExp {
  return new RegExp(`(${placeholderPattern().source})|(${TAG_SOURCE})|${JSON_SOURCE}`, "giu");
}

/** Classifies one match of `templateTokenPattern()` found at `from`. */
export function tokenFromMatch(match: RegExpExecArray, from: number): TemplateToken {
  const to = from + match[0].length;
  if (match[1] !== undefined) return { kind: "variable", from, to, name: match[2] };
  if (match[3] !== undefined) return { kind: "tag", from, to };
  return { kind: "json", from, to };
}

/** Every highlighted span of `text`, in order. */
export function templateTokens(text: string): TemplateToken[] {
  const pattern = templateTokenPattern();
  const tokens: TemplateToken[] = [];
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    tokens.push(tokenFromMatch(match, match.index));
  }
  return tokens;
}
