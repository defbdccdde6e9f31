/**
 * Eval prompt templates (specs/eval-config.md), rendered as Python's `template.format(**inputs)`:
 * `{var}` takes the input's value as Python's str() writes it (True, None, 1.0, ['a', 1],
 * {'k': 'v'}), `{{` and `}}` are literal braces, and a lone brace is the error Python raises, in
 * Python's words. Also as in Python: `{var!r}`, `{var!s}` and `{var!a}`, and `{var[key]}`,
 * `{var[0]}` into a mapping or a list. Not supported: a format spec (`{var:>10}`), which
 * checkTemplate reports instead of rendering it differently from Python; and attribute access
 * (`{var.name}`), which Python fails on for every value a config can hold.
 *
 * Saved workbench prompts keep their own `{{var}}` syntax (lib/core/template.ts); this is only
 * for eval configs and prompt files.
 */
import { pythonRepr } from "@/lib/core/mock-response";

/**
 * A float whose value is a whole number (1.0 in YAML), so it renders as Python's `1.0` and not
 * `1`. Other numbers need no mark: a whole number is an int, any other a float. JSON.stringify
 * writes it as the number.
 */
export class PythonFloat {
  constructor(readonly value: number) {}
  toJSON(): number {
    return this.value;
  }
}

/** An input value as a config can hold it: YAML's scalars, lists and mappings. */
export type PythonValue = string | number | boolean | null | PythonFloat | PythonValue[] | { [key: string]: PythonValue };

/** A template that cannot render: a syntax error, or a lookup that fails for these inputs. */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TemplateError";
  }
}

/** The error for a placeholder whose variable the test case's inputs lack. */
export function missingInputVariable(variable: string, testCaseName: string): string {
  return `Missing input variable ${variable} in test case ${testCaseName}`;
}

type Accessor = { kind: "index"; key: string | number } | { kind: "attribute"; name: string };
type Field = { name: string; accessors: Accessor[]; conversion: "r" | "s" | "a" | null; formatSpec: string };
type Part = { kind: "text"; text: string } | { kind: "field"; field: Field; source: string };

/**
 * What is wrong with the template whatever the inputs, in Python's words ("Single '}'
 * encountered in format string"), or null when nothing is. Positional fields (`{}`, `{0}`) are
 * wrong too: the inputs are passed by name only, so Python raises IndexError for them.
 */
export function checkTemplate(template: string): string | null {
  try {
    for (const part of parseTemplate(template)) {
      if (part.kind === "field") checkField(part);
    }
    return null;
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
}

/** The input names the template's fields use, each once, in order of first use. */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const part of parseTemplate(template)) {
    if (part.kind === "field") names.add(part.field.name);
  }
  return [...names];
}

/**
 * The template with each field replaced by its input's value. Throws a TemplateError: for a
 * syntax error (checkTemplate's message), for a variable the inputs lack (missingInputVariable),
 * and for an index or key a value does not have (Python's exception and message, then the field
 * and the test case: "KeyError: 'zz' in {mapping[zz]} in test case basic").
 */
export function formatTemplate(template: string, inputs: Record<string, PythonValue>, testCaseName: string): string {
  let text = "";
  for (const part of parseTemplate(template)) {
    if (part.kind === "text") {
      text += part.text;
      continue;
    }
    checkField(part);
    const { field } = part;
    if (!Object.prototype.hasOwnProperty.call(inputs, field.name)) {
      throw new TemplateError(missingInputVariable(field.name, testCaseName));
    }
    let value = inputs[field.name];
    try {
      for (const accessor of field.accessors) value = access(value, accessor);
    } catch (error) {
      if (error instanceof TemplateError) throw new TemplateError(`${error.message} in ${part.source} in test case ${testCaseName}`);
      throw error;
    }
    text += field.conversion === "r" ? pythonValueRepr(value) : field.conversion === "a" ? pythonAscii(value) : pythonStr(value);
  }
  return text;
}

/** The value as Python's str() writes it. */
export function pythonStr(value: PythonValue): string {
  return typeof value === "string" ? value : pythonValueRepr(value);
}

/** The value as Python's repr() writes it: strings quoted, containers with their items' repr(). */
export function pythonValueRepr(value: PythonValue): string {
  if (value === null) return "None";
  if (typeof value === "string") return pythonRepr(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? BigInt(value).toString() : pythonFloatRepr(value);
  if (value instanceof PythonFloat) return pythonFloatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pythonValueRepr).join(", ")}]`;
  const entries = Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${pythonValueRepr(item)}`);
  return `{${entries.join(", ")}}`;
}

/**
 * A float as Python's repr() writes it: the shortest digits that read back as the same number,
 * in positional notation from 1e-4 up to 1e16 (always with a decimal point) and in exponent
 * notation outside it, the exponent signed and at least two digits (1e-05, 1e+16).
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (value === Infinity) return "inf";
  if (value === -Infinity) return "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  // toExponential() with no argument gives the shortest round-tripping digits, as Python's repr does.
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e");
  const exponent = Number(exponentText);
  const digits = mantissa.replace(".", "");
  const sign = value < 0 ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    const exponentDigits = String(Math.abs(exponent)).padStart(2, "0");
    return `${sign}${mantissa}e${exponent < 0 ? "-" : "+"}${exponentDigits}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1);
  return `${sign}${whole}.${fraction || "0"}`;
}

function pythonAscii(value: PythonValue): string {
  let text = "";
  for (const character of pythonValueRepr(value)) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x80) text += character;
    else if (code <= 0xff) text += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code <= 0xffff) text += `\\u${code.toString(16).padStart(4, "0")}`;
    else text += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return text;
}

function checkField(part: Extract<Part, { kind: "field" }>): void {
  const { field } = part;
  if (field.name === "" || /^\d+$/.test(field.name)) {
    // Python numbers an empty field 0 (the first positional argument); there are none.
    const index = field.name === "" ? "0" : String(Number(field.name));
    throw new TemplateError(`Replacement index ${index} out of range for positional args tuple`);
  }
  if (field.formatSpec !== "") {
    throw new TemplateError(
      `Format spec ':${field.formatSpec}' in ${part.source} is not supported; write {${field.name}} alone, or {{ and }} for literal braces`,
    );
  }
  if (field.accessors.some((accessor) => accessor.kind === "attribute")) {
    throw new TemplateError(`Attribute access in ${part.source} is not supported; write ${field.name}[key] for a key of a mapping`);
  }
}

function access(value: PythonValue, accessor: Accessor): PythonValue {
  if (accessor.kind === "attribute") throw new TemplateError(`Attribute access .${accessor.name} is not supported`);
  const { key } = accessor;
  if (Array.isArray(value)) {
    if (typeof key !== "number") throw new TemplateError("TypeError: list indices must be integers or slices, not str");
    if (key >= value.length) throw new TemplateError("IndexError: list index out of range");
    return value[key];
  }
  if (value !== null && typeof value === "object" && !(value instanceof PythonFloat)) {
    // Python looks up {a[0]} as the int 0 and {a[x]} as the string 'x'; a config's mapping keys are strings.
    const name = String(key);
    if (!Object.prototype.hasOwnProperty.call(value, name))
      throw new TemplateError(`KeyError: ${typeof key === "number" ? key : pythonRepr(key)}`);
    return value[name];
  }
  if (typeof value === "string") {
    if (typeof key !== "number") throw new TemplateError("TypeError: string indices must be integers, not 'str'");
    const characters = [...value];
    if (key >= characters.length) throw new TemplateError("IndexError: string index out of range");
    return characters[key];
  }
  throw new TemplateError(`TypeError: '${pythonTypeName(value)}' object is not subscriptable`);
}

function pythonTypeName(value: PythonValue): string {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (value instanceof PythonFloat) return "float";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return "object";
}

/** Splits the template as CPython 3's MarkupIterator and parse_field do, with their error messages. */
function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let text = "";
  let position = 0;
  while (position < template.length) {
    const character = template[position];
    if (character !== "{" && character !== "}") {
      text += character;
      position += 1;
      continue;
    }
    const doubled = template[position + 1] === character;
    if (character === "}" && !doubled) throw new TemplateError("Single '}' encountered in format string");
    if (doubled) {
      text += character;
      position += 2;
      continue;
    }
    if (position + 1 >= template.length) throw new TemplateError("Single '{' encountered in format string");
    const { field, end } = parseField(template, position + 1);
    if (text) parts.push({ kind: "text", text });
    text = "";
    parts.push({ kind: "field", field, source: template.slice(position, end) });
    position = end;
  }
  if (text) parts.push({ kind: "text", text });
  return parts;
}

/** The field that starts at start (just after its '{'), and where the text after its '}' starts. */
function parseField(template: string, start: number): { field: Field; end: number } {
  let position = start;
  let stop = "";
  // The name ends at '}', ':' or '!' outside square brackets.
  while (position < template.length) {
    const character = template[position++];
    if (character === "{") throw new TemplateError("unexpected '{' in field name");
    if (character === "[") {
      while (position < template.length && template[position] !== "]") position += 1;
      continue;
    }
    if (character === "}" || character === ":" || character === "!") {
      stop = character;
      break;
    }
  }
  const fieldName = template.slice(start, stop ? position - 1 : position);
  let conversion: Field["conversion"] = null;
  if (stop === "}") return { field: { ...parseFieldName(fieldName), conversion, formatSpec: "" }, end: position };
  if (stop === "") throw new TemplateError("expected '}' before end of string");
  if (stop === "!") {
    if (position >= template.length) throw new TemplateError("end of string while looking for conversion specifier");
    const letter = template[position++];
    const ended = position < template.length && template[position] === "}";
    if (position < template.length && !ended && template[position] !== ":") {
      throw new TemplateError("expected ':' after conversion specifier");
    }
    if (ended || position < template.length) {
      if (letter !== "r" && letter !== "s" && letter !== "a") throw new TemplateError(`Unknown conversion specifier ${letter}`);
      conversion = letter;
    }
    if (ended) return { field: { ...parseFieldName(fieldName), conversion, formatSpec: "" }, end: position + 1 };
    position += 1;
  }
  // The format spec runs to the '}' that closes the field; braces nest inside it ({width}).
  const specStart = position;
  let depth = 1;
  while (position < template.length) {
    const character = template[position++];
    if (character === "{") depth += 1;
    else if (character === "}" && --depth === 0) {
      const formatSpec = template.slice(specStart, position - 1);
      return { field: { ...parseFieldName(fieldName), conversion, formatSpec }, end: position };
    }
  }
  throw new TemplateError("unmatched '{' in format spec");
}

function parseFieldName(fieldName: string): { name: string; accessors: Accessor[] } {
  const firstEnd = fieldName.search(/[.[]/);
  const name = firstEnd === -1 ? fieldName : fieldName.slice(0, firstEnd);
  const accessors: Accessor[] = [];
  let position = firstEnd === -1 ? fieldName.length : firstEnd;
  while (position < fieldName.length) {
    if (fieldName[position] === ".") {
      const next = fieldName.slice(position + 1).search(/[.[]/);
      const attributeEnd = next === -1 ? fieldName.length : position + 1 + next;
      const attribute = fieldName.slice(position + 1, attributeEnd);
      if (attribute === "") throw new TemplateError("Empty attribute in format string");
      accessors.push({ kind: "attribute", name: attribute });
      position = attributeEnd;
    } else {
      const close = fieldName.indexOf("]", position + 1);
      if (close === -1) throw new TemplateError("Missing ']' in format string");
      const key = fieldName.slice(position + 1, close);
      if (key === "") throw new TemplateError("Empty attribute in format string");
      accessors.push({ kind: "index", key: /^\d+$/.test(key) ? Number(key) : key });
      position = close + 1;
      if (position < fieldName.length && fieldName[position] !== "." && fieldName[position] !== "[") {
        throw new TemplateError("Only '.' or '[' may follow ']' in format field specifier");
      }
    }
  }
  return { name, accessors };
}
