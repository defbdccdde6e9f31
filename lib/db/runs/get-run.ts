import type { Cell, CellCounts, RunSummary } from "@/lib/api/types";
import type { Queryable } from "../database";

/**
 * The cell columns, with the model's output cut to its first outputChars characters when a number
 * is given (a grid shows 200 of them; a run of 40,000 cells of long answers is tens of megabytes
 * in full). output_truncated says whether anything was cut.
 */
function cellColumns(outputChars: number | null = null): string {
  if (outputChars !== null && !(Number.isSafeInteger(outputChars) && outputChars > 0)) {
    throw new Error(`outputChars must be a positive integer, not ${outputChars}`);
  }
  const output =
    outputChars === null
      ? "output_raw, output_parsed, false as output_truncated"
      : `left(output_raw, ${outputChars}) as output_raw, left(output_parsed, ${outputChars}) as output_parsed,
         coalesce(length(output_raw) > ${outputChars} or length(output_parsed) > ${outputChars}, false) as output_truncated`;
  return `id, row_index, column_index, trial, status, ${output}, tokens_in, tokens_out,
  tokens_estimated, latency_ms, cost_usd, finish_reason, error_message, error_code, warnings, attempts, cached,
  grade, manual_grade, seq, updated_at, grader_status, grader_output_raw, grader_error, grader_cost_usd`;
}

interface CellRow {
  id: string; row_index: number; column_index: number; trial: number; status: Cell["status"];
  output_raw: string | null; output_parsed: string | null; output_truncated: boolean; tokens_in: number | null; tokens_out: number | null;
  tokens_estimated: boolean; latency_ms: number | null; cost_usd: number | null; finish_reason: string | null;
  error_message: string | null; error_code: string | null; warnings: string[]; attempts: number; cached: boolean;
  grade: number | null; manual_grade: number | null; seq: number | string; updated_at: Date | string;
  grader_status: Cell["graderStatus"]; grader_output_raw: string | null; grader_error: string | null; grader_cost_usd: number | null;
}

function toCell(row: CellRow): Cell {
  return {
    id: row.id,
    row: row.row_index,
    column: row.column_index,
    trial: row.trial,
    status: row.status,
    output: row.output_raw,
    outputParsed: row.output_parsed,
    outputTruncated: row.output_truncated,
    tokensIn: row.tokens_in,
    tokensOut: row.tokens_out,
    tokensEstimated: row.tokens_estimated,
    latencyMs: row.latency_ms,
    costUsd: row.cost_usd,
    finishReason: row.finish_reason,
    error: row.error_message,
    errorCode: row.error_code,
    warnings: row.warnings ?? [],
    attempts: row.attempts,
    cached: row.cached,
    graderStatus: row.grader_status,
    graderOutput: row.grader_output_raw,
    graderError: row.grader_error,
    graderCostUsd: row.grader_cost_usd,
    grade: row.grade,
    manualGrade: row.manual_grade,
    seq: Number(row.seq),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const emptyCounts = (): CellCounts => ({
  queued: 0, running: 0, ok: 0, warning: 0, error: 0, malformed: 0, skipped: 0, cancelled: 0,
});

const iso = (value: Date | string | null): string | null => (value == null ? null : new Date(value).toISOString());

/** The run without cells, or null when it is not the caller's. */
export async function getRunSummary(tx: Queryable, { id }: { id: string }): Promise<RunSummary | null> {
  const { rows } = await tx.query<{
    id: string; kind: string; status: RunSummary["status"]; text: string | null; prompt_version_id: string | null;
    prompt_id: string | null; dataset_id: string | null; dataset_name: string | null; row_count: number; trials: number; concurrency: number;
    error: string | null; created_at: Date; started_at: Date | null; finished_at: Date | null;
    columns: RunSummary["columns"]; counts: Record<string, number> | null;
    spent_usd: number | null; budget_usd: number | null; budget_mode: RunSummary["budgetMode"];
    prompt_version: number | null; grader_prompt_id: string | null; grader_version_id: string | null; grader_name: string | null;
  }>(
    `select r.id, r.kind, r.status, v.text, v.version as prompt_version, r.grader_prompt_id, r.grader_version_id, gv.name as grader_name,
            r.prompt_version_id, r.prompt_id, r.dataset_id, d.name as dataset_name, r.row_count, r.trials,
            r.concurrency, r.error, r.created_at, r.started_at, r.finished_at, r.budget_usd, r.budget_mode,
            (select coalesce(sum(cost_usd), 0) from run_cells where run_id = r.id) as spent_usd,
            (select coalesce(json_agg(json_build_object('index', c.column_index, 'provider', c.provider,
                    'model', c.model, 'params', c.params) order by c.column_index), '[]')
               from run_columns c where c.run_id = r.id) as columns,
            (select json_object_agg(s.status, s.n)
               from (select status, count(*)::int as n from run_cells where run_id = r.id group by status) s) as counts
       from runs r left join prompt_versions v on v.id = r.prompt_version_id left join datasets d on d.id = r.dataset_id
            left join prompt_versions gv on gv.id = r.grader_version_id
      where r.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    prompt: row.text ?? "",
    promptVersionId: row.prompt_version_id,
    promptId: row.prompt_id,
    promptVersion: row.prompt_version,
    hasGrader: row.grader_version_id !== null,
    graderPromptId: row.grader_prompt_id,
    graderName: row.grader_name,
    datasetId: row.dataset_id,
    datasetName: row.dataset_name,
    columns: row.columns,
    rowCount: row.row_count,
    trials: row.trials,
    concurrency: row.concurrency,
    counts: { ...emptyCounts(), ...(row.counts ?? {}) },
    spentUsd: Number(row.spent_usd ?? 0),
    budgetUsd: row.budget_usd,
    budgetMode: row.budget_mode,
    error: row.error,
    createdAt: iso(row.created_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

/** Cells of a run changed after the cursor seq, oldest change first, at most limit of them. */
export async function listCellChanges(
  tx: Queryable,
  { runId, afterSeq, limit = 1000, outputChars = null }: { runId: string; afterSeq: number; limit?: number; outputChars?: number | null },
): Promise<Cell[]> {
  const { rows } = await tx.query<CellRow>(
    `select ${cellColumns(outputChars)} from run_cells where run_id = $1 and seq > $2 order by seq limit $3`,
    [runId, afterSeq, limit],
  );
  return rows.map(toCell);
}

/**
 * Every cell of a run in grid order, outputs cut to outputChars characters when given. The cells
 * come back as one JSON text: PGlite turns 40,000 rows of this many columns into objects in about
 * twice the time json_agg and JSON.parse take (bench/run-read.ts).
 */
export async function listCells(tx: Queryable, { runId, outputChars = null }: { runId: string; outputChars?: number | null }): Promise<Cell[]> {
  const { rows } = await tx.query<{ cells: string | null }>(
    `select json_agg(c order by c.row_index, c.column_index, c.variant, c.trial)::text as cells
       from (select ${cellColumns(outputChars)}, variant from run_cells where run_id = $1) c`,
    [runId],
  );
  return rows[0]?.cells ? (JSON.parse(rows[0].cells) as CellRow[]).map(toCell) : [];
}

/** One cell of a run, in full; null when there is none (or it is not the caller's). */
export async function getCell(tx: Queryable, { runId, cellId }: { runId: string; cellId: string }): Promise<Cell | null> {
  const { rows } = await tx.query<CellRow>(`select ${cellColumns()} from run_cells where run_id = $1 and id = $2`, [runId, cellId]);
  return rows[0] ? toCell(rows[0]) : null;
}
