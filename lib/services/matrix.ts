import type { CreateMatrixInput, CreateMatrixOutput, MatrixDetail, MatrixEval } from "@/lib/api/matrix";
import { runId } from "@/lib/core/matrix/ids";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { getMatrixRun, type StoredMatrixRun } from "@/lib/db/matrix/get-matrix-run";
import { listMatrixCells, type MatrixCell } from "@/lib/db/matrix/list-matrix-cells";
import { createMatrix as createMatrixRun, dryRunMatrix, toMatrixSummary } from "@/lib/engine/create-matrix";
import { NotFoundError } from "@/lib/engine/errors";
import type { RunLimits } from "@/lib/engine/run-limits";

/** Creates a matrix run of userId's, or with dryRun answers its plan and stores nothing. */
export async function createMatrix(
  deps: { db: Database; limits?: RunLimits; now?: () => Date },
  { userId, input }: { userId: string; input: CreateMatrixInput },
): Promise<CreateMatrixOutput> {
  if (input.dryRun) return { dryRun: true, plan: await dryRunMatrix(deps, { userId, input }) };
  return { matrix: await createMatrixRun(deps, { userId, input }) };
}

/** A matrix run of userId's with its cells, or a 404 (another user's run is not there for them). */
async function loadMatrix(db: Database, { userId, matrixId }: { userId: string; matrixId: string }) {
  return asUser(db, userId, async (tx) => {
    const stored = await getMatrixRun(tx, { id: matrixId });
    if (!stored) throw new NotFoundError(`Matrix ${matrixId} not found.`);
    return { stored, cells: await listMatrixCells(tx, { runId: matrixId }) };
  });
}

/** One matrix run of userId's: its summary and every eval of its grid, prompt by prompt, model by model, input by input. */
export async function getMatrix(
  { db }: { db: Database },
  { userId, matrixId }: { userId: string; matrixId: string },
): Promise<MatrixDetail> {
  const { stored, cells } = await loadMatrix(db, { userId, matrixId });
  return { matrix: toMatrixSummary(stored), evals: cells.map((cell) => toEval(stored, cell)), comparisons: [] };
}

/** The spec's run id of one eval, once it started (the id carries its start time). */
function evalRunId(stored: StoredMatrixRun, cell: MatrixCell): string | null {
  if (cell.startedAt === null) return null;
  const { plan } = stored;
  return runId({
    startedAt: new Date(cell.startedAt),
    promptVersion: plan.prompts[cell.variant].version,
    model: plan.models[cell.columnIndex].name,
    inputId: plan.inputs[cell.rowIndex].id,
  });
}

function toEval(stored: StoredMatrixRun, cell: MatrixCell): MatrixEval {
  const { plan } = stored;
  const failed = cell.status === "error" || cell.status === "cancelled" || cell.status === "skipped" || cell.status === "malformed";
  return {
    runId: evalRunId(stored, cell),
    prompt: plan.prompts[cell.variant].version,
    model: plan.models[cell.columnIndex].name,
    input: plan.inputs[cell.rowIndex].id,
    status: cell.status,
    output: cell.outputRaw,
    error: failed ? (cell.errorMessage ?? (cell.status === "cancelled" ? "Cancelled before it ran" : "Failed")) : null,
    tokensInput: cell.tokensIn,
    tokensOutput: cell.tokensOut,
    costUsd: cell.costUsd,
    durationSeconds: cell.latencyMs === null ? null : cell.latencyMs / 1000,
  };
}
