/**
 * `runs/{run_id}.json`: one eval of a matrix, written as it finishes (specs/matrix-comparisons.md:
 * "Save each individual eval result immediately"). Keys in snake case as the batch summary's:
 *
 *   { "run_id", "batch_id", "timestamp",
 *     "prompt": { "version", "name" }, "model": { "name", "provider", "model" },
 *     "input": { "id", "title" }, "output",
 *     "tokens": { "input", "output" }, "cost_usd", "duration_seconds", "error" }
 *
 * With a grader or metrics, one key follows: "grading", { "by": "grader", "grade", "error" } or
 * { "by": "metrics", "metrics", "scores", "passed", "error" } (lib/formats/matrix/matrix-run-record.ts).
 *
 * cost_usd is null for an unpriced model (never 0); output is null and error says why for a failed
 * eval. parseRunFile reads one back (a resumed batch skips the evals that have one).
 */
import type { MatrixGrading, MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";

/** The file name of a run's file under runs/. */
export function runFileName(runId: string): string {
  return `${runId}.json`;
}

/** The run file's text: two-space JSON with a final newline. */
export function runFileJson(record: MatrixRunRecord): string {
  const document = {
    run_id: record.runId,
    batch_id: record.batchId,
    timestamp: record.timestamp,
    prompt: { version: record.prompt.version, name: record.prompt.name },
    model: { name: record.model.name, provider: record.model.provider, model: record.model.model },
    input: { id: record.input.id, title: record.input.title },
    output: record.output,
    tokens: { input: record.tokens.input, output: record.tokens.output },
    cost_usd: record.costUsd,
    duration_seconds: record.durationSeconds === null ? null : roundTo(record.durationSeconds, 3),
    error: record.error,
    ...(record.grading ? { grading: gradingJson(record.grading) } : {}),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

function gradingJson(grading: MatrixGrading) {
  return grading.by === "grader"
    ? { by: "grader", grade: grading.grade, error: grading.error }
    : { by: "metrics", metrics: grading.metrics, scores: grading.scores, passed: grading.passed, error: grading.error };
}

/**
 * A run file read back, or what is wrong with it, naming the file. label is the model's label
 * (as comparisons print it), which the file does not keep: the caller knows it from the model's name.
 */
export function parseRunFile(
  text: string,
  fileName: string,
  labelOf: (model: { name: string; provider: string; model: string }) => string = (model) => model.name,
): { ok: true; record: MatrixRunRecord } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `${fileName}: not JSON (${(error as Error).message}); delete it to run this eval again` };
  }
  const problems: string[] = [];
  const object = (from: unknown, key: string): Record<string, unknown> => {
    const item = isRecord(from) ? from[key] : undefined;
    if (!isRecord(item)) problems.push(`"${key}" must be an object`);
    return isRecord(item) ? item : {};
  };
  const text_ = (from: Record<string, unknown>, key: string, nullable = false): string | null => {
    const item = from[key];
    if (typeof item === "string") return item;
    if (nullable && item === null) return null;
    problems.push(`"${key}" must be a string${nullable ? " or null" : ""}`);
    return null;
  };
  const number = (from: Record<string, unknown>, key: string): number | null => {
    const item = from[key];
    if (item === null || (typeof item === "number" && Number.isFinite(item) && item >= 0)) return item;
    problems.push(`"${key}" must be a number of at least 0, or null`);
    return null;
  };
  if (!isRecord(value)) return { ok: false, error: `${fileName}: must be a JSON object; delete it to run this eval again` };
  const prompt = object(value, "prompt");
  const model = object(value, "model");
  const input = object(value, "input");
  const tokens = object(value, "tokens");
  const modelParts = { name: text_(model, "name") ?? "", provider: text_(model, "provider") ?? "", model: text_(model, "model") ?? "" };
  const record: MatrixRunRecord = {
    runId: text_(value, "run_id") ?? "",
    batchId: text_(value, "batch_id") ?? "",
    timestamp: text_(value, "timestamp") ?? "",
    prompt: { version: text_(prompt, "version") ?? "", name: text_(prompt, "name", true) },
    model: { ...modelParts, label: labelOf(modelParts) },
    input: { id: text_(input, "id") ?? "", title: text_(input, "title") ?? "" },
    output: text_(value, "output", true),
    tokens: { input: number(tokens, "input"), output: number(tokens, "output") },
    costUsd: number(value, "cost_usd"),
    durationSeconds: number(value, "duration_seconds"),
    error: text_(value, "error", true),
  };
  if ("grading" in value) {
    const grading = readGrading(value.grading);
    if (grading === null)
      problems.push(`"grading" must be a grader's {"by": "grader", "grade", "error"} or metrics' {"by": "metrics", ...}`);
    else record.grading = grading;
  }
  if (problems.length > 0) return { ok: false, error: `${fileName}: ${problems.join("; ")}; delete it to run this eval again` };
  return { ok: true, record };
}

/** A run file's "grading" read back, or null when it is not one of the two forms. */
function readGrading(value: unknown): MatrixGrading | null {
  if (!isRecord(value)) return null;
  const error = value.error === null || typeof value.error === "string" ? value.error : undefined;
  if (error === undefined) return null;
  const score = (item: unknown) => typeof item === "number" && Number.isFinite(item) && item >= 0 && item <= 1;
  if (value.by === "grader") {
    if (!(value.grade === null || score(value.grade))) return null;
    return { by: "grader", grade: value.grade as number | null, error };
  }
  if (value.by !== "metrics") return null;
  const { metrics, scores, passed } = value;
  if (!Array.isArray(metrics) || !metrics.every((name) => typeof name === "string")) return null;
  if (!isRecord(scores) || !Object.values(scores).every(score)) return null;
  if (!(passed === null || typeof passed === "boolean")) return null;
  return { by: "metrics", metrics: metrics as string[], scores: scores as Record<string, number>, passed, error };
}

/** value rounded to digits decimals, so sums of floats do not write 0.30000000000000004. */
export function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
