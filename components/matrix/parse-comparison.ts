/**
 * A matrix comparison's markdown (lib/formats/matrix/comparison-markdown.ts, the spec's two
 * formats) read back into its parts, so the page lays it out as the file is, with text elements
 * only: the front matter as key/value pairs, the title, the shared facts, and one section per
 * eval with its heading, its facts (tokens, cost, duration) and its output or error. The output is
 * kept as the model wrote it; it is never interpreted as markdown or HTML.
 *
 * A section starts at a `---` line between blank lines followed by a `## ` heading, a blank line
 * and a `**Label**: value` line, as the writer makes every section; an output holding a bare `---`
 * or a `## ` line of its own stays in its section.
 */
import { parse as parseYaml } from "yaml";

/** One `**Label**: value` line. */
export interface ComparisonFact {
  label: string;
  value: string;
}

/** One eval's section: `## Version v1 (summary)` or `## Model: mock/echo`. */
export interface ComparisonSection {
  heading: string;
  facts: ComparisonFact[];
  /** The output as the model wrote it; empty for a failed eval. */
  output: string;
  /** The `**Error**:` line's text for a failed eval, else null. */
  error: string | null;
}

/** A comparison.md in its parts. */
export interface ComparisonDocument {
  /** The YAML front matter's keys in file order; a list is its items joined by ", ". */
  frontMatter: ComparisonFact[];
  /** The `# ` heading, or null when there is none. */
  title: string | null;
  /** The facts under the title (Transcript, Model or Prompt, Compared). */
  facts: ComparisonFact[];
  /** Any other lines of the header, kept as text. */
  notes: string[];
  sections: ComparisonSection[];
}

const FACT = /^\*\*([^*]+)\*\*:\s?(.*)$/;

/** Reads a comparison's markdown; text that fits no part is kept in notes, never dropped. */
export function parseComparison(markdown: string): ComparisonDocument {
  const text = markdown.replace(/\r\n?/g, "\n");
  const { frontMatter, rest } = splitFrontMatter(text);
  const lines = rest.split("\n");
  const starts: number[] = [];
  for (let index = 0; index < lines.length; index++) if (isSectionStart(lines, index)) starts.push(index);

  const headerLines = lines.slice(0, starts[0] ?? lines.length);
  let title: string | null = null;
  const facts: ComparisonFact[] = [];
  const notes: string[] = [];
  for (const line of headerLines) {
    if (line.trim() === "") continue;
    const heading = /^# +(.*)$/.exec(line);
    const fact = FACT.exec(line);
    if (heading && title === null) title = heading[1].trim();
    else if (fact) facts.push({ label: fact[1], value: fact[2] });
    else notes.push(line);
  }

  const sections = starts.map((start, position) => {
    const end = starts[position + 1] ?? lines.length;
    // lines[start] is the ---, then a blank line, then the heading.
    const heading = lines[start + 2].replace(/^## +/, "").trim();
    let index = start + 4;
    const sectionFacts: ComparisonFact[] = [];
    while (index < end && FACT.test(lines[index])) {
      const fact = FACT.exec(lines[index])!;
      sectionFacts.push({ label: fact[1], value: fact[2] });
      index++;
    }
    if (index < end && lines[index] === "") index++;
    // The writer ends a section with one blank line before the next ---.
    const body = lines.slice(index, end).join("\n").replace(/\n+$/, "");
    const error = /^\*\*Error\*\*: ?(.*)$/.exec(body);
    return error && !body.includes("\n")
      ? { heading, facts: sectionFacts, output: "", error: error[1] }
      : { heading, facts: sectionFacts, output: body, error: null };
  });

  return { frontMatter, title, facts, notes, sections };
}

/** The front matter between the first two `---` lines, read with a YAML parser (its raw lines when it does not parse). */
function splitFrontMatter(text: string): { frontMatter: ComparisonFact[]; rest: string } {
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
  if (!match) return { frontMatter: [], rest: text };
  const rest = text.slice(match[0].length);
  let data: unknown;
  try {
    data = parseYaml(match[1]);
  } catch {
    data = null;
  }
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    return {
      frontMatter: Object.entries(data as Record<string, unknown>).map(([label, value]) => ({ label, value: yamlValueText(value) })),
      rest,
    };
  }
  const frontMatter = match[1]
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const colon = line.indexOf(":");
      return colon === -1 ? { label: line, value: "" } : { label: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
  return { frontMatter, rest };
}

function yamlValueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(yamlValueText).join(", ");
  if (value instanceof Date) return value.toISOString().replace(/\.000Z$/, "Z");
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function isSectionStart(lines: string[], index: number): boolean {
  return (
    lines[index] === "---" &&
    (index === 0 || lines[index - 1] === "") &&
    lines[index + 1] === "" &&
    /^## +\S/.test(lines[index + 2] ?? "") &&
    lines[index + 3] === "" &&
    FACT.test(lines[index + 4] ?? "")
  );
}

/** One link of index.md: its text and the comparison folder it points to. */
export interface ComparisonIndexLink {
  text: string;
  /** The comparison's folder name, what GET .../comparisons/{name}.md takes. */
  name: string;
}

/** index.md in its parts: the title, the Generated line, and each `## ` group with its links. */
export interface ComparisonIndex {
  title: string | null;
  generated: string | null;
  groups: Array<{ heading: string; links: ComparisonIndexLink[]; empty: string | null }>;
}

/** Reads comparisons/index.md: `- [text](./folder/comparison.md)` lines under `## ` headings. */
export function parseComparisonIndex(markdown: string): ComparisonIndex {
  const index: ComparisonIndex = { title: null, generated: null, groups: [] };
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    if (line.trim() === "") continue;
    const title = /^# +(.*)$/.exec(line);
    const group = /^## +(.*)$/.exec(line);
    const generated = /^Generated: *(.*)$/.exec(line);
    const link = /^- \[((?:\\.|[^\]\\])*)\]\(\.\/([^)]+)\/comparison\.md\)\s*$/.exec(line);
    const current = index.groups.at(-1);
    if (title && index.title === null) index.title = title[1].trim();
    else if (group) index.groups.push({ heading: group[1].trim(), links: [], empty: null });
    else if (generated && index.generated === null) index.generated = generated[1].trim();
    else if (link && current) current.links.push({ text: link[1].replace(/\\(.)/g, "$1"), name: safeDecode(link[2]) });
    else if (current) current.empty = (current.empty ? `${current.empty} ` : "") + line.trim();
  }
  return index;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
