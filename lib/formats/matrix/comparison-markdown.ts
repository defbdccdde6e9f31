/**
 * A comparison's `comparison.md`, in the spec's two formats (specs/matrix-comparisons.md,
 * "Comparison Markdown Format"): YAML front matter, a title, the shared facts, then one section
 * per eval separated by `---`, each with its tokens (thousands separators), cost (four decimals,
 * or "unknown" for an unpriced model) and duration (seconds), then the output as the model wrote
 * it. A failed eval's section gives its error where the output would be.
 *
 * Prompt comparison:                       Model comparison:
 *   comparison_type: prompt_comparison       comparison_type: model_comparison
 *   timestamp, transcript, model,            timestamp, transcript, prompt_version,
 *   prompts_compared: [v1, v2]               models_compared: [llama-3.3-70b, mixtral]
 *   # Prompt Comparison: {input id}          # Model Comparison: {input id}
 *   **Transcript**: {input title}            **Transcript**: {input title}
 *   **Model**: {model label}                 **Prompt**: v1 (summary)
 *   **Compared**: v1, v2                     **Compared**: {model labels}
 *   ## Version v1 (summary)                  ## Model: {model label}
 *
 * A version carries its prompt's name in parentheses when its file has one. A model's label is
 * Groq's id for the spec's short names (llama-3.3-70b-versatile), else the name as written; the
 * front matter's models_compared keeps the names as written, as the spec's example does.
 */
import type { ComparisonGroup } from "@/lib/formats/matrix/comparison-groups";
import type { MatrixRunRecord } from "@/lib/formats/matrix/matrix-run-record";
import type { PairedMeasure } from "@/lib/core/matrix/paired-grades";
import type { ComparisonPairing } from "@/lib/formats/matrix/comparison-groups";
import { succeeded } from "@/lib/formats/matrix/matrix-run-record";
import { costText, durationText, tokensText } from "@/lib/formats/matrix/number-text";

/** The file name of a comparison inside its folder. */
export const COMPARISON_FILE_NAME = "comparison.md";

/** The comparison's markdown, ending with a newline. */
export function comparisonMarkdown(group: ComparisonGroup): string {
  const isPrompt = group.type === "prompt_comparison";
  const frontMatter = isPrompt
    ? [
        "comparison_type: prompt_comparison",
        `timestamp: ${timestampScalar(group.timestamp)}`,
        `transcript: ${yamlScalar(group.input.id)}`,
        `model: ${yamlScalar(group.model?.label ?? "")}`,
        `prompts_compared: ${yamlFlowList(group.runs.map((run) => run.prompt.version))}`,
      ]
    : [
        "comparison_type: model_comparison",
        `timestamp: ${timestampScalar(group.timestamp)}`,
        `transcript: ${yamlScalar(group.input.id)}`,
        `prompt_version: ${yamlScalar(group.prompt?.version ?? "")}`,
        `models_compared: ${yamlFlowList(group.runs.map((run) => run.model.name))}`,
      ];
  const header = isPrompt
    ? [
        `# Prompt Comparison: ${group.input.id}`,
        "",
        `**Transcript**: ${group.input.title}`,
        `**Model**: ${group.model?.label ?? ""}`,
        `**Compared**: ${group.runs.map((run) => run.prompt.version).join(", ")}`,
      ]
    : [
        `# Model Comparison: ${group.input.id}`,
        "",
        `**Transcript**: ${group.input.title}`,
        `**Prompt**: ${group.prompt ? versionText(group.prompt) : ""}`,
        `**Compared**: ${group.runs.map((run) => run.model.label).join(", ")}`,
      ];
  header.push(...(group.paired ?? []).flatMap(pairedLines));
  const sections = group.runs.map((run) =>
    section(isPrompt ? `## Version ${versionText(run.prompt)}` : `## Model: ${run.model.label}`, run),
  );
  return ["---", ...frontMatter, "---", "", ...header, "", ...sections.flatMap((text) => ["---", "", text, ""])]
    .join("\n")
    .replace(/\n+$/, "\n");
}

/** "v1 (summary)" when the prompt has a name, else "v1". */
export function versionText(prompt: { version: string; name: string | null }): string {
  return prompt.name ? `${prompt.version} (${prompt.name})` : prompt.version;
}

function section(heading: string, run: MatrixRunRecord): string {
  const facts = [
    `**Tokens**: ${tokensText(run.tokens.input)} input / ${tokensText(run.tokens.output)} output`,
    `**Cost**: ${costText(run.costUsd)}`,
    `**Duration**: ${durationText(run.durationSeconds)}`,
    ...(run.grading ? gradingLines(run) : []),
  ];
  // An output is written as the model wrote it; only its trailing newlines go, so sections stay apart by one blank line.
  const body =
    run.error !== null || run.output === null
      ? `**Error**: ${(run.error ?? "The model returned no output").replace(/\s*\n\s*/g, " ")}`
      : run.output.replace(/\s+$/, "");
  return [heading, "", ...facts, "", body].join("\n");
}

/**
 * A graded eval's grade lines, below its duration: the grader's grade (two decimals), or each
 * metric's score in the metrics' order and the pass rule's verdict; "none" where there is none
 * (a failed eval, a grader or judge that failed), and the grader's or judges' error on a line of its own.
 */
function gradingLines(run: MatrixRunRecord): string[] {
  const grading = run.grading!;
  const failed = !succeeded(run);
  const lines =
    grading.by === "grader"
      ? [`**Grade**: ${grading.grade !== null && !failed ? gradeText(grading.grade) : failed ? "none (the eval failed)" : "none"}`]
      : [
          `**Scores**: ${
            failed
              ? "none (the eval failed)"
              : `${grading.metrics.map((name) => `${name} ${name in grading.scores ? gradeText(grading.scores[name]) : "none"}`).join(", ")} (${grading.passed === null ? "no verdict" : grading.passed ? "passed" : "not passed"})`
          }`,
        ];
  if (grading.error !== null && !failed) lines.push(`**Grader error**: ${oneLine(grading.error)}`);
  return lines;
}

function gradeText(value: number): string {
  return value.toFixed(2);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}

/**
 * A pairing's lines under the comparison's facts, one per measure: both sides' rates or means over
 * the inputs graded on both, the difference (candidate minus baseline) with its 95% interval, the
 * exact McNemar p for a pass rate, and the verdict by the one rule (lib/core/eval/stats/difference-verdict.ts).
 */
function pairedLines(pairing: ComparisonPairing): string[] {
  const { baseline, candidate, grades } = pairing;
  if (grades.measures.length === 0) return [`**Grades, ${candidate} vs ${baseline}**: no input graded on both sides`];
  return grades.measures.map((measure) => {
    const name =
      measure.measure === "pass rate" ? "Pass rate" : measure.measure === "mean grade" ? "Mean grade" : `${measure.measure} (mean score)`;
    const verdict =
      measure.verdict === "candidate higher"
        ? `${candidate} higher`
        : measure.verdict === "baseline higher"
          ? `${baseline} higher`
          : "not distinguishable";
    const inputs = `${grades.pairedInputs} paired input${grades.pairedInputs === 1 ? "" : "s"}`;
    const values = `${measureText(measure, measure.candidate)} vs ${measureText(measure, measure.baseline)}`;
    const method = measure.method === "newcombe" ? `McNemar p = ${pValueText(measure.mcnemarP)}` : "paired bootstrap";
    return `**${name}, ${candidate} vs ${baseline}**: ${values} over ${inputs}; difference ${differenceText(measure, measure.difference)}, 95% CI ${differenceText(measure, measure.interval.low)} to ${differenceText(measure, measure.interval.high)}; ${method}; ${verdict}`;
  });
}

/** A rate in percent (80%), a mean to two decimals (0.72). */
function measureText(measure: PairedMeasure, value: number): string {
  return measure.kind === "rate" ? `${trimZero((value * 100).toFixed(1))}%` : value.toFixed(2);
}

/** A difference with its sign: a rate's in points (+30.0 points), a mean's to two decimals (+0.17). */
function differenceText(measure: PairedMeasure, value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  const sign = value > 0 ? "+" : value < 0 ? "-" : "";
  const size = Math.abs(value);
  return measure.kind === "rate" ? `${sign}${(size * 100).toFixed(1)} points` : `${sign}${size.toFixed(2)}`;
}

function pValueText(p: number | null): string {
  return p === null || !Number.isFinite(p) ? "n/a" : p.toFixed(4);
}

function trimZero(text: string): string {
  return text.replace(/\.0$/, "");
}

/**
 * A YAML scalar: plain when YAML reads it back as this same string (tech-talk-01, v1,
 * 2025-12-27T14:30:00Z with YAML 1.2's core schema), else double-quoted (a JSON string is a valid
 * YAML double-quoted scalar): names that read as numbers, booleans or null, or hold YAML's punctuation.
 */
export function yamlScalar(text: string): string {
  const plain = /^[A-Za-z0-9][A-Za-z0-9._\-/@+]*$/.test(text) && !/^(true|false|null|yes|no|on|off|y|n|~)$/i.test(text);
  // A date (2025-12-27) is a string to YAML 1.2 but a date to a YAML 1.1 reader: quoted too.
  const numeric =
    /^[-+]?(\d[\d_]*)?(\.\d*)?([eE][-+]?\d+)?$/.test(text) ||
    /^0[xob]/i.test(text) ||
    /^[-+]?\.(inf|nan)$/i.test(text) ||
    /^\d{4}-\d{1,2}-\d{1,2}/.test(text);
  return plain && !numeric ? text : JSON.stringify(text);
}

/**
 * The batch's time as the spec writes it, unquoted (2025-12-27T14:30:00Z): YAML 1.2's core schema
 * reads it as this string, a YAML 1.1 reader as the same instant. Quoted if it is not that form.
 */
function timestampScalar(timestamp: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp) ? timestamp : yamlScalar(timestamp);
}

/** A YAML flow sequence: [v1, v2, v3]. */
export function yamlFlowList(items: readonly string[]): string {
  return `[${items.map(yamlScalar).join(", ")}]`;
}
