/**
 * One finished eval of a matrix as every matrix file is written from it: the run file, the batch
 * summary, the comparisons and the index. The engine builds it from a cell; the files are views of it.
 */

import type { InputGrade } from "@/lib/core/matrix/paired-grades";

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
  /** What the batch's grader or metrics said of the output; absent when the batch has neither. */
  grading?: MatrixGrading;
}

/**
 * An eval's grade (a grader: from 0 to 1, pass / fail as 1 / 0) or its metrics' scores and the
 * pass rule's verdict (metrics, in their order). Null where there is none: a failed eval, a
 * grader or judge that failed (error says why).
 */
export type MatrixGrading =
  | { by: "grader"; grade: number | null; error: string | null }
  | { by: "metrics"; metrics: string[]; scores: Record<string, number>; passed: boolean | null; error: string | null };

/** Whether the eval answered. */
export function succeeded(record: MatrixRunRecord): boolean {
  return record.error === null && record.output !== null;
}

/** The record's grade as paired statistics read it, or null when it has none (lib/core/matrix/paired-grades.ts). */
export function inputGrade(record: MatrixRunRecord): InputGrade | null {
  const { grading } = record;
  if (!grading || !succeeded(record)) return null;
  if (grading.by === "grader") return grading.grade === null ? null : { inputId: record.input.id, grade: grading.grade };
  return grading.passed === null ? null : { inputId: record.input.id, passed: grading.passed, scores: grading.scores };
}

/** Whether the eval was paid for at a price nobody knows: it counted tokens, but has no cost. */
export function unpriced(record: MatrixRunRecord): boolean {
  return record.costUsd === null && record.tokens.input !== null && record.tokens.output !== null;
}
