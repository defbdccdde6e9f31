// An eval config written from saved prompts and a dataset's rows: the page's "Build from saved
// prompts" panel puts it in the editor, where it is checked like any pasted config.
import { stringify } from "yaml";
import { placeholderPattern } from "@/lib/core/template";

/** A name Python's str.format takes as a keyword field: what an eval config's {var} may name. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A saved prompt's text as an eval config's template: each `{{name}}` placeholder becomes
 * `{name}`, and every other brace is doubled so it stays literal. A placeholder whose name an
 * eval template cannot hold (a dot or a dash in it) is an error naming it.
 */
export function savedPromptTemplate(text: string): { ok: true; template: string } | { ok: false; error: string } {
  let template = "";
  let last = 0;
  for (const match of text.matchAll(placeholderPattern())) {
    const name = match[1];
    if (!FIELD_NAME.test(name)) {
      return { ok: false, error: `{{${name}}} cannot be an eval input: use letters, digits and _ only (no dots or dashes).` };
    }
    template += literal(text.slice(last, match.index)) + `{${name}}`;
    last = match.index + match[0].length;
  }
  return { ok: true, template: template + literal(text.slice(last)) };
}

function literal(text: string): string {
  return text.replaceAll("{", "{{").replaceAll("}", "}}");
}

/**
 * A config running each prompt on model over a test case per dataset row (named "row N", the
 * row's values as its inputs), scored by contains: the start of an eval to edit. Prompts with the
 * same name get " (2)", " (3)" after it, since an EvalRun is named by its prompt.
 */
export function buildEvalConfig({
  prompts,
  rows,
  model,
}: {
  prompts: Array<{ name: string; text: string }>;
  rows: Array<Record<string, string>>;
  model: string;
}): { ok: true; yaml: string } | { ok: false; error: string } {
  const seen = new Map<string, number>();
  const written: Array<{ name: string; template: string }> = [];
  for (const prompt of prompts) {
    const converted = savedPromptTemplate(prompt.text);
    if (!converted.ok) return { ok: false, error: `Prompt "${prompt.name}": ${converted.error}` };
    const count = (seen.get(prompt.name) ?? 0) + 1;
    seen.set(prompt.name, count);
    written.push({ name: count === 1 ? prompt.name : `${prompt.name} (${count})`, template: converted.template });
  }
  const config = {
    model,
    prompts: written,
    test_cases: rows.map((row, index) => ({ name: `row ${index + 1}`, inputs: row })),
    metrics: [{ type: "contains" }],
  };
  return { ok: true, yaml: stringify(config, { lineWidth: 0 }) };
}
