/**
 * The grade in a grader's answer (already reduced to its <response> part when the grader asks
 * for one), from 0 to 1, or null when there is none. Read, in order: a JSON object's "grade" or
 * "score"; a number alone (0.7, 70%, 7/10, 4 out of 5 as a fraction); the words pass / fail (also
 * yes / no, true / false). A number above 1 with no scale is not guessed at: null.
 */
export function parseGrade(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const fromJson = gradeFromJson(trimmed);
  if (fromJson !== undefined) return fromJson;

  const fraction = /^(-?\d+(?:\.\d+)?)\s*(?:\/|out of)\s*(\d+(?:\.\d+)?)$/i.exec(trimmed);
  if (fraction) return clampOrNull(Number(fraction[1]) / Number(fraction[2]));
  const percent = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(trimmed);
  if (percent) return clampOrNull(Number(percent[1]) / 100);
  if (/^-?\d+(?:\.\d+)?$/.test(trimmed)) return clampOrNull(Number(trimmed));

  const word = trimmed.toLowerCase().replace(/[.!]$/, "");
  if (["pass", "passed", "yes", "true", "correct"].includes(word)) return 1;
  if (["fail", "failed", "no", "false", "incorrect"].includes(word)) return 0;
  return null;
}

function gradeFromJson(text: string): number | null | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const grade = value.grade ?? value.score;
    if (typeof grade === "number") return clampOrNull(grade);
    if (typeof grade === "string") return parseGrade(grade);
    if (typeof grade === "boolean") return grade ? 1 : 0;
    return null;
  } catch {
    return undefined;
  }
}

function clampOrNull(value: number): number | null {
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}
