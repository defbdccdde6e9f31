import type { MatrixDetail, MatrixEval } from "@/lib/api/matrix";
import { CliError, exitCodes } from "../cli-error";
import { writeRunFiles } from "./batch-folder";
import type { MatrixSource } from "./matrix-source";

/** How a batch is told to the person as it runs: every line goes to stderr. */
export interface MatrixReporter {
  info(message: string): void;
  warning(message: string): void;
  /** An eval that started: the spec's "Running 3/12: v2 + mixtral + interview-02". */
  started(position: number, total: number, item: MatrixEval): void;
  /** An eval that finished (a line with --verbose); finished of total are done. */
  finished(item: MatrixEval, finished: number, total: number): void;
  done(): void;
}

/** A run's statuses after which nothing of it runs any more. */
const endedStatuses = new Set(["completed", "failed", "cancelled"]);

function finishedEval(item: MatrixEval): boolean {
  return item.status !== "queued" && item.status !== "running";
}

function keyOf(item: MatrixEval): string {
  return JSON.stringify([item.prompt, item.model, item.input]);
}

/**
 * Follows a matrix until its run ends, telling each eval as it starts and finishes, and writing
 * runs/{run_id}.json of each eval as it finishes (from the API's zip, so byte for byte the
 * download). Evals that had finished before (a resumed batch) are counted, not told again.
 * SIGINT or SIGTERM pauses the batch, so no worker calls a model for it until --resume, and ends
 * with exit 130 once the finished evals' files are written.
 */
export async function followMatrix(
  source: MatrixSource,
  {
    matrixId,
    batchId,
    dataDir,
    reporter,
    writtenRuns,
  }: { matrixId: string; batchId: string; dataDir: string; reporter: MatrixReporter; writtenRuns: Set<string> },
): Promise<MatrixDetail> {
  const started = new Set<string>();
  const finished = new Set<string>();
  let first = true;
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
  };
  process.once("SIGINT", onInterrupt);
  process.once("SIGTERM", onInterrupt);
  let filesDue = false;
  let filesAt = 0;
  try {
    for (;;) {
      const detail = await source.get(matrixId);
      const total = detail.evals.length;
      // The zip holds every finished eval and its comparisons: a large batch is read less often
      // (1 s apart at 1,000 evals), so writing its files never costs more than running it.
      const filesEveryMs = Math.min(5_000, 100 + total);
      if (first) {
        const done = detail.evals.filter(finishedEval);
        for (const item of done) {
          started.add(keyOf(item));
          finished.add(keyOf(item));
        }
        if (done.length > 0) reporter.info(`Batch ${batchId}: ${done.length} of ${total} evals had finished; they are not run again.`);
        filesDue = done.length > 0;
        first = false;
      }
      for (const item of detail.evals) {
        const key = keyOf(item);
        if (item.status !== "queued" && !started.has(key)) {
          started.add(key);
          reporter.started(started.size, total, item);
        }
        if (finishedEval(item) && !finished.has(key)) {
          finished.add(key);
          filesDue = true;
          reporter.finished(item, finished.size, total);
        }
      }
      const ended = endedStatuses.has(detail.matrix.status);
      if (ended || interrupted || detail.matrix.status === "paused") {
        return await stop(source, { detail, batchId, dataDir, reporter, writtenRuns, interrupted, filesDue });
      }
      if (filesDue && Date.now() - filesAt >= filesEveryMs) {
        writeRunFiles(dataDir, await source.files(matrixId), writtenRuns);
        filesDue = false;
        filesAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, source.pollMs + Math.floor(total / 20))));
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    reporter.done();
  }
}

async function stop(
  source: MatrixSource,
  {
    detail,
    batchId,
    dataDir,
    reporter,
    writtenRuns,
    interrupted,
    filesDue,
  }: {
    detail: MatrixDetail;
    batchId: string;
    dataDir: string;
    reporter: MatrixReporter;
    writtenRuns: Set<string>;
    interrupted: boolean;
    filesDue: boolean;
  },
): Promise<MatrixDetail> {
  const matrixId = detail.matrix.id;
  if (endedStatuses.has(detail.matrix.status)) return detail;
  const done = detail.evals.filter(finishedEval).length;
  const total = detail.evals.length;
  let paused = "is paused";
  if (interrupted && detail.matrix.status !== "paused") {
    // Paused, so that no worker (this one stopping, or the app's later) goes on calling models for it.
    try {
      await source.change(matrixId, "pause");
    } catch (error) {
      paused = `could not be paused (${(error as Error).message}); a worker may finish it`;
    }
  }
  if (filesDue) {
    try {
      writeRunFiles(dataDir, await source.files(matrixId), writtenRuns);
    } catch (error) {
      reporter.warning(`The finished evals' run files could not be written: ${(error as Error).message}`);
    }
  }
  const resume = `parallaxr matrix --resume ${batchId} finishes it without running the finished evals again`;
  if (interrupted) {
    throw new CliError(
      `Interrupted: ${done} of ${total} evals had finished (their run files are in ${dataDir}/runs). The batch ${batchId} ${paused}; ${resume}.`,
      exitCodes.interrupted,
    );
  }
  throw new CliError(`The batch ${batchId} was paused (in the app or through the API) after ${done} of ${total} evals; ${resume}.`);
}
