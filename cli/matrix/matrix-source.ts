import { unzipSync } from "fflate";
import type { CreateMatrixInput, MatrixDetail, MatrixList, MatrixPlanResponse, MatrixSummary } from "@/lib/api/matrix";
import { loadSecretKey } from "@/lib/auth/secret-box";
import { databaseConfigFromEnv, defaultDataDir } from "@/lib/db/open-database";
import { startWorker } from "@/lib/engine/worker";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createDefaultProviderRegistry } from "@/lib/server/default-registry";
import { createMatrix, getMatrix, listMatrices, matrixZip } from "@/lib/services/matrix";
import { changeRunStatus } from "@/lib/services/runs";
import { CliError, exitCodes } from "../cli-error";
import { callServer, type DataTarget } from "../data-target";
import { preferDotenv, providerVariables } from "../experiments/dotenv-credentials";

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
  const db = await target.open();
  const env = process.env;
  const dataDir = databaseConfigFromEnv(env).dataDir ?? defaultDataDir;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    const providers = createDefaultProviderRegistry({
      db,
      secretKey: loadSecretKey({ env, dataDir }),
      env,
      wrapCredentials: preferDotenv(dotenv),
    });
    worker = await startWorker({
      db,
      providers,
      pollMs: 20,
      maxInFlight: Math.max(16, concurrency),
      // One process per PGlite folder: a cell left running by a process that died (SIGKILL) is
      // nobody's, and is queued again at once instead of after its lease runs out.
      reclaimOnStart: db.kind === "pglite",
      onError: (error) => onWarning(`worker: ${(error as Error).message}`),
    });
  } catch (error) {
    await db.close();
    throw error;
  }
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
    close: async () => {
      await worker.stop({ graceMs: 2_000 });
      await db.close();
    },
  };
}

function serverSource(
  target: Extract<DataTarget, { kind: "server" }>,
  dotenv: Record<string, string>,
  onWarning: (message: string) => void,
): MatrixSource {
  const keyVariables = new Set(Object.values(providerFactories).flatMap((factory) => Object.values(providerVariables(factory)).flat()));
  const notSent = Object.keys(dotenv).filter((name) => keyVariables.has(name));
  if (notSent.length > 0) {
    onWarning(
      `Running on the server at ${target.url}: it uses its own keys; ${notSent.join(", ")} from ./.env or --groq_api_key ${notSent.length === 1 ? "was" : "were"} not sent.`,
    );
  }
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
    files: async (matrixId) => unzipSync(await serverBytes(target, `/api/v1/matrix/${encodeURIComponent(matrixId)}/download.zip`)),
    change: async (matrixId, action) => {
      await callServer(target, `/api/v1/runs/${encodeURIComponent(matrixId)}/${action}`, { method: "POST" });
    },
    describe: `the server at ${target.url}`,
    pollMs: 200,
    close: async () => {},
  };
}

/** A download's bytes exactly as the server sent them; a refusal is a CliError with the server's message. */
async function serverBytes(target: Extract<DataTarget, { kind: "server" }>, path: string): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, { headers: { authorization: `Bearer ${target.token}` } });
  } catch (error) {
    throw new CliError(`Could not reach the server at ${target.url}: ${(error as Error).message}. Is it running?`, exitCodes.unavailable);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (JSON.parse(new TextDecoder().decode(bytes)) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // not JSON: the status says it
    }
    throw new CliError(`The server at ${target.url} answered ${response.status}: ${message}`);
  }
  return bytes;
}
