/**
 * An eval prompt (specs/eval-config.md): name, description, version, system and template, from
 * a prompt file (prompts/summarizer_v1.yaml) or written inline in a config's prompts list. The
 * template must be one Python's str.format accepts (format-template.ts); its problem is named at
 * the template's line before anything runs. Unknown keys are warnings that name them.
 */
import { ConfigReader, formatPath, readYamlDocument, type ConfigProblem, type MappingEntry } from "@/lib/core/eval/config-document";
import { checkTemplate } from "@/lib/core/eval/format-template";

/** A prompt as an eval runs it. */
export interface EvalPrompt {
  name: string;
  /** "" when not given. */
  description: string;
  /** "1.0" when not given; a number written unquoted (version: 1.0) keeps the text it was written as. */
  version: string;
  /** The system prompt, null for none. */
  system: string | null;
  /** The user message, with {var} fields filled from a test case's inputs. */
  template: string;
}

/** A prompt file's prompt, or the problems that keep it from being one. */
export type ParsedPromptFile =
  { ok: true; prompt: EvalPrompt; warnings: ConfigProblem[] } | { ok: false; errors: ConfigProblem[]; warnings: ConfigProblem[] };

const PROMPT_KEYS = ["name", "description", "version", "system", "template"];

// Far above any prompt; a template this size would not fit a model's context anyway.
const MAX_PROMPT_TEXT = 1_000_000;

/** Reads a prompt file's text (YAML, or JSON when the file name ends in .json). */
export function parsePromptFile(text: string, options: { fileName?: string } = {}): ParsedPromptFile {
  const document = readYamlDocument(text, { json: /\.json$/i.test(options.fileName ?? "") });
  if (!document.ok) return document;
  const { reader, root } = document;
  const prompt = readPrompt(reader, root, []);
  if (!prompt || reader.errors.length > 0) return { ok: false, errors: reader.errors, warnings: reader.warnings };
  return { ok: true, prompt, warnings: reader.warnings };
}

/** Reads a prompt mapping at path (a config's prompts[1], or a prompt file's root); null after an error. */
export function readPrompt(reader: ConfigReader, node: unknown, path: Array<string | number>): EvalPrompt | null {
  const entries = reader.mapping(node);
  if (!entries) {
    reader.error(node, path, `${path.length ? `${formatPath(path)} ` : "A prompt "}must be a mapping with name and template`);
    return null;
  }
  warnUnknownKeys(reader, entries, PROMPT_KEYS, path);
  const errorsBefore = reader.errors.length;
  const name = readText(reader, entries, "name", path, { required: true, node });
  const description = readText(reader, entries, "description", path, {}) ?? "";
  const version = readText(reader, entries, "version", path, {}) ?? "1.0";
  const system = readText(reader, entries, "system", path, {});
  const template = readText(reader, entries, "template", path, { required: true, node });
  if (template !== null) {
    const problem = checkTemplate(template);
    if (problem) reader.error(entries.get("template")?.value, [...path, "template"], `${formatPath([...path, "template"])}: ${problem}`);
  }
  if (reader.errors.length > errorsBefore || name === null || template === null) return null;
  return { name, description, version, system, template };
}

/** Warns of each key not in known, naming it and where it is. */
export function warnUnknownKeys(
  reader: ConfigReader,
  entries: Map<string, MappingEntry>,
  known: string[],
  path: Array<string | number>,
): void {
  for (const entry of entries.values()) {
    if (known.includes(entry.key)) continue;
    const where = path.length ? ` in ${formatPath(path)}` : "";
    reader.warning(entry.keyNode, [...path, entry.key], `Unknown key "${entry.key}"${where} is ignored (known keys: ${known.join(", ")})`);
  }
}

/**
 * A text field: a string, or a number or boolean as it was written (version: 1.0 is "1.0"). Null
 * when absent (an error when required) or not text (an error).
 */
export function readText(
  reader: ConfigReader,
  entries: Map<string, MappingEntry>,
  key: string,
  path: Array<string | number>,
  options: { required?: boolean; node?: unknown },
): string | null {
  const entry = entries.get(key);
  const fieldPath = [...path, key];
  if (!entry || reader.isNull(entry.value)) {
    if (options.required) reader.error(entry?.keyNode ?? options.node, fieldPath, `${formatPath(fieldPath)} is required`);
    return null;
  }
  const scalar = reader.scalar(entry.value);
  if (!scalar) {
    reader.error(
      entry.value,
      fieldPath,
      `${formatPath(fieldPath)} must be text, not a ${reader.sequence(entry.value) ? "list" : "mapping"}`,
    );
    return null;
  }
  if (scalar.text.length > MAX_PROMPT_TEXT) {
    reader.error(entry.value, fieldPath, `${formatPath(fieldPath)} is longer than ${MAX_PROMPT_TEXT} characters`);
    return null;
  }
  if (options.required && scalar.text.trim() === "") {
    reader.error(entry.value, fieldPath, `${formatPath(fieldPath)} is empty`);
    return null;
  }
  return scalar.text;
}
