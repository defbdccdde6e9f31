import type { EvalResult, EvalRun } from "@/lib/core/eval/eval-run";

/** A result of the spec's shape with the fields a test does not care about filled in. */
export function evalResult(overrides: Partial<EvalResult> & Pick<EvalResult, "test_case">): EvalResult {
  return {
    prompt_name: "summarizer_v1",
    trial: 1,
    system_prompt: "You are a helpful assistant.",
    input_text: "Summarize this in 2 sentences:\n\nPython is...",
    output: "Python is a programming language.",
    metrics: { contains: 1, response_length: 1 },
    passed: true,
    latency_ms: 245.3,
    tokens_in: 50,
    tokens_out: 30,
    cost_usd: 0.0006,
    error: null,
    ...overrides,
  };
}

/** What a model might write to break a report: markup, a fence, pipes, quotes and a control character. */
export const HOSTILE_OUTPUT = '<script>alert("x")</script> & <b>bold</b> | a pipe\n```\nnot the end\n```\n\u0001 \'single\' "double"';

/** The spec's EvalResult example, a failed result with hostile output, and an error. */
export function summarizerRun(overrides: Partial<EvalRun> = {}): EvalRun {
  return {
    run_id: "abc12345",
    prompt_name: "summarizer_v1",
    model: "claude-sonnet-4-20250514",
    config: { model: "claude-sonnet-4-20250514", max_tokens: 256, temperature: 0, evaluation_threshold: 0.5 },
    started_at: "2025-01-02T03:04:05.000Z",
    completed_at: "2025-01-02T03:04:09.500Z",
    results: [
      evalResult({ test_case: "test1" }),
      evalResult({
        test_case: "hostile | <case>",
        output: HOSTILE_OUTPUT,
        metrics: { contains: 1 / 3, response_length: 1 },
        passed: false,
        latency_ms: 1200,
        tokens_in: 60,
        tokens_out: 90,
        cost_usd: 0.0015,
      }),
      evalResult({
        test_case: "t3",
        input_text: "",
        output: "",
        metrics: {},
        passed: false,
        latency_ms: 0,
        tokens_in: 0,
        tokens_out: 0,
        cost_usd: null,
        error: "Missing input variable text in test case t3",
      }),
    ],
    pass_rate: 1 / 3,
    avg_latency_ms: 481.7666666666667,
    cost_usd: 0.0021,
    ...overrides,
  };
}

/** Splits a Markdown table row into its cells, honouring escaped pipes. */
export function markdownRow(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  for (let index = 0; index < inner.length; index += 1) {
    const character = inner[index];
    if (character === "\\" && index + 1 < inner.length) {
      cell += inner[index + 1];
      index += 1;
    } else if (character === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += character;
  }
  cells.push(cell.trim());
  return cells;
}

/** The table that follows a heading line: its header cells and rows of cells. */
export function markdownTableAfter(markdown: string, heading: string): { header: string[]; rows: string[][] } {
  const lines = markdown.split("\n");
  let index = lines.indexOf(heading);
  if (index === -1) throw new Error(`no heading ${heading}`);
  while (!lines[index].startsWith("|")) index += 1;
  const header = markdownRow(lines[index]);
  if (!/^\|[-|]+\|$/.test(lines[index + 1])) throw new Error(`no separator row under ${heading}`);
  const rows: string[][] = [];
  for (index += 2; index < lines.length && lines[index].startsWith("|"); index += 1) {
    const row = markdownRow(lines[index]);
    if (row.length !== header.length) throw new Error(`row of ${row.length} cells under ${header.length}: ${lines[index]}`);
    rows.push(row);
  }
  return { header, rows };
}
