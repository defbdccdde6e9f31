import { retryDelayMs } from "@/lib/core/backoff";
import { jobId } from "@/lib/core/batch/matrix";
import type { ClaimedCell } from "@/lib/db/cells/claim-cells";
import type { CellResult } from "@/lib/db/cells/save-cell-results";
import type { Database } from "@/lib/db/database";
import { jobIndex, type BatchArtifacts, type BatchConfig } from "@/lib/db/batches/batch-config";
import { getBatchRun } from "@/lib/db/batches/get-batch-run";
import { readBatchArtifacts, recordBatchArtifacts } from "@/lib/db/batches/record-batch-artifacts";
import type { RunSettings } from "@/lib/db/runs/load-run-settings";
import { imageFileName, receiptFileName } from "@/lib/formats/batch/output-file-name";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { imageExtension, imageReceiptFile } from "@/lib/providers/image/receipt";
import type { ImageProviderRegistry } from "@/lib/providers/image/registry";
import type { ImageOutputFormat } from "@/lib/providers/image/types";
import { isProviderError, ProviderError } from "@/lib/providers/provider-error";
import { findLeftoverFiles, removeFiles, writeNewFile } from "./batch-files";
import { rewriteBatchManifest } from "./batch-manifest";

/** What executing batch cells needs: dependencies as arguments (STYLE.md), the clock and the image providers among them. */
export interface BatchExecutorDeps {
  db: Database;
  imageProviders: ImageProviderRegistry;
  /** Milliseconds for latencies (performance.now by default in the worker). */
  now: () => number;
  /** The wall clock that stamps file names. */
  clock?: () => Date;
  random: () => number;
  stopSignal: AbortSignal;
  onError: (error: unknown) => void;
}

/** Executes a worker's batch cells and keeps each run's run.json in step with its saved results. */
export interface BatchExecutor {
  execute(settings: RunSettings, cell: ClaimedCell): Promise<CellResult>;
  /** After results of these runs were saved: rewrite the run.json of those that are batches whose cells this worker ran. */
  saved(runIds: Iterable<string>): Promise<void>;
  /** After these runs ended (completed): rewrite the run.json of those that are batches, whoever ran their cells. */
  ended(runIds: Iterable<string>): Promise<void>;
}

/**
 * One batch job (specs/image-batch-runs.md): the image provider called with the job's
 * parameters, each image written with the spec's file name and its receipt beside it (no key in
 * it), the files recorded on the cell, then the result handed to the worker to save; run.json is
 * rewritten from the database after each save (saved()).
 *
 * Never an image twice for one job: a cell whose artifacts are recorded is done (a worker killed
 * after recording them is not called again); files of a job left by a killed attempt before it
 * recorded them are reused when whole and deleted otherwise (batch-files.ts findLeftoverFiles);
 * files are written before the cell is marked done. One retry for a transient error (429, 5xx,
 * timeouts, network), after the backoff and the Retry-After the provider asked for.
 */
export function createBatchExecutor(deps: BatchExecutorDeps): BatchExecutor {
  const clock = deps.clock ?? (() => new Date());
  const configs = new Map<string, Promise<BatchConfig>>();
  const batchRuns = new Set<string>();

  function configOf(runId: string): Promise<BatchConfig> {
    let config = configs.get(runId);
    if (!config) {
      config = getBatchRun(deps.db, { id: runId }).then((stored) => {
        if (!stored) throw new Error(`Batch run ${runId} vanished while its cells were claimed`);
        return stored.config;
      });
      config.catch(() => configs.delete(runId));
      if (configs.size > 100) configs.clear();
      configs.set(runId, config);
    }
    return config;
  }

  async function execute(settings: RunSettings, cell: ClaimedCell): Promise<CellResult> {
    batchRuns.add(cell.runId);
    const config = await configOf(cell.runId);
    const id = jobId(jobIndex(config, cell) + 1);
    const params = cell.params as Record<string, unknown> & { n?: number; provider_options?: Record<string, unknown> };
    const n = typeof params.n === "number" && params.n > 0 ? params.n : 1;
    const estimate = config.estimates[cell.columnIndex] ?? null;
    const base = { id: cell.id, runId: cell.runId, provider: cell.provider, model: cell.model };
    const done = (artifacts: BatchArtifacts, warnings: string[], latencyMs: number | null): CellResult => ({
      ...base,
      status: warnings.length > 0 ? "warning" : "ok",
      // Counted against the budget: what the provider said it charged, else the reference estimate.
      costUsd: artifacts.actual_cost_usd ?? estimate,
      latencyMs,
      warnings,
      outputRaw: artifacts.image_paths.join("\n"),
    });

    // Recorded by an earlier claim whose worker died before saving the result: done, not called again.
    const recorded = await readBatchArtifacts(deps.db, { cellId: cell.id });
    if (recorded && recorded.image_paths.length > 0) return done(recorded, [], null);
    if (cell.attempts > settings.maxAttempts) {
      // Claimed again after its worker vanished one time too many (lease expiries count as attempts).
      return { ...base, status: "error", errorCode: "server", errorMessage: `Gave up after ${settings.maxAttempts} attempts.` };
    }
    const leftovers = findLeftoverFiles(config.outDir, { provider: cell.provider, jobId: id, n });
    removeFiles(config.outDir, leftovers.stray);
    if (leftovers.complete) {
      const artifacts: BatchArtifacts = {
        image_paths: leftovers.complete.imagePaths,
        receipt_paths: leftovers.complete.receiptPaths,
        actual_cost_usd: leftovers.complete.costUsd,
      };
      if (!(await recordBatchArtifacts(deps.db, { cellId: cell.id, attempts: cell.attempts, artifacts }))) return lost(base);
      return done(artifacts, leftovers.complete.warnings, null);
    }

    const started = deps.now();
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    try {
      const provider = await deps.imageProviders.resolve({ provider: cell.provider, userId: settings.userId });
      const options = { ...(params.provider_options ?? {}) };
      const result = await provider.generate({
        model: cell.model,
        prompt: String(cell.variables.prompt ?? ""),
        size: text(params.size),
        quality: text(params.quality),
        n,
        seed: typeof params.seed === "number" ? params.seed : null,
        outputFormat: format(params.output_format),
        background: text(params.background),
        providerOptions: options,
        timeoutMs: settings.timeoutMs,
        signal: AbortSignal.any([timeout, deps.stopSignal]),
      });
      // Written and recorded even when the worker is stopping: the call is paid, and the next claim reuses them.
      const at = clock();
      const imagePaths: string[] = [];
      const receiptPaths: string[] = [];
      result.images.forEach((image, index) => {
        const name = writeNewFile(
          config.outDir,
          imageFileName({ provider: cell.provider, at, jobId: id, index, format: imageExtension(image.mediaType) }),
          image.data,
        );
        // The receipt follows its image: a receipt on disk vouches for a whole image (findLeftoverFiles).
        const receipt = writeNewFile(
          config.outDir,
          receiptFileName(name),
          Buffer.from(`${JSON.stringify(imageReceiptFile(result, index), null, 2)}\n`, "utf8"),
        );
        imagePaths.push(name);
        receiptPaths.push(receipt);
      });
      const artifacts: BatchArtifacts = { image_paths: imagePaths, receipt_paths: receiptPaths, actual_cost_usd: result.receipt.costUsd };
      if (!(await recordBatchArtifacts(deps.db, { cellId: cell.id, attempts: cell.attempts, artifacts }))) {
        // Another worker took the cell (our lease expired): its files are the job's, ours go.
        removeFiles(config.outDir, [...imagePaths, ...receiptPaths]);
        return lost(base);
      }
      return done(artifacts, result.warnings, deps.now() - started);
    } catch (caught) {
      const error = asProviderError(caught, { timedOut: timeout.aborted, timeoutMs: settings.timeoutMs });
      const latencyMs = deps.now() - started;
      const kind = imageErrorKind(error) ?? error.code;
      const message = `${kind}: ${error.message}`;
      if (error.retryable && cell.attempts < settings.maxAttempts) {
        const delay = retryDelayMs({ attempt: cell.attempts, retryAfterMs: error.retryAfterMs, random: deps.random });
        return { ...base, status: "queued", retryDelayMs: delay, latencyMs, errorCode: kind, errorMessage: message };
      }
      return { ...base, status: "error", latencyMs, errorCode: kind, errorMessage: message };
    }
  }

  async function saved(runIds: Iterable<string>): Promise<void> {
    const writes = [...new Set(runIds)]
      .filter((runId) => batchRuns.has(runId))
      .map((runId) => rewriteBatchManifest(deps.db, runId).catch(deps.onError));
    await Promise.all(writes);
  }

  async function ended(runIds: Iterable<string>): Promise<void> {
    // A batch whose every job was skipped at creation ends without a cell run: one look-up per
    // ended run (rewriteBatchManifest reads nothing more for a run of another kind).
    await Promise.all([...new Set(runIds)].map((runId) => rewriteBatchManifest(deps.db, runId).catch(deps.onError)));
  }

  return { execute, saved, ended };
}

/** A result the worker will not save (its cell is another worker's now); it says why if it ever shows. */
function lost(base: { id: string; runId: string; provider: string; model: string }): CellResult {
  return { ...base, status: "error", errorCode: "internal", errorMessage: "This claim of the job was lost to another worker." };
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
}

function format(value: unknown): ImageOutputFormat | null {
  if (value === "jpg") return "jpeg";
  return value === "png" || value === "jpeg" || value === "webp" ? value : null;
}

function asProviderError(caught: unknown, context: { timedOut: boolean; timeoutMs: number }): ProviderError {
  if (context.timedOut) {
    return new ProviderError({ code: "timeout", message: `No answer within ${context.timeoutMs / 1000} s.`, cause: caught });
  }
  if (isProviderError(caught)) return caught;
  throw caught;
}
