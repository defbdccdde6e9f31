import type { RunExport } from "@/lib/api/responses";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getDatasetItem } from "@/lib/db/datasets/get-dataset-item";
import { writeCsv, type CsvValue } from "@/lib/formats/write-csv";
import { getRun } from "./runs";

/** A run export, ready for fileResponse. */
export type RunExportFile = { body: string; filename: string; contentType: string };

/** The CSV's fixed columns, in order; the dataset's columns follow as input.<name>. */
const CSV_COLUMNS = [
  "row",
  "column",
  "provider",
  "model",
  "trial",
  "status",
  "output",
  "output_parsed",
  "error",
  "error_code",
  "tokens_in",
  "tokens_out",
  "latency_ms",
  "cost_usd",
  "grader_cost_usd",
  "grader_status",
  "grader_output",
  "grader_error",
  "grade",
  "manual_grade",
] as const;

/**
 * Every cell of userId's run, with whole outputs, the row it was given, grades by hand and by the
 * grader, the grader's output and both costs, as JSON or as CSV. The CSV is for spreadsheets, so
 * text a spreadsheet would run as a formula (a model's "=HYPERLINK(...)") is neutralised; the JSON
 * is verbatim. Rows and columns count from 1 in the files, as the grid shows them.
 */
export async function exportRun(
  app: { db: Database },
  { userId, runId, format }: { userId: string; runId: string; format: "csv" | "json" },
): Promise<RunExportFile> {
  const content = await runExport(app, { userId, runId });
  const filename = `run-${runId.slice(0, 8)}.${format}`;
  if (format === "json") {
    return { body: JSON.stringify(content, null, 2) + "\n", filename, contentType: "application/json; charset=utf-8" };
  }
  const datasetId = content.run.datasetId;
  const dataset = datasetId ? await asUser(app.db, userId, (tx) => getDatasetItem(tx, { id: datasetId })) : null;
  return { body: runExportCsv(content, dataset?.headers ?? []), filename, contentType: "text/csv; charset=utf-8" };
}

/** The export's content: the run's summary and one entry per cell in grid order. */
export async function runExport(app: { db: Database }, { userId, runId }: { userId: string; runId: string }): Promise<RunExport> {
  const run = await getRun(app, { userId, runId });
  const columns = new Map(run.columns.map((column) => [column.index, column]));
  return {
    run: {
      id: run.id,
      status: run.status,
      prompt: run.prompt,
      promptVersion: run.promptVersion,
      graderName: run.graderName,
      datasetId: run.datasetId,
      datasetName: run.datasetName,
      columns: run.columns,
      rowCount: run.rowCount,
      spentUsd: run.spentUsd,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
    },
    cells: run.cells.map((cell) => ({
      row: cell.row + 1,
      column: cell.column + 1,
      provider: columns.get(cell.column)?.provider ?? "",
      model: columns.get(cell.column)?.model ?? "",
      trial: cell.trial + 1,
      input: run.rows[cell.row] ?? {},
      status: cell.status,
      output: cell.output,
      outputParsed: cell.outputParsed,
      error: cell.error,
      errorCode: cell.errorCode,
      tokensIn: cell.tokensIn,
      tokensOut: cell.tokensOut,
      latencyMs: cell.latencyMs,
      costUsd: cell.costUsd,
      graderCostUsd: cell.graderCostUsd,
      graderStatus: cell.graderStatus,
      graderOutput: cell.graderOutput,
      graderError: cell.graderError,
      grade: cell.grade,
      manualGrade: cell.manualGrade,
    })),
  };
}

function runExportCsv({ cells }: RunExport, headers: string[]): string {
  // The dataset's own column order (stored rows are JSON objects, whose keys Postgres reorders),
  // then any name a row has that the headers do not.
  const inputNames = [...new Set([...headers, ...cells.flatMap((cell) => Object.keys(cell.input))])];
  const header = [...CSV_COLUMNS, ...inputNames.map((name) => `input.${name}`)];
  const records = cells.map((cell): CsvValue[] => [
    cell.row,
    cell.column,
    cell.provider,
    cell.model,
    cell.trial,
    cell.status,
    cell.output,
    cell.outputParsed,
    cell.error,
    cell.errorCode,
    cell.tokensIn,
    cell.tokensOut,
    cell.latencyMs,
    cell.costUsd,
    cell.graderCostUsd,
    cell.graderStatus,
    cell.graderOutput,
    cell.graderError,
    cell.grade,
    cell.manualGrade,
    ...inputNames.map((name) => cell.input[name] ?? ""),
  ]);
  return writeCsv([header, ...records], { neutraliseFormulas: true });
}
