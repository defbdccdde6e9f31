import { unzipSync } from "fflate";
import type { CreateMatrixInput, MatrixDetail, MatrixList, MatrixPlanResponse, MatrixSummary } from "@/lib/api/matrix";
import { createMatrix, getMatrix, listMatrices, matrixZip } from "@/lib/services/matrix";
import { changeRunStatus } from "@/lib/services/runs";
import { callServer, type DataTarget } from "../data-target";
import { startLocalEngine } from "../local-engine";
import { downloadFromServer, warnKeysNotSent } from "../server-files";

/**
 * Where `parallaxr matrix` makes and follows its batch: the service functions the API's routes
 * call (on the data folder, with a worker in this process), or those routes on a server. Either
 * way the batch's files come from the same zip the API downloads (matrixZip), byte for byte.
 */
export interface MatrixSource {
  /** The plan and estimate of a matrix (a dry run): nothing stored, nothing sent. */
  plan(input: CreateMatrixInput): Promise<MatrixPlanResponse>;
  create(input: CreateMatrixInput): Promise<MatrixSummary>;
  /** The newest matrix of a batch id, or null (what --resume names). */
  findBatch(batchId: string): Promise<MatrixSummary | null>;
  get(matrixId: string): Promise<MatrixDetail>;
  /** The batch folder's files as the API's download.zip holds them, path -> bytes. */
  files(matrixId: string): Promise<Record<string, Uint8Array>>;
  /** Pauses (Ctrl-C: nothing more is called until --resume) or resumes the batch's run. */
  change(matrixId: string, action: "pause" | "resume"): Promise<void>;
  /** Where it runs, for messages. */
  readonly describe: string;
  /** How often following the batch reads it again, in milliseconds. */
  readonly pollMs: number;
  close(): Promise<void>;
}

/** Opens the target: the database with a worker that runs the batch's cells, or a server's API. */
export async function openMatrixSource(
  target: DataTarget,
  { dotenv, concurrency, onWarning }: { dotenv: Record<string, string>; concurrency: number; onWarning: (message: string) => void },
): Promise<MatrixSource> {
  if (target.kind === "server") return serverSource(target, dotenv, onWarning);
  const { db, close } = await startLocalEngine(target, { dotenv, concurrency, onWarning });
  const userId = target.userId;
  return {
    plan: async (input) => {
      const answer = await createMatrix({ db }, { userId, input: { ...input, dryRun: true } });
      if (!("plan" in answer)) throw new Error("A dry run answered a matrix.");
      return answer.plan;
    },
    create: async (input) => {
      const answer = await createMatrix({ db }, { userId, input: { ...input, dryRun: false } });
      if (!("matrix" in answer)) throw new Error("A matrix run answered a plan.");
      return answer.matrix;
    },
    findBatch: async (batchId) => (await listMatrices({ db }, { userId, batchId, limit: 1 })).matrices[0] ?? null,
    get: (matrixId) => getMatrix({ db }, { userId, matrixId }),
    files: async (matrixId) => unzipSync((await matrixZip({ db }, { userId, matrixId })).bytes),
    change: async (matrixId, action) => {
      await changeRunStatus({ db }, { userId, runId: matrixId, action });
    },
    describe: target.describe,
    pollMs: 50,
    close,
  };
}

function serverSource(
  target: Extract<DataTarget, { kind: "server" }>,
  dotenv: Record<string, string>,
  onWarning: (message: string) => void,
): MatrixSource {
  warnKeysNotSent(target, dotenv, onWarning, { source: "./.env or --groq_api_key" });
  return {
    plan: async (input) => {
      const answer = await callServer<{ plan: MatrixPlanResponse }>(target, "/api/v1/matrix", {
        method: "POST",
        body: { ...input, dryRun: true },
      });
      return answer.plan;
    },
    create: async (input) =>
      (await callServer<{ matrix: MatrixSummary }>(target, "/api/v1/matrix", { method: "POST", body: { ...input, dryRun: false } })).matrix,
    findBatch: async (batchId) =>
      (await callServer<MatrixList>(target, `/api/v1/matrix?batchId=${encodeURIComponent(batchId)}&limit=1`)).matrices[0] ?? null,
    get: (matrixId) => callServer<MatrixDetail>(target, `/api/v1/matrix/${encodeURIComponent(matrixId)}`),
    files: async (matrixId) =>
      unzipSync((await downloadFromServer(target, `/api/v1/matrix/${encodeURIComponent(matrixId)}/download.zip`)).bytes),
    change: async (matrixId, action) => {
      await callServer(target, `/api/v1/runs/${encodeURIComponent(matrixId)}/${action}`, { method: "POST" });
    },
    describe: `the server at ${target.url}`,
    pollMs: 200,
    close: async () => {},
  };
}
