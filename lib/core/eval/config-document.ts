/**
 * Reading an eval config or a prompt file (specs/eval-config.md) as YAML 1.2, JSON being YAML
 * too, with every problem placed: its path in the document (test_cases[0].name) and its line.
 * The readers below walk the parsed nodes rather than a plain object so that a missing field, a
 * wrong type and an unknown key can each name the line they are on, and so that 1.0 stays a
 * float (Python's str() writes it 1.0). Merge keys (<<) and aliases are followed, as PyYAML's
 * safe_load does, within a budget of values so a few aliases cannot expand to millions.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import { PythonFloat, type PythonValue } from "@/lib/core/eval/format-template";

/** A problem found in a config or prompt file, placed by path and line (1-based; null when unknown). */
export interface ConfigProblem {
  message: string;
  /** Where in the document, e.g. test_cases[2].inputs; "" for the document itself. */
  path: string;
  line: number | null;
}

/** The largest config or prompt file read, in characters (far above any hand-written config). */
export const MAX_CONFIG_CHARACTERS = 5_000_000;

// A config's values, aliases expanded; the spec's example has a few dozen.
const MAX_VALUES = 200_000;

/** One key of a mapping, its value and where it is. */
export interface MappingEntry {
  key: string;
  keyNode: unknown;
  value: unknown;
}

/** A path as the messages write it: test_cases[0].expected_contains[1]. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${part}` : part), "");
}

/** The parsed document's root node and a reader over it, or the YAML errors with their lines. */
export function readYamlDocument(
  text: string,
  options: { json: boolean },
): { ok: true; reader: ConfigReader; root: unknown } | { ok: false; errors: ConfigProblem[]; warnings: ConfigProblem[] } {
  if (text.length > MAX_CONFIG_CHARACTERS) {
    return {
      ok: false,
      errors: [{ message: `The file is larger than ${MAX_CONFIG_CHARACTERS} characters`, path: "", line: null }],
      warnings: [],
    };
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text.replace(/^\uFEFF/, ""), {
    version: "1.2",
    schema: options.json ? "json" : "core",
    lineCounter,
    uniqueKeys: true,
    merge: !options.json,
    prettyErrors: false,
  });
  const place = (error: { message: string; pos: [number, number] }): ConfigProblem => {
    const position = lineCounter.linePos(error.pos[0]);
    return {
      message: `Invalid ${options.json ? "JSON" : "YAML"} at line ${position.line}, column ${position.col}: ${error.message}`,
      path: "",
      line: position.line,
    };
  };
  const warnings = document.warnings.map(place);
  if (document.errors.length > 0) return { ok: false, errors: document.errors.map(place), warnings };
  const reader = new ConfigReader(document, lineCounter);
  reader.warnings.push(...warnings);
  return { ok: true, reader, root: document.contents };
}

/** Collects problems while reading a document's nodes. */
export class ConfigReader {
  readonly errors: ConfigProblem[] = [];
  readonly warnings: ConfigProblem[] = [];
  private valuesLeft = MAX_VALUES;

  constructor(
    private readonly document: Document,
    private readonly lineCounter: LineCounter,
  ) {}

  /** The line a node starts on, or null. */
  lineOf(node: unknown): number | null {
    const range = (node as Node | null)?.range;
    return range ? this.lineCounter.linePos(range[0]).line : null;
  }

  error(node: unknown, path: ReadonlyArray<string | number>, message: string): void {
    this.errors.push({ message, path: formatPath(path), line: this.lineOf(node) });
  }

  warning(node: unknown, path: ReadonlyArray<string | number>, message: string): void {
    this.warnings.push({ message, path: formatPath(path), line: this.lineOf(node) });
  }

  /** The node an alias points to, or the node itself. */
  resolve(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.document) : node;
  }

  /** True for an absent value or YAML's null. */
  isNull(node: unknown): boolean {
    const resolved = this.resolve(node);
    return resolved === null || resolved === undefined || (isScalar(resolved) && resolved.value === null);
  }

  /** A mapping's entries by key (merge keys expanded, a key given later winning), or null when node is no mapping. */
  mapping(node: unknown): Map<string, MappingEntry> | null {
    const resolved = this.resolve(node);
    if (!isMap(resolved)) return null;
    const entries = new Map<string, MappingEntry>();
    const merged: Array<Map<string, MappingEntry>> = [];
    for (const pair of resolved.items) {
      const keyNode = pair.key;
      const keyValue = isScalar(keyNode) ? keyNode.value : keyNode;
      if (typeof keyValue === "symbol") {
        const sources = isSeq(this.resolve(pair.value)) ? (this.resolve(pair.value) as { items: unknown[] }).items : [pair.value];
        for (const source of sources) {
          const sourceEntries = this.mapping(source);
          if (sourceEntries) merged.push(sourceEntries);
        }
        continue;
      }
      const key = isScalar(keyNode) ? scalarText(keyNode) : String(keyValue);
      entries.set(key, { key, keyNode, value: pair.value });
    }
    // Merged keys never override the mapping's own; earlier sources win over later ones.
    for (const source of merged) {
      for (const [key, entry] of source) if (!entries.has(key)) entries.set(key, entry);
    }
    return entries;
  }

  /** A sequence's items, or null when node is no sequence. */
  sequence(node: unknown): unknown[] | null {
    const resolved = this.resolve(node);
    return isSeq(resolved) ? resolved.items : null;
  }

  /** A scalar's value (string, number, boolean or null), or undefined for a mapping or sequence. */
  scalar(node: unknown): { value: unknown; text: string } | undefined {
    const resolved = this.resolve(node);
    if (resolved === null || resolved === undefined) return { value: null, text: "" };
    if (!isScalar(resolved)) return undefined;
    return { value: resolved.value, text: scalarText(resolved) };
  }

  /**
   * The node as a Python value: strings, ints, floats (PythonFloat when whole, so 1.0 stays
   * 1.0), booleans, None, lists and dicts, as PyYAML would load it for Python's str().
   */
  pythonValue(node: unknown, path: ReadonlyArray<string | number>): PythonValue {
    if (--this.valuesLeft < 0) {
      if (this.valuesLeft === -1) this.error(node, path, `The file holds more than ${MAX_VALUES} values (aliases expanded)`);
      return null;
    }
    const resolved = this.resolve(node);
    const items = this.sequence(resolved);
    if (items) return items.map((item, index) => this.pythonValue(item, [...path, index]));
    const entries = this.mapping(resolved);
    if (entries) {
      const value: Record<string, PythonValue> = {};
      for (const [key, entry] of entries) value[key] = this.pythonValue(entry.value, [...path, key]);
      return value;
    }
    if (!isScalar(resolved)) return null;
    const value = resolved.value;
    if (typeof value === "number") return isFloat(resolved) && Number.isInteger(value) ? new PythonFloat(value) : value;
    if (typeof value === "string" || typeof value === "boolean" || value === null) return value;
    return scalarText(resolved);
  }
}

function scalarText(node: { value: unknown; source?: string }): string {
  if (typeof node.value === "string") return node.value;
  return typeof node.source === "string" ? node.source : String(node.value);
}

// YAML 1.2 core ints: 12, -3, 0o14, 0xC; every other number (1.0, 1e3, .inf, .nan) is a float.
function isFloat(node: { tag?: string; source?: string; value: unknown }): boolean {
  if (node.tag === "tag:yaml.org,2002:float") return true;
  if (node.tag === "tag:yaml.org,2002:int") return false;
  const source = typeof node.source === "string" ? node.source : String(node.value);
  return !/^[-+]?(?:[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/.test(source);
}
