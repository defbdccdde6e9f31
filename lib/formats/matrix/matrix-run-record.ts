/**
 * One finished eval of a matrix as every matrix file is written from it: the run file, the batch
 * summary, the comparisons and the index. The engine builds it from a cell; the files are views of it.
 */

/** One eval's outcome. */
export interface MatrixRunRecord {
  /** `20251227_143500_v1_llama-3.3-70b_tech-talk-01` (lib/core/matrix/ids.ts). */
  runId: string;
  batchId: string;
  /** When the eval started, ISO 8601 to the second. */
  timestamp: string;
  prompt: { version: string; name: string | null };
  /** name as written (llama-3.3-70b); label as comparisons print it (llama-3.3-70b-versatile). */
  model: { name: string; provider: string; model: string; label: string };
  input: { id: string; title: string };
  /** The model's answer as it wrote it; null when the eval failed. */
  output: string | null;
  /** Null when not known (a call that failed before the provider counted). */
  tokens: { input: number | null; output: number | null };
  /** Null when the model has no price or the tokens are unknown: unknown, never $0. */
  costUsd: number | null;
  durationSeconds: number | null;
  /** Why the eval failed; null when it succeeded. */
  error: string | null;
}

/** Whether the eval answered. */
export function succeeded(record: MatrixRunRecord): boolean {
  return record.error === null && record.output !== null;
}

/** Whether the eval was paid for at a price nobody knows: it counted tokens, but has no cost. */
export function unpriced(record: MatrixRunRecord): boolean {
  return record.costUsd === null && record.tokens.input !== null && record.tokens.output !== null;
}
