/**
 * Two runs' pass/fail on the same cases as a paired 2x2 table: both passed, only the baseline,
 * only the candidate, neither (Newcombe's a, b, c, d with the baseline as the first measurement).
 */
export type PairedTable = {
  bothPassed: number;
  baselineOnly: number;
  candidateOnly: number;
  neitherPassed: number;
};

/** Counts the pairs of a paired table. */
export function pairedTable(pairs: ReadonlyArray<{ baseline: boolean; candidate: boolean }>): PairedTable {
  const table: PairedTable = { bothPassed: 0, baselineOnly: 0, candidateOnly: 0, neitherPassed: 0 };
  for (const { baseline, candidate } of pairs) {
    if (baseline && candidate) table.bothPassed += 1;
    else if (baseline) table.baselineOnly += 1;
    else if (candidate) table.candidateOnly += 1;
    else table.neitherPassed += 1;
  }
  return table;
}
