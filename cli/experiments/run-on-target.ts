import type { CreateExperimentInput, Experiment, ExperimentPlan, ExperimentRow, ExperimentSummary } from "@/lib/api/experiments";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import { listExperimentRows } from "@/lib/db/experiments/list-experiment-rows";
import { getExperimentSummary } from "@/lib/db/experiments/list-experiments";
import { experimentInputHash, finishStreamedPlanning, startExperiment } from "@/lib/engine/create-experiment";
import { experimentOutputRecord } from "@/lib/formats/experiment-output";
import type { ExperimentsTable } from "@/lib/formats/read-experiments-csv";
import { createExperiment, listExperiments } from "@/lib/services/experiments";
import { CliError, exitCodes } from "../cli-error";
import { callServer, type DataTarget } from "../data-target";
import { startLocalEngine } from "../local-engine";
import { warnKeysNotSent } from "../server-files";
import { OutputAppender, type ExistingOutput } from "./output-file";

/** How the run is told to the person (stderr). */
export interface RunReporter {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  started(number: number, row: { provider: string; model: string }): void;
  completed(number: number, status: string): void;
  progress(counts: { ok: number; warning: number; error: number }): void;
  done(): void;
}

/** What one `parallaxr run` asks of its target. */
export interface RunRequest {
  input: CreateExperimentInput;
  table: ExperimentsTable;
  dotenv: Record<string, string>;
  reporter: RunReporter;
  output: { file: string; existing: ExistingOutput };
  resume: boolean;
}

// How often a follower asks a server for finished rows: a row's line is written at most this late.
const serverPollMs = 15;

/** Plans an experiment (the --dry-run) on the target; nothing is sent to a model. */
export async function planOnTarget(target: DataTarget, input: CreateExperimentInput): Promise<ExperimentPlan> {
  if (target.kind === "server") {
    const answer = await callServer<{ plan: ExperimentPlan }>(target, "/api/v1/experiments", {
      method: "POST",
      body: { ...input, dryRun: true },
    });
    return answer.plan;
  }
  const db = await target.open();
  try {
    const answer = await createExperiment({ db }, { userId: target.userId, input: { ...input, dryRun: true } });
    if (!("plan" in answer)) throw new Error("A dry run answered without a plan");
    return answer.plan;
  } finally {
    await db.close();
  }
}

/**
 * Runs the experiment on the target and appends each finished row to the output file in input
 * order. On the data folder it opens the database, starts a worker in this process and follows
 * the run; through a server it submits over the REST API and follows the run there. With resume,
 * the latest unfinished run made from the same files and options is continued instead of a new
 * one being made, so a row it finished is written from what was stored, never called again.
 */
export async function runOnTarget(target: DataTarget, request: RunRequest): Promise<void> {
  if (target.kind === "server") return runOnServer(target, request);
  const userId = target.userId;
  let resumed: ExperimentSummary | null = null;
  const { db, close, saves, savedSince, callStarted } = await startLocalEngine(target, {
    dotenv: request.dotenv,
    concurrency: request.input.concurrency,
    onWarning: (message) => request.reporter.error(message),
    // Before the worker starts: a run to continue that a killed process was still adding rows to
    // gets the rest now (the worker would otherwise fail it as a dead planner's).
    prepare: async (db) => {
      if (!request.resume) return;
      resumed = resumable(await listExperiments({ db }, { userId, inputHash: experimentInputHash(request.input) }), request);
      if (resumed) await finishStreamedPlanning({ db }, { userId, input: request.input, runId: resumed.id });
    },
  });
  // The rows still being added behind the first ones (startExperiment): the database closes after
  // them. A follow that ends before they are all in (interrupted, or the run failed) stops adding.
  let planned: Promise<void> | null = null;
  const stopPlanning = new AbortController();
  try {
    let seen = 0;
    const made = resumed ? null : await created(db, userId, request, { restAfter: callStarted(1_000), stop: stopPlanning.signal });
    planned = made?.planned ?? null;
    const experiment = resumed || made!.experiment;
    // A run made now has nothing to read before the worker's first results: the first read waits
    // for them, so it does not queue on the database before the first claim.
    let firstRead = resumed ? null : savedSince(0, 1_000);
    await follow(request, experiment, {
      // Read again when the worker has written results since the last read began (at most a
      // second apart: a run another process finishes or cancels is seen too).
      read: async (fromRow, limit) => {
        if (firstRead) await firstRead;
        firstRead = null;
        seen = saves();
        return asUser(db, userId, async (tx) => {
          const summary = await getExperimentSummary(tx, { id: experiment.id });
          const rows = await listExperimentRows(tx, { runId: experiment.id, columns: experiment.columns, fromRow: fromRow - 1, limit });
          return { status: summary?.status ?? "failed", rows };
        });
      },
      wait: () => savedSince(seen, 1_000),
    });
  } finally {
    stopPlanning.abort();
    await planned?.catch(() => {});
    await close();
  }
}

/**
 * The experiment made in this process: its first rows are queued at once and the rest follow once
 * the worker's first calls are out (startExperiment), so those calls wait for no other row. A failure to add
 * the rest fails the run (the follower then stops) and is reported here with its reason.
 */
async function created(
  db: Database,
  userId: string,
  request: RunRequest,
  { restAfter, stop }: { restAfter: Promise<void>; stop: AbortSignal },
): Promise<{ experiment: ExperimentSummary; planned: Promise<void> }> {
  const firstRows = Math.max(16, 4 * request.input.concurrency);
  const { experiment, planned } = await startExperiment({ db }, { userId, input: request.input, firstRows, restAfter, stop });
  return {
    experiment,
    planned: planned.catch((error: unknown) => {
      request.reporter.error(`Queuing the experiments after the first ${firstRows} failed: ${(error as Error).message}`);
    }),
  };
}

/** The run --resume continues: the newest made from the same input that has not failed and covers the next row. */
function resumable({ experiments }: { experiments: ExperimentSummary[] }, request: RunRequest): ExperimentSummary | null {
  const found = experiments.find(
    (entry) => entry.status !== "failed" && entry.status !== "cancelled" && entry.fromRow <= request.input.fromRow,
  );
  if (found) request.reporter.info(`Continuing the interrupted run ${found.id} (started ${found.createdAt})`);
  return found ?? null;
}

async function runOnServer(target: Extract<DataTarget, { kind: "server" }>, request: RunRequest): Promise<void> {
  warnKeysNotSent(target, request.dotenv, (message) => request.reporter.warning(message));
  let experiment: ExperimentSummary | null = null;
  if (request.resume) {
    const inputHash = experimentInputHash(request.input);
    experiment = resumable(
      await callServer<{ experiments: ExperimentSummary[] }>(target, `/api/v1/experiments?inputHash=${inputHash}`),
      request,
    );
  }
  experiment ??= (
    await callServer<{ experiment: ExperimentSummary }>(target, "/api/v1/experiments", { method: "POST", body: request.input })
  ).experiment;
  const id = experiment.id;
  await follow(request, experiment, {
    read: async (fromRow, limit) => {
      const answer = await callServer<Experiment>(target, `/api/v1/experiments/${id}?fromRow=${fromRow}&limit=${limit}`);
      return { status: answer.status, rows: answer.rows };
    },
    wait: () => new Promise((resolve) => setTimeout(resolve, serverPollMs)),
  });
}

/**
 * Follows a run: appends each finished row to the output in input order, reports its warnings
 * and errors and the spec's start and completion lines, until every row is written. SIGINT ends
 * the follow (exit 130) after what is finished is written.
 */
async function follow(
  request: RunRequest,
  experiment: ExperimentSummary,
  source: { read(fromRow: number, limit: number): Promise<{ status: string; rows: ExperimentRow[] }>; wait(): Promise<void> },
): Promise<void> {
  const { table, reporter, input } = request;
  const total = table.rows.length;
  const appender = new OutputAppender(request.output.file, table.columns, request.output.existing);
  const counts = { ok: 0, warning: 0, error: 0 };
  let next = input.fromRow;
  let announced = next - 1;
  const announce = () => {
    const until = Math.min(total, next - 1 + input.concurrency);
    while (announced < until) {
      announced++;
      reporter.started(announced, table.rows[announced - 1]);
    }
  };
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
  };
  process.once("SIGINT", onInterrupt);
  process.once("SIGTERM", onInterrupt);
  try {
    announce();
    for (;;) {
      const { status, rows } = await source.read(next, input.concurrency * 4 + 16);
      for (const row of rows) {
        if (row.number !== next || row.status === "pending") break;
        appender.append(experimentOutputRecord(row));
        report(reporter, row);
        counts[row.status]++;
        reporter.completed(row.number, row.status);
        next++;
        announce();
      }
      reporter.progress(counts);
      if (next > total) break;
      if (status === "failed" || status === "cancelled") {
        throw new CliError(
          `The run ${experiment.id} was ${status} after ${next - input.fromRow} experiments; the rows finished are in ${request.output.file}.`,
        );
      }
      if (interrupted) {
        throw new CliError(
          `Interrupted: ${next - 1} of ${total} experiments are in ${request.output.file}. Run the same command with --resume to finish.`,
          exitCodes.interrupted,
        );
      }
      await source.wait();
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    reporter.done();
  }
}

/** A row's warnings as [WARNING] lines, then its error (or a last warning, as a rate limit is) once. */
function report(reporter: RunReporter, row: ExperimentRow): void {
  for (const warning of row.warnings) reporter.warning(warning);
  const joined = row.warnings.join("; ");
  let rest = row.errorMessage;
  if (joined && rest.startsWith(joined)) rest = rest.slice(joined.length).replace(/^; /, "");
  if (rest === "") return;
  if (row.status === "error") reporter.error(rest);
  else reporter.warning(rest);
}
