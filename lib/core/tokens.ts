/**
 * Estimated token count: characters / 4, rounded down (the spec's `len(text) // 4`).
 * Characters are Unicode code points as Python counts them, so an emoji is one, not two.
 */
export function estimateTokens(text: string): number {
  return estimateTokensFromLength(countCodePoints(text));
}

/** The same estimate from a length in code points, for texts known only by their length. */
export function estimateTokensFromLength(codePoints: number): number {
  return Math.floor(codePoints / 4);
}

/** Unicode code points in text (Python's len, Postgres's length): a surrogate pair counts once. */
export function countCodePoints(text: string): number {
  // A loop rather than [...text].length: no array of a million one-character strings for a big prompt.
  let codePoints = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const isHighSurrogate = code >= 0xd800 && code <= 0xdbff;
    if (isHighSurrogate && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    codePoints++;
  }
  return codePoints;
}
