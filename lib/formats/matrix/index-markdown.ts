/**
 * `comparisons/index.md` (specs/matrix-comparisons.md, "Comparison Index Format"): every
 * comparison in the comparisons folder, prompt comparisons then model comparisons, each list
 * newest first (then by folder name), each a relative link to `./{folder}/comparison.md`:
 *
 *   # Eval Comparisons
 *
 *   Generated: 2025-12-27T14:40:00Z
 *
 *   ## Prompt Comparisons
 *
 *   - [tech-talk-01: v1 vs v2 vs v3 (llama-3.3-70b-versatile)](./20251227_143500_prompt_tech-talk-01_llama-3.3-70b/comparison.md)
 *
 *   ## Model Comparisons
 *
 *   - [tech-talk-01: llama-3.3-70b vs mixtral (v1)](./20251227_143500_model_tech-talk-01_v1/comparison.md)
 *
 * The index covers earlier batches too: their entries are read back from each comparison.md's
 * front matter (comparisonEntryFromMarkdown), so the index is rebuilt from the folder, not kept
 * by hand. A prompt comparison's model is written as its front matter's model: (the label,
 * llama-3.3-70b-versatile for the short name llama-3.3-70b), so a fresh entry and one read back
 * are the same line. A list with no comparison says "None yet."
 */
import { parse as parseYaml } from "yaml";
import type { ComparisonGroup, ComparisonType } from "@/lib/formats/matrix/comparison-groups";
import { compareNames } from "@/lib/formats/matrix/comparison-groups";
import { COMPARISON_FILE_NAME } from "@/lib/formats/matrix/comparison-markdown";

/** One line of the index. */
export interface ComparisonIndexEntry {
  type: ComparisonType;
  folder: string;
  timestamp: string;
  inputId: string;
  /** Prompt versions (a prompt comparison) or models as written (a model comparison). */
  compared: string[];
  /** The model's label (a prompt comparison) or the prompt version (a model comparison) all evals share. */
  shared: string;
}

/** The index entry of a comparison made now. */
export function comparisonIndexEntry(group: ComparisonGroup): ComparisonIndexEntry {
  const isPrompt = group.type === "prompt_comparison";
  return {
    type: group.type,
    folder: group.folder,
    timestamp: group.timestamp,
    inputId: group.input.id,
    compared: group.runs.map((run) => (isPrompt ? run.prompt.version : run.model.name)),
    // The model's label, as the comparison's front matter keeps it, so an entry read back reads the same.
    shared: isPrompt ? (group.model?.label ?? "") : (group.prompt?.version ?? ""),
  };
}

/**
 * The index entry of a comparison.md written earlier, from its front matter; null when the file
 * has no front matter of a comparison (the caller names the file it skips).
 */
export function comparisonEntryFromMarkdown(folder: string, markdown: string): ComparisonIndexEntry | null {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(\r?\n|$)/.exec(markdown);
  if (!match) return null;
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const fields = data as Record<string, unknown>;
  const text = (value: unknown) =>
    typeof value === "string" ? value : value instanceof Date ? value.toISOString().replace(/\.000Z$/, "Z") : null;
  const list = (value: unknown) => (Array.isArray(value) ? value.map((item) => String(item)) : null);
  const timestamp = text(fields.timestamp);
  const inputId = text(fields.transcript);
  if (timestamp === null || inputId === null) return null;
  if (fields.comparison_type === "prompt_comparison") {
    const compared = list(fields.prompts_compared);
    const shared = text(fields.model);
    return compared && shared !== null ? { type: "prompt_comparison", folder, timestamp, inputId, compared, shared } : null;
  }
  if (fields.comparison_type === "model_comparison") {
    const compared = list(fields.models_compared);
    const shared = text(fields.prompt_version);
    return compared && shared !== null ? { type: "model_comparison", folder, timestamp, inputId, compared, shared } : null;
  }
  return null;
}

/** The index's markdown, ending with a newline. generatedAt is ISO 8601 to the second. */
export function indexMarkdown({ entries, generatedAt }: { entries: readonly ComparisonIndexEntry[]; generatedAt: string }): string {
  const newestFirst = [...entries].sort((a, b) => compareNames(b.timestamp, a.timestamp) || compareNames(a.folder, b.folder));
  const list = (type: ComparisonType) => {
    const lines = newestFirst.filter((entry) => entry.type === type).map(indexLine);
    return lines.length > 0 ? lines : ["None yet."];
  };
  return [
    "# Eval Comparisons",
    "",
    `Generated: ${generatedAt}`,
    "",
    "## Prompt Comparisons",
    "",
    ...list("prompt_comparison"),
    "",
    "## Model Comparisons",
    "",
    ...list("model_comparison"),
    "",
  ].join("\n");
}

/** "- [tech-talk-01: v1 vs v2 (llama-3.3-70b-versatile)](./folder/comparison.md)" */
function indexLine(entry: ComparisonIndexEntry): string {
  const text = `${entry.inputId}: ${entry.compared.join(" vs ")} (${entry.shared})`;
  return `- [${escapeLinkText(text)}](./${encodeURIComponent(entry.folder).replace(/%40/g, "@")}/${COMPARISON_FILE_NAME})`;
}

// Brackets, backslashes and the emphasis and code marks would change the link's text.
function escapeLinkText(text: string): string {
  return text.replace(/[\\[\]*_`<>]/g, (character) => `\\${character}`);
}
