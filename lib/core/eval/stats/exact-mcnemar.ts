/**
 * The exact McNemar test: under no difference each discordant pair is equally likely to favour
 * either run, so the smaller count is Binomial(b + c, 1/2); the two-sided p value is twice its
 * lower tail, at most 1. Summed in log space so that thousands of pairs do not underflow 2^-n.
 */
export function exactMcNemarPValue(baselineOnly: number, candidateOnly: number): number {
  const discordant = baselineOnly + candidateOnly;
  if (discordant === 0) return 1;
  const smaller = Math.min(baselineOnly, candidateOnly);
  let logProbability = -discordant * Math.LN2;
  let tail = Math.exp(logProbability);
  for (let k = 0; k < smaller; k += 1) {
    logProbability += Math.log(discordant - k) - Math.log(k + 1);
    tail += Math.exp(logProbability);
  }
  return Math.min(1, 2 * tail);
}
