/** What a prompt asks the model's output to contain, read from the prompt text itself. */
export type ExpectedOutput = { response: boolean; json: boolean };

/** The outcome of checking an output: the extracted text, or why the cell is malformed. */
export type OutputValidation = { ok: true; parsed: string } | { ok: false; reason: string };

// An opening tag, with or without attributes; `</response>` alone does not ask for a section.
const RESPONSE_OPENING_TAG = /<response(?:\s[^>]*)?>/i;
const JSON_WORD = /\bjson\b/i;
// Closed thinking blocks only: an unclosed `<thinking>` is left in place rather than guessing
// where it ends, which could swallow the real answer.
const THINKING_BLOCK = /<thinking(?:\s[^>]*)?>[\s\S]*?<\/thinking\s*>/gi;
const RESPONSE_SECTION = /<response(?:\s[^>]*)?>([\s\S]*?)<\/response\s*>/gi;
// The whole answer is one fenced block; prose around a fence is not accepted as JSON.
const JSON_FENCE = /^```(?:json)?[ \t]*(?:\r?\n)?([\s\S]*?)\s*```$/i;

/** Reads the spec's two signals from a prompt: a `<response>` tag and the word "json". */
export function detectExpectedOutput(promptText: string): ExpectedOutput {
  return {
    response: RESPONSE_OPENING_TAG.test(promptText),
    json: JSON_WORD.test(promptText),
  };
}

/**
 * Checks a model's raw output against what the prompt asked for: the last `<response>` section
 * first, then JSON inside it (or inside the whole output when no section was asked for).
 */
export function validateOutput(raw: string, expected: ExpectedOutput): OutputValidation {
  if (!expected.response && !expected.json) return { ok: true, parsed: raw };

  let text = raw.replace(THINKING_BLOCK, "");
  if (expected.response) {
    const section = lastResponseSection(text);
    if (section === null) {
      return { ok: false, reason: "Expected a <response>...</response> section; none was found" };
    }
    text = section;
  }
  if (!expected.json) return { ok: true, parsed: text };

  const candidate = stripJsonFence(text.trim());
  try {
    JSON.parse(candidate);
  } catch (error) {
    const where = expected.response ? "The <response> section" : "The output";
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `${where} is not valid JSON: ${detail}` };
  }
  return { ok: true, parsed: candidate };
}

/** The trimmed content of the last complete `<response>...</response>`, or null when there is none. */
function lastResponseSection(text: string): string | null {
  // Models often restate the instructions ("I will put my answer in <response>...") before
  // answering, so the last section is the answer.
  let last: string | null = null;
  for (const match of text.matchAll(RESPONSE_SECTION)) last = match[1];
  if (last === null) return null;
  // A lazy match from an earlier opening tag can include a later one (`<response>a<response>b`);
  // the section that belongs to the closing tag starts after the last opening tag inside it.
  const innerOpenings = [...last.matchAll(/<response(?:\s[^>]*)?>/gi)];
  if (innerOpenings.length > 0) {
    const lastOpening = innerOpenings[innerOpenings.length - 1];
    last = last.slice((lastOpening.index ?? 0) + lastOpening[0].length);
  }
  return last.trim();
}

function stripJsonFence(text: string): string {
  const fenced = JSON_FENCE.exec(text);
  return fenced ? fenced[1].trim() : text;
}
