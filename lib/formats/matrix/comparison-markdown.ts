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
  ];
  // An output is written as the model wrote it; only its trailing newlines go, so sections stay apart by one blank line.
  const body =
    run.error !== null || run.output === null
      ? `**Error**: ${(run.error ?? "The model returned no output").replace(/\s*\n\s*/g, " ")}`
      : run.output.replace(/\s+$/, "");
  return [heading, "", ...facts, "", body].join("\n");
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
