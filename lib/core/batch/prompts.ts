/**
 * Prompt sets of an image batch run (spec: image-batch-runs.md, "Prompt Set"). A .txt file has
 * one prompt per line, blank lines and lines starting with `#` ignored; a .csv file needs a
 * `prompt` column and may have `id` and `metadata` (a JSON object), other columns kept as
 * metadata. Ids are p-0001, p-0002, ... counting prompts, not lines; a CSV's own `id` wins.
 */
import { parseCsv } from "@/lib/formats/parse-csv";

export interface BatchPrompt {
  id: string;
  prompt: string;
  metadata: Record<string, unknown>;
}

/** At most this many prompts in one set; a bigger file is refused, not truncated. */
export const MAX_PROMPTS = 10_000;

const autoId = (n: number) => `p-${String(n).padStart(4, "0")}`;

export function parsePromptSet(text: string, file: string): BatchPrompt[] {
  const body = text.replace(/^\uFEFF/, "");
  const prompts = file.toLowerCase().endsWith(".csv") ? fromCsv(body, file) : fromTxt(body);
  if (prompts.length > MAX_PROMPTS) {
    throw new Error(`${file}: ${prompts.length} prompts, more than the ${MAX_PROMPTS} allowed`);
  }
  const seen = new Set<string>();
  for (const p of prompts) {
    if (seen.has(p.id)) throw new Error(`${file}: prompt id "${p.id}" appears twice: give each prompt its own id`);
    seen.add(p.id);
  }
  return prompts;
}

function fromTxt(text: string): BatchPrompt[] {
  const prompts: BatchPrompt[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const prompt = line.trim();
    if (prompt === "" || prompt.startsWith("#")) continue;
    prompts.push({ id: autoId(prompts.length + 1), prompt, metadata: {} });
  }
  return prompts;
}

function fromCsv(text: string, file: string): BatchPrompt[] {
  const { headers, rows } = parseCsv(text, file);
  if (!headers.includes("prompt")) {
    throw new Error(
      `${file}, line 1: the required column "prompt" is missing (the header has ${headers.map((h) => `"${h}"`).join(", ")}): ` +
        `name the column that holds the prompts "prompt"`,
    );
  }
  const prompts: BatchPrompt[] = [];
  rows.forEach((row, i) => {
    const line = i + 2;
    const prompt = row.prompt.trim();
    if (prompt === "") return;
    let metadata: Record<string, unknown> = {};
    if (row.metadata !== undefined && row.metadata.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(row.metadata);
      } catch {
        throw new Error(
          `${file}, row ${line}, key "metadata": not valid JSON: write a JSON object, e.g. "{""style"": ""glossy""}" (quotes doubled inside a quoted CSV value)`,
        );
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw new Error(
          `${file}, row ${line}, key "metadata": must be a JSON object, e.g. {"style": "glossy"}, not ${row.metadata.trim().slice(0, 40)}`,
        );
      }
      metadata = { ...(parsed as Record<string, unknown>) };
    }
    for (const h of headers) {
      if (h !== "prompt" && h !== "id" && h !== "metadata") metadata[h] = row[h];
    }
    const ownId = row.id?.trim();
    prompts.push({ id: ownId ? ownId : autoId(prompts.length + 1), prompt, metadata });
  });
  return prompts;
}

/** `--prompt-range 3-10`: the 3rd to the 10th prompt (1-based, inclusive), by position. */
export function filterPromptRange(prompts: BatchPrompt[], range: string): BatchPrompt[] {
  const m = /^(\d{1,6})-(\d{1,6})$/.exec(range.trim());
  if (!m) throw new Error(`--prompt-range "${range}" is not FROM-TO, e.g. 3-10`);
  const from = Number(m[1]);
  const to = Number(m[2]);
  if (from < 1 || to < from) throw new Error(`--prompt-range "${range}" is empty or starts below 1`);
  return prompts.slice(from - 1, to);
}
