/**
 * The files of `parallaxr matrix --grader FILE` and `--metrics FILE`. A grader is a prompt with
 * {{output}} (checked by the planner, like the API's); metrics are a YAML (or JSON) list of the
 * eval spec's metrics a matrix can score without an expected output, or a mapping with such a
 * list under `metrics:` (an eval config's key):
 *
 *   - type: response_length
 *     max_words: 300
 *   - type: llm_judge
 *     criteria: Is the summary faithful to the transcript?
 *     model: mock/fast
 *
 * Problems name the file, the line (YAML) or the item and key, and say what to do; they are
 * usage errors (exit 2) before anything is planned.
 */
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { LineCounter, parseDocument } from "yaml";
import { MAX_MATRIX_FILE_CHARS, MAX_MATRIX_METRICS, matrixMetricSchema, type MatrixMetricInput } from "@/lib/api/matrix";
import { CliError, exitCodes } from "../cli-error";

// The most bytes a metrics file may have: ten metrics with long criteria fit many times over.
const MAX_METRICS_FILE_BYTES = 1_000_000;

/** A file's text, or a usage error naming it. */
function readSmallFile(file: string, what: string, maxBytes: number): string {
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) throw new CliError(`${what} ${file} is not a file.`, exitCodes.usage);
    size = stats.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${what} not found: ${file} (${(error as Error).message}). Give the path of the file.`, exitCodes.usage);
  }
  if (size > maxBytes) throw new CliError(`${what} ${file} is ${size} bytes; at most ${maxBytes} are read.`, exitCodes.usage);
  return readFileSync(file, "utf8").replace(/^\uFEFF/, "");
}

/** The grader prompt's text (--grader). */
export function readGraderFile(file: string): string {
  const text = readSmallFile(file, "Grader prompt", MAX_MATRIX_FILE_CHARS * 4);
  if (text.trim() === "")
    throw new CliError(`${file} is empty: a grader prompt has {{output}} where the eval's answer goes.`, exitCodes.usage);
  return text;
}

/** The metrics of a --metrics file, checked as the API checks them. */
export function readMetricsFile(file: string): MatrixMetricInput[] {
  const text = readSmallFile(file, "Metrics file", MAX_METRICS_FILE_BYTES);
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0) {
    const problems = document.errors.map((error) => {
      const at = lineCounter.linePos(error.pos[0]);
      return `${file}, line ${at.line}: ${error.message.split("\n")[0]}`;
    });
    throw new CliError(`${problems.join("\n")}\nFix the YAML of ${file}.`, exitCodes.usage);
  }
  const value: unknown = document.toJS();
  const list =
    typeof value === "object" && value !== null && !Array.isArray(value) && "metrics" in value
      ? (value as { metrics: unknown }).metrics
      : value;
  const items = z.array(z.unknown()).min(1).max(MAX_MATRIX_METRICS).safeParse(list);
  if (!items.success) {
    throw new CliError(
      `${file}: a metrics file is a list of 1 to ${MAX_MATRIX_METRICS} metrics (- type: response_length ... or - type: llm_judge ...), or such a list under metrics:.`,
      exitCodes.usage,
    );
  }
  const problems: string[] = [];
  const metrics: MatrixMetricInput[] = [];
  items.data.forEach((item, index) => {
    const parsed = matrixMetricSchema.safeParse(item);
    // The line of the item in the file, where the YAML says it.
    const node = document.getIn(Array.isArray(value) ? [index] : ["metrics", index], true) as { range?: [number, number] } | undefined;
    const line = node?.range ? `, line ${lineCounter.linePos(node.range[0]).line}` : "";
    if (parsed.success) metrics.push(parsed.data);
    else {
      for (const issue of parsed.error.issues) {
        const key = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
        problems.push(`${file}${line}: metric ${index + 1}: ${key}${issue.message}`);
      }
    }
  });
  if (problems.length > 0) {
    throw new CliError(
      `${problems.join("\n")}\nA matrix scores by response_length (min_words, max_words, min_chars, max_chars, threshold) and llm_judge (criteria, model, threshold).`,
      exitCodes.usage,
    );
  }
  return metrics;
}
