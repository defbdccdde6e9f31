/**
 * Following a batch until it ends: each finished job reported once (a line each when stderr is
 * not a terminal, a progress line when it is), Ctrl-C or SIGTERM cancelling the batch (status
 * `cancelled`, every output kept) and waiting for its jobs in flight to settle.
 */
import type { BatchDetail, BatchJob, BatchSummary } from "@/lib/api/batches";
import type { BatchSource, StartedBatch } from "./batch-source";

/** How the run is told to the person: every line goes to stderr. */
export interface BatchReporter {
  info(message: string): void;
  warning(message: string): void;
  /** A job that reached success, failed or skipped. */
  job(job: BatchJob): void;
  progress(summary: BatchSummary): void;
  /** The batch with every job, on each read when wantsAllJobs (the live table), else when jobs finished. */
  snapshot?(summary: BatchSummary, jobs: readonly BatchJob[]): void;
  /** Read every job on every poll, not only when the finished count moved (the live table shows running jobs). */
  readonly wantsAllJobs?: boolean;
  done(): void;
}

export interface FollowOutcome {
  summary: BatchSummary;
  /** Ctrl-C or SIGTERM arrived: the batch was cancelled (or the cancel failed, in cancelError). */
  interrupted: boolean;
  cancelError: string | null;
}

const ENDED = new Set(["completed", "failed", "cancelled"]);
const FINISHED_JOB = new Set(["success", "failed", "skipped"]);
/** Jobs read per page of GET /api/v1/batches/{id} (its maximum). */
const PAGE = 1_000;
/** After a cancel, how long jobs in flight may take to settle before the command gives up waiting. */
const CANCEL_WAIT_MS = 15_000;

const finished = (summary: BatchSummary) => summary.counts.success + summary.counts.failed + summary.counts.skipped;

async function allJobs(source: BatchSource, id: string): Promise<BatchDetail> {
  const first = await source.get(id, { offset: 0, limit: PAGE });
  const jobs = [...first.jobs];
  while (jobs.length < first.jobsTotal) {
    const page = await source.get(id, { offset: jobs.length, limit: PAGE });
    if (page.jobs.length === 0) break;
    jobs.push(...page.jobs);
  }
  return { ...first, jobs };
}

/**
 * Reads the batch until it ends. Jobs are listed again only when the finished count moved, and a
 * large batch is read less often (about 0.5 s apart at 10,000 jobs), so following costs little
 * beside running.
 */
export async function followBatch(
  source: BatchSource,
  started: StartedBatch,
  reporter: BatchReporter,
  { stop: stopSignal }: { stop?: AbortSignal } = {},
): Promise<FollowOutcome> {
  const total = started.plan?.jobs ?? 0;
  const pollMs = Math.min(2_000, source.pollMs + Math.floor(total / 20));
  const reported = new Set<string>();
  let lastFinished = -1;
  let interruptedAt: number | null = null;
  let cancelError: string | null = null;
  let endedAt: number | null = null;
  const onInterrupt = () => {
    interruptedAt ??= Date.now();
  };
  // The last word on the batch's files (a server's run.json downloaded) before the outcome.
  const stop = async (outcome: FollowOutcome): Promise<FollowOutcome> => {
    await source.ended?.(started.id);
    return outcome;
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onInterrupt);
  // A stop asked in the live view is Ctrl-C's twin (raw mode turns Ctrl-C into a key).
  stopSignal?.addEventListener("abort", onInterrupt);
  try {
    if (started.requeued !== null) {
      // A resumed batch: what finished before is not news.
      for (const job of (await allJobs(source, started.id)).jobs) if (job.status === "success") reported.add(job.job_id);
    }
    let cancelSent = false;
    for (;;) {
      const head = await source.get(started.id, { offset: 0, limit: 1 });
      let summary = head.batch;
      if (reporter.wantsAllJobs || finished(summary) !== lastFinished || ENDED.has(summary.status) || summary.counts.running > 0) {
        const detail = await allJobs(source, started.id);
        reporter.snapshot?.(detail.batch, detail.jobs);
        summary = detail.batch;
        lastFinished = finished(summary);
        for (const job of detail.jobs) {
          if (!FINISHED_JOB.has(job.status) || reported.has(job.job_id)) continue;
          reported.add(job.job_id);
          if (job.status === "success") await source.jobFinished?.(started.id, job);
          reporter.job(job);
        }
      }
      reporter.progress(summary);
      if (ENDED.has(summary.status)) {
        // A cancelled batch says so at once while its jobs in flight finish (and are saved, images
        // and all): the outcome waits for them, so the counts printed are run.json's last ones.
        endedAt ??= Date.now();
        if (summary.counts.running === 0 || Date.now() - endedAt > CANCEL_WAIT_MS) {
          return await stop({ summary, interrupted: interruptedAt !== null, cancelError });
        }
      }
      if (interruptedAt !== null) {
        if (!cancelSent) {
          cancelSent = true;
          reporter.info("Interrupted: cancelling the batch; jobs in flight finish or stop, every output is kept.");
          try {
            await source.change(started.id, "cancel");
          } catch (error) {
            cancelError = (error as Error).message;
            return await stop({ summary, interrupted: true, cancelError });
          }
        } else if (Date.now() - interruptedAt > CANCEL_WAIT_MS) {
          return await stop({
            summary,
            interrupted: true,
            cancelError: `the batch was still ${summary.status} ${CANCEL_WAIT_MS / 1000} s after the cancel`,
          });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    stopSignal?.removeEventListener("abort", onInterrupt);
    reporter.done();
  }
}

const usd = (n: number) => `$${n.toFixed(n !== 0 && Math.abs(n) < 0.01 ? 4 : 2)}`;

/** A job in one line: its id, status, prompt, provider/model and the parameters that vary, then its files or its error. */
export function jobLine(job: BatchJob): string {
  const params = job.params as Record<string, unknown>;
  const shown = ["size", "seed", "quality"]
    .filter((key) => params[key] !== undefined && params[key] !== null)
    .map((key) => (key === "size" ? String(params[key]) : `${key}=${String(params[key])}`));
  const options = params.provider_options as Record<string, unknown> | undefined;
  if (options && typeof options === "object") {
    for (const [key, value] of Object.entries(options)) shown.push(`${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  const head =
    `${job.job_id} ${job.status.padEnd(7)} ${job.prompt_id} ${String(params.provider)}/${String(params.model)} ${shown.join(" ")}`.trimEnd();
  if (job.status === "success") return `${head} -> ${job.artifacts.image_paths.join(", ")}`;
  if (job.status === "failed") return `${head}: ${job.error ?? "failed"}`;
  if (job.status === "skipped") return `${head}: ${job.warnings.at(-1) ?? job.error ?? "skipped"}`;
  return head;
}

/** The progress line of a terminal: jobs done of all, by status, images, cost and time. */
export function progressLine(summary: BatchSummary): string {
  const c = summary.counts;
  const minutes = Math.floor(summary.elapsedSeconds / 60);
  const seconds = Math.floor(summary.elapsedSeconds % 60);
  const budget = summary.budgetRemainingUsd === null ? "" : `, ${usd(summary.budgetRemainingUsd)} budget left`;
  return (
    `${c.success + c.failed + c.skipped}/${c.total} jobs: ${c.success} success, ${c.failed} failed, ${c.skipped} skipped, ` +
    `${c.running} running | ${summary.images}/${summary.plannedImages} images | ${usd(summary.spentUsd)} spent${budget} | ` +
    `${minutes}:${String(seconds).padStart(2, "0")}${summary.status === "paused" ? " | paused" : ""}`
  );
}

/** Reports to stderr: a line per finished job, or on a terminal one progress line redrawn in place. */
export function consoleBatchReporter({ terminal }: { terminal: boolean }): BatchReporter {
  let shown = false;
  let last = "";
  const clear = () => {
    if (shown) process.stderr.write("\r\u001b[2K");
    shown = false;
  };
  const write = (line: string) => {
    clear();
    process.stderr.write(`${line}\n`);
  };
  return {
    info: (message) => write(`[INFO] ${message}`),
    warning: (message) => write(`[WARNING] ${message}`),
    job: (job) => {
      // On a terminal the progress line carries the counts; a failure is still worth its own line.
      if (!terminal || job.status === "failed") write(jobLine(job));
    },
    progress: (summary) => {
      if (!terminal) return;
      // One screen line at most: a wrapped line would leave its first part behind at each redraw.
      const width = process.stderr.columns || 80;
      const full = progressLine(summary);
      const line = full.length < width ? full : `${full.slice(0, width - 2)}…`;
      if (shown && line === last) return;
      process.stderr.write(`\r\u001b[2K${line}`);
      last = line;
      shown = true;
    },
    done: clear,
  };
}
