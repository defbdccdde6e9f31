/** Which rows a model's own tokenizer counts, and whether they are all of them. */
export interface TokenizerSample {
  rowIndexes: number[];
  /** True when every row is in the sample: the count is the tokenizer's, not scaled from a sample. */
  complete: boolean;
}

/**
 * The rows to run a real tokenizer over, from each row's rendered length: all of them when there
 * are at most maxRows and they are at most maxChars together; otherwise up to maxRows spread
 * evenly over the run, skipping any that would take the sample past maxChars. A local
 * tokenizer takes about a second per few MB here, so the planner never tokenizes a whole
 * 6 GB run; the sample's ratio of real to estimated tokens scales the estimate of the rest.
 */
export function chooseTokenizerSample(
  rowLengths: ArrayLike<number>,
  { maxRows, maxChars }: { maxRows: number; maxChars: number },
): TokenizerSample {
  let total = 0;
  for (let index = 0; index < rowLengths.length && total <= maxChars; index++) total += rowLengths[index];
  if (rowLengths.length <= maxRows && total <= maxChars) {
    return { rowIndexes: Array.from({ length: rowLengths.length }, (_, index) => index), complete: true };
  }
  const rowIndexes: number[] = [];
  let chars = 0;
  const step = Math.max(1, rowLengths.length / maxRows);
  for (let k = 0; k < Math.min(maxRows, rowLengths.length); k++) {
    const index = Math.floor(k * step);
    if (chars + rowLengths[index] > maxChars) continue;
    chars += rowLengths[index];
    rowIndexes.push(index);
  }
  return { rowIndexes, complete: false };
}
