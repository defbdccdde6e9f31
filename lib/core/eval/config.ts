/**
 * An eval config (specs/eval-config.md) read from its YAML 1.2 or JSON text and checked whole:
 *
 * - model (required unless the command's -m gives one) or models: a list, each prompt run on
 *   each model; -m replaces both. Each name must route to a provider (model-route.ts) when the
 *   caller passes the provider ids.
 * - max_tokens (default 1024), temperature (default 0.0), evaluation_threshold (default 0.5),
 *   repeat (trials per test case, default 1).
 * - prompts: paths of prompt files, kept as written (the caller resolves them relative to the
 *   config file's directory and reads them with parsePromptFile), or inline prompts.
 * - test_cases: name, inputs, expected_contains, expected_not_contains, tags, expected_output.
 * - metrics: contains, response_length, llm_judge, exact_match with their options; none means
 *   contains. A second metric of one type is named type_2 (its score's key).
 *
 * Every problem is collected, not only the first, each with its path and line: invalid YAML,
 * a missing field ("test_cases[0].name is required"), a wrong type, "No prompts found in
 * config!" and "No test cases found in config!". Unknown keys are warnings that name them.
 */
import { ConfigReader, formatPath, readYamlDocument, type ConfigProblem, type MappingEntry } from "@/lib/core/eval/config-document";
import { type PythonValue } from "@/lib/core/eval/format-template";
import { METRIC_TYPES, type MetricConfig } from "@/lib/core/eval/metrics";
import { routeModel } from "@/lib/core/eval/model-route";
import { readPrompt, readText, warnUnknownKeys, type EvalPrompt } from "@/lib/core/eval/prompt-file";

export type { ConfigProblem } from "@/lib/core/eval/config-document";

/** A prompt of the config: a file to read (path as written, with its line) or an inline prompt. */
export type EvalPromptSource = { kind: "file"; path: string; line: number | null } | { kind: "inline"; prompt: EvalPrompt };

/** One test case, with the spec's field names. */
export interface EvalTestCase {
  name: string;
  /** The template's variables; values as Python holds them (1.0 a PythonFloat). */
  inputs: Record<string, PythonValue>;
  expected_contains: string[];
  expected_not_contains: string[];
  tags: string[];
  /** What exact_match compares with; null when not given. */
  expected_output: string | null;
}

/** A checked config, defaults filled in. */
export interface EvalConfig {
  /** The models to run, in order: -m's, else models:, else [model]. */
  models: string[];
  max_tokens: number;
  temperature: number;
  evaluation_threshold: number;
  /** Trials per test case. */
  repeat: number;
  prompts: EvalPromptSource[];
  test_cases: EvalTestCase[];
  /** Never empty: contains when the config names none. */
  metrics: MetricConfig[];
}

/** The config, or every problem that keeps it from running; warnings either way. */
export type ParsedEvalConfig =
  { ok: true; config: EvalConfig; warnings: ConfigProblem[] } | { ok: false; errors: ConfigProblem[]; warnings: ConfigProblem[] };

/** The spec's error when prompts is missing or empty. */
export const NO_PROMPTS = "No prompts found in config!";
/** The spec's error when test_cases is missing or empty. */
export const NO_TEST_CASES = "No test cases found in config!";

/** The defaults of the spec's Global Configuration Parameters. */
export const EVAL_DEFAULTS = { max_tokens: 1024, temperature: 0.0, evaluation_threshold: 0.5, repeat: 1 } as const;

// Bounds on what a config may ask for: far above any real eval, low enough that a typo cannot
// plan millions of calls or a reply no model gives.
export const EVAL_LIMITS = { models: 20, prompts: 100, test_cases: 10_000, metrics: 20, repeat: 100, max_tokens: 1_000_000 } as const;

const CONFIG_KEYS = ["model", "models", "max_tokens", "temperature", "evaluation_threshold", "repeat", "prompts", "test_cases", "metrics"];
const TEST_CASE_KEYS = ["name", "inputs", "expected_contains", "expected_not_contains", "tags", "expected_output"];
const METRIC_KEYS: Record<MetricConfig["type"], string[]> = {
  contains: ["type", "case_sensitive", "threshold"],
  response_length: ["type", "min_words", "max_words", "min_chars", "max_chars", "threshold"],
  llm_judge: ["type", "criteria", "model", "threshold"],
  exact_match: ["type", "case_sensitive", "strip", "threshold"],
};

/**
 * Reads a config's text. fileName picks JSON for .json (else YAML 1.2); modelOverride is -m;
 * providerIds, when given, are the providers model names may route to.
 */
export function parseEvalConfig(
  text: string,
  options: { fileName?: string; modelOverride?: string | null; providerIds?: readonly string[] } = {},
): ParsedEvalConfig {
  const document = readYamlDocument(text, { json: /\.json$/i.test(options.fileName ?? "") });
  if (!document.ok) return document;
  const { reader, root } = document;
  const entries = reader.isNull(root) ? new Map<string, MappingEntry>() : reader.mapping(root);
  if (!entries) {
    reader.error(root, [], "The config must be a mapping of keys: model, prompts, test_cases, metrics, ...");
    return { ok: false, errors: reader.errors, warnings: reader.warnings };
  }
  warnUnknownKeys(reader, entries, CONFIG_KEYS, []);

  const models = readModels(reader, entries, options);
  const max_tokens =
    readNumber(reader, entries, "max_tokens", [], { integer: true, min: 1, max: EVAL_LIMITS.max_tokens }) ?? EVAL_DEFAULTS.max_tokens;
  const temperature = readNumber(reader, entries, "temperature", [], { min: 0, max: 2 }) ?? EVAL_DEFAULTS.temperature;
  const evaluation_threshold =
    readNumber(reader, entries, "evaluation_threshold", [], { min: 0, max: 1 }) ?? EVAL_DEFAULTS.evaluation_threshold;
  const repeat = readNumber(reader, entries, "repeat", [], { integer: true, min: 1, max: EVAL_LIMITS.repeat }) ?? EVAL_DEFAULTS.repeat;
  const prompts = readPrompts(reader, entries);
  const test_cases = readTestCases(reader, entries);
  const metrics = readMetrics(reader, entries, options.providerIds);
  warnExactMatchWithoutExpectedOutput(reader, entries, metrics, test_cases);

  if (reader.errors.length > 0) return { ok: false, errors: reader.errors, warnings: reader.warnings };
  return {
    ok: true,
    config: { models, max_tokens, temperature, evaluation_threshold, repeat, prompts, test_cases, metrics },
    warnings: reader.warnings,
  };
}

/** A problem as a line of output: "eval.yaml, line 12: test_cases[0].name is required". */
export function formatConfigProblem(problem: ConfigProblem, fileName?: string): string {
  const place = [fileName, problem.line === null ? null : `line ${problem.line}`].filter(Boolean).join(", ");
  return place ? `${place}: ${problem.message}` : problem.message;
}

function readModels(
  reader: ConfigReader,
  entries: Map<string, MappingEntry>,
  options: { modelOverride?: string | null; providerIds?: readonly string[] },
): string[] {
  const checkName = (name: string, node: unknown, path: Array<string | number>) => {
    if (!options.providerIds) return;
    const routed = routeModel(name, options.providerIds);
    if (!routed.ok) reader.error(node, path, `${formatPath(path)}: ${routed.error}`);
  };
  const modelEntry = entries.get("model");
  const modelsEntry = entries.get("models");
  if (options.modelOverride != null) {
    checkName(options.modelOverride, null, ["-m"]);
    return [options.modelOverride];
  }
  const hasModel = modelEntry !== undefined && !reader.isNull(modelEntry.value);
  const hasModels = modelsEntry !== undefined && !reader.isNull(modelsEntry.value);
  if (hasModel && hasModels) {
    reader.error(modelsEntry.keyNode, ["models"], "Give model or models, not both (models runs each prompt on each model in its list)");
    return [];
  }
  if (hasModels) {
    const names = readStringList(reader, entries, "models", [], { max: EVAL_LIMITS.models }) ?? [];
    const items = reader.sequence(modelsEntry.value) ?? [];
    if (names.length === 0) reader.error(modelsEntry.value, ["models"], "models is empty: list one model or more");
    names.forEach((name, index) => checkName(name, items[index], ["models", index]));
    return names;
  }
  if (!hasModel) {
    reader.error(modelEntry?.keyNode ?? null, ["model"], "model is required (or give one with -m)");
    return [];
  }
  const model = readText(reader, entries, "model", [], { required: true });
  if (model === null) return [];
  checkName(model, modelEntry?.value, ["model"]);
  return [model];
}

function readPrompts(reader: ConfigReader, entries: Map<string, MappingEntry>): EvalPromptSource[] {
  const entry = entries.get("prompts");
  const items = entry ? reader.sequence(entry.value) : null;
  if (!entry || reader.isNull(entry.value) || (items && items.length === 0)) {
    reader.error(entry?.keyNode ?? null, ["prompts"], NO_PROMPTS);
    return [];
  }
  if (!items) {
    reader.error(entry.value, ["prompts"], "prompts must be a list of prompt file paths or inline prompts");
    return [];
  }
  if (items.length > EVAL_LIMITS.prompts) {
    reader.error(entry.value, ["prompts"], `prompts lists ${items.length} prompts; at most ${EVAL_LIMITS.prompts} run in one eval`);
    return [];
  }
  const prompts: EvalPromptSource[] = [];
  items.forEach((item, index) => {
    const path = ["prompts", index];
    const scalar = reader.scalar(item);
    if (scalar && typeof scalar.value === "string") {
      if (scalar.value.trim() === "") reader.error(item, path, `${formatPath(path)} is an empty path`);
      else prompts.push({ kind: "file", path: scalar.value, line: reader.lineOf(item) });
      return;
    }
    if (scalar) {
      reader.error(item, path, `${formatPath(path)} must be a prompt file's path or an inline prompt (name, template, ...)`);
      return;
    }
    const prompt = readPrompt(reader, item, path);
    if (prompt) prompts.push({ kind: "inline", prompt });
  });
  return prompts;
}

function readTestCases(reader: ConfigReader, entries: Map<string, MappingEntry>): EvalTestCase[] {
  const entry = entries.get("test_cases");
  const items = entry ? reader.sequence(entry.value) : null;
  if (!entry || reader.isNull(entry.value) || (items && items.length === 0)) {
    reader.error(entry?.keyNode ?? null, ["test_cases"], NO_TEST_CASES);
    return [];
  }
  if (!items) {
    reader.error(entry.value, ["test_cases"], "test_cases must be a list of test cases (name, inputs, ...)");
    return [];
  }
  if (items.length > EVAL_LIMITS.test_cases) {
    reader.error(entry.value, ["test_cases"], `test_cases lists ${items.length} cases; at most ${EVAL_LIMITS.test_cases} run in one eval`);
    return [];
  }
  const testCases: EvalTestCase[] = [];
  const firstByName = new Map<string, number>();
  items.forEach((item, index) => {
    const path = ["test_cases", index];
    const fields = reader.mapping(item);
    if (!fields) {
      reader.error(item, path, `${formatPath(path)} must be a mapping with name and inputs`);
      return;
    }
    warnUnknownKeys(reader, fields, TEST_CASE_KEYS, path);
    const name = readText(reader, fields, "name", path, { required: true, node: item });
    if (name !== null) {
      const first = firstByName.get(name);
      // Results are paired across prompts, models and runs by test case name.
      if (first !== undefined) {
        reader.error(
          fields.get("name")?.value,
          [...path, "name"],
          `${formatPath(path)}.name "${name}" is also test_cases[${first}]'s name; each test case needs its own`,
        );
      } else firstByName.set(name, index);
    }
    const inputs = readInputs(reader, fields, path);
    const expected_contains = readStringList(reader, fields, "expected_contains", path, {}) ?? [];
    const expected_not_contains = readStringList(reader, fields, "expected_not_contains", path, {}) ?? [];
    const tags = readStringList(reader, fields, "tags", path, {}) ?? [];
    const expected_output = readText(reader, fields, "expected_output", path, {});
    if (name !== null) testCases.push({ name, inputs, expected_contains, expected_not_contains, tags, expected_output });
  });
  return testCases;
}

function readInputs(reader: ConfigReader, fields: Map<string, MappingEntry>, path: Array<string | number>): Record<string, PythonValue> {
  const entry = fields.get("inputs");
  if (!entry || reader.isNull(entry.value)) return {};
  const inputs = reader.mapping(entry.value);
  if (!inputs) {
    reader.error(entry.value, [...path, "inputs"], `${formatPath([...path, "inputs"])} must be a mapping of variable names to values`);
    return {};
  }
  const values: Record<string, PythonValue> = {};
  for (const [key, input] of inputs) values[key] = reader.pythonValue(input.value, [...path, "inputs", key]);
  return values;
}

function readMetrics(reader: ConfigReader, entries: Map<string, MappingEntry>, providerIds: readonly string[] | undefined): MetricConfig[] {
  const entry = entries.get("metrics");
  if (!entry || reader.isNull(entry.value)) return [{ type: "contains", name: "contains", case_sensitive: false, threshold: null }];
  const items = reader.sequence(entry.value);
  if (!items) {
    reader.error(entry.value, ["metrics"], "metrics must be a list of metrics, each with a type");
    return [];
  }
  if (items.length === 0) return [{ type: "contains", name: "contains", case_sensitive: false, threshold: null }];
  if (items.length > EVAL_LIMITS.metrics) {
    reader.error(entry.value, ["metrics"], `metrics lists ${items.length} metrics; at most ${EVAL_LIMITS.metrics}`);
    return [];
  }
  const metrics: MetricConfig[] = [];
  const countByType = new Map<string, number>();
  items.forEach((item, index) => {
    const path = ["metrics", index];
    const fields = reader.mapping(item);
    if (!fields) {
      reader.error(item, path, `${formatPath(path)} must be a mapping with a type (${METRIC_TYPES.join(", ")})`);
      return;
    }
    const type = readText(reader, fields, "type", path, { required: true, node: item });
    if (type === null) return;
    if (!(METRIC_TYPES as readonly string[]).includes(type)) {
      reader.error(
        fields.get("type")?.value,
        [...path, "type"],
        `${formatPath(path)}.type "${type}" is not a metric; the metrics are ${METRIC_TYPES.join(", ")}`,
      );
      return;
    }
    const metricType = type as MetricConfig["type"];
    warnUnknownKeys(reader, fields, METRIC_KEYS[metricType], path);
    const count = (countByType.get(metricType) ?? 0) + 1;
    countByType.set(metricType, count);
    const name = count === 1 ? metricType : `${metricType}_${count}`;
    if (count > 1) reader.warning(item, path, `${formatPath(path)} is a second ${metricType} metric: its scores are named ${name}`);
    const threshold = readNumber(reader, fields, "threshold", path, { min: 0, max: 1 });
    const metric = readMetric(reader, fields, path, metricType, name, threshold, providerIds);
    if (metric) metrics.push(metric);
  });
  return metrics;
}

function readMetric(
  reader: ConfigReader,
  fields: Map<string, MappingEntry>,
  path: Array<string | number>,
  type: MetricConfig["type"],
  name: string,
  threshold: number | null,
  providerIds: readonly string[] | undefined,
): MetricConfig | null {
  switch (type) {
    case "contains":
      return { type, name, case_sensitive: readBoolean(reader, fields, "case_sensitive", path) ?? false, threshold };
    case "exact_match":
      return {
        type,
        name,
        case_sensitive: readBoolean(reader, fields, "case_sensitive", path) ?? true,
        strip: readBoolean(reader, fields, "strip", path) ?? true,
        threshold,
      };
    case "response_length": {
      const bound = (key: string) => readNumber(reader, fields, key, path, { integer: true, min: 0, max: Number.MAX_SAFE_INTEGER });
      const [min_words, max_words, min_chars, max_chars] = ["min_words", "max_words", "min_chars", "max_chars"].map(bound);
      for (const [low, high, unit] of [
        [min_words, max_words, "words"],
        [min_chars, max_chars, "chars"],
      ] as const) {
        if (low !== null && high !== null && low > high) {
          reader.error(
            fields.get(`max_${unit}`)?.value,
            [...path, `max_${unit}`],
            `${formatPath(path)}: min_${unit} ${low} is above max_${unit} ${high}, so no output could pass`,
          );
        }
      }
      if ([min_words, max_words, min_chars, max_chars].every((value) => value === null)) {
        reader.warning(
          fields.get("type")?.keyNode,
          path,
          `${formatPath(path)} response_length gives no bound, so it scores every output 1.0`,
        );
      }
      return { type, name, min_words, max_words, min_chars, max_chars, threshold };
    }
    case "llm_judge": {
      const criteria = readText(reader, fields, "criteria", path, { required: true, node: fields.get("type")?.keyNode });
      const model = readText(reader, fields, "model", path, {});
      if (model !== null && providerIds) {
        const routed = routeModel(model, providerIds);
        if (!routed.ok) reader.error(fields.get("model")?.value, [...path, "model"], `${formatPath([...path, "model"])}: ${routed.error}`);
      }
      return criteria === null ? null : { type, name, criteria, model, threshold };
    }
  }
}

function warnExactMatchWithoutExpectedOutput(
  reader: ConfigReader,
  entries: Map<string, MappingEntry>,
  metrics: MetricConfig[],
  testCases: EvalTestCase[],
): void {
  if (!metrics.some((metric) => metric.type === "exact_match")) return;
  const items = reader.sequence(entries.get("test_cases")?.value) ?? [];
  testCases.forEach((testCase, index) => {
    if (testCase.expected_output !== null) return;
    reader.warning(items[index], ["test_cases", index], `Test case ${testCase.name} has no expected_output, so exact_match scores it 0.0`);
  });
}

function readNumber(
  reader: ConfigReader,
  entries: Map<string, MappingEntry>,
  key: string,
  path: Array<string | number>,
  bounds: { integer?: boolean; min: number; max: number },
): number | null {
  const entry = entries.get(key);
  if (!entry || reader.isNull(entry.value)) return null;
  const fieldPath = [...path, key];
  const scalar = reader.scalar(entry.value);
  const value = scalar?.value;
  const kind = bounds.integer ? "a whole number" : "a number";
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    (bounds.integer && !Number.isInteger(value)) ||
    value < bounds.min ||
    value > bounds.max
  ) {
    const shown = scalar ? JSON.stringify(scalar.text) : "a list or mapping";
    reader.error(entry.value, fieldPath, `${formatPath(fieldPath)} must be ${kind} from ${bounds.min} to ${bounds.max}, not ${shown}`);
    return null;
  }
  return value;
}

function readBoolean(reader: ConfigReader, entries: Map<string, MappingEntry>, key: string, path: Array<string | number>): boolean | null {
  const entry = entries.get(key);
  if (!entry || reader.isNull(entry.value)) return null;
  const scalar = reader.scalar(entry.value);
  if (typeof scalar?.value === "boolean") return scalar.value;
  const fieldPath = [...path, key];
  reader.error(
    entry.value,
    fieldPath,
    `${formatPath(fieldPath)} must be true or false, not ${scalar ? JSON.stringify(scalar.text) : "a list or mapping"}`,
  );
  return null;
}

function readStringList(
  reader: ConfigReader,
  entries: Map<string, MappingEntry>,
  key: string,
  path: Array<string | number>,
  options: { max?: number },
): string[] | null {
  const entry = entries.get(key);
  if (!entry || reader.isNull(entry.value)) return null;
  const fieldPath = [...path, key];
  const items = reader.sequence(entry.value);
  if (!items) {
    reader.error(entry.value, fieldPath, `${formatPath(fieldPath)} must be a list of strings`);
    return null;
  }
  if (options.max !== undefined && items.length > options.max) {
    reader.error(entry.value, fieldPath, `${formatPath(fieldPath)} lists ${items.length} items; at most ${options.max}`);
    return null;
  }
  const strings: string[] = [];
  items.forEach((item, index) => {
    const scalar = reader.scalar(item);
    if (!scalar || scalar.value === null || typeof scalar.value === "object") {
      reader.error(item, [...fieldPath, index], `${formatPath([...fieldPath, index])} must be a string`);
      return;
    }
    strings.push(scalar.text);
  });
  return strings;
}
