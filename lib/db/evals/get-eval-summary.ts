import type { EvalSummary } from "@/lib/api/evals";
import type { Queryable } from "../database";
import { EVAL_SUMMARY_COLUMNS, type EvalSummaryRow, toEvalSummary } from "./eval-summary-row";

/** One eval run of the calling user's with its progress, or null. */
export async function getEvalSummary(tx: Queryable, { id }: { id: string }): Promise<EvalSummary | null> {
  const { rows } = await tx.query<EvalSummaryRow>(`select ${EVAL_SUMMARY_COLUMNS} from runs r where r.kind = 'eval' and r.id = $1`, [id]);
  const row = rows[0];
  return row ? toEvalSummary(row) : null;
}
