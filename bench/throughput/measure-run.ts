// One measured run: a fresh worker and mock, the run through the real engine, and checks of what it left.
import os from "node:os";
import type { Database } from "@/lib/db/database";
import { createRun } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { startWorker } from "@/lib/engine/worker";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import { busyShare, readMachineTicks, watchEventLoop } from "./machine";
import type { Backend } from "./open-backend";
import {
  type BackendName,
  cellCount,
  mockModelNames,
  pollMs,
  rowCount,
  runTimeoutMs,
  type Scenario,
  userId,
  workerMaxInFlight,
} from "./settings";
import type { StatementTotals } from "./statement-counter";

/** What one measured run produced. */
export interface RunRecord {
  backend: BackendName;
  latencyMs: number;
  concurrency: number;
  repeat: number;
  warmUp: boolean;
  sequence: number;
  runId: string;
  wallMs: number;
  idealMs: number;
  shareOfIdeal: number | null;
  cellsPerSecond: number;
  createRunMs: number;
  firstCallMs: number | null;
  firstResultMs: number | null;
  /** When the last result was written; wall - lastResultMs is how long the run took to be marked completed. */
  lastResultMs: number | null;
  /** finished_at - created_at of the run, by the database's clock. */
  databaseSpanMs: number | null;
  peakInFlight: number;
  mockCalls: number;
  okCells: number;
  totalCells: number;
  maxAttempts: number;
  /** Mean time a cell is marked running in the database (claim to saved result): call plus overhead. */
  cellHoldMs: number | null;
  /** Mean latency_ms the engine recorded around the provider call. */
  cellCallMs: number | null;
  /** Mean time from the claim transaction's start (the cell's started_at) to the mock's call. */
  cellClaimToCallMs: number | null;
  /** Mean time from the call's end to the start of the statement that saved its result. */
  cellCallToSaveMs: number | null;
  duplicateCalls: number;
  missingCalls: number;
  problems: string[];
  notes: string[];
  load1Before: number;
  /** Busy share of all cores of the machine over the run (other people's builds included). */
  machineBusy: number | null;
  /** CPU time of this process (the worker, and for PGlite the database too) / wall time. */
  processCpuShare: number;
  /**
   * Longest stretch during the run in which this process's event loop did not turn (a 10 ms
   * interval timer did not fire). PGlite runs each statement synchronously on this thread.
   */
  eventLoopStallMs: number;
  statements: number;
  transactions: number;
  statementsByKind: Record<string, StatementTotals>;
}

/** Runs one 1,000-cell run with a fresh worker and mock, and checks what came out of it. */
export async function measureRun(
  backend: Backend,
  { latencyMs, concurrency }: Scenario,
  { repeat, warmUp, sequence }: { repeat: number; warmUp: boolean; sequence: number },
): Promise<RunRecord> {
  const calls = new Map<string, number>();
  let firstCallAt: number | null = null;
  // When each cell's call began, on the wall clock the database's now() also reads (the monotonic
  // clock shifted onto it: Date.now() alone has only whole milliseconds).
  const callStartedAt = new Map<string, number>();
  const wallClockOffset = Date.now() - performance.now();
  const mock = createMockProvider({
    onCall: ({ model, prompt }) => {
      firstCallAt ??= performance.now();
      const key = `${model}|${prompt}`;
      calls.set(key, (calls.get(key) ?? 0) + 1);
      callStartedAt.set(key, wallClockOffset + performance.now());
    },
  });
  const providers = createProviderRegistry([mock]);
  const rows = Array.from({ length: rowCount }, (_, index) => ({ id: String(index), text: `row ${index}` }));
  const worker = await startWorker({
    db: backend.counted,
    providers,
    maxInFlight: workerMaxInFlight,
    pollMs,
    onError: (error) => console.error(`[${backend.name} worker]`, error),
  });

  let runId = "";
  let wallMs = 0;
  let createRunMs = 0;
  let endStatus = "";
  const load1Before = os.loadavg()[0];
  const cpuBefore = process.cpuUsage();
  const machineBefore = readMachineTicks();
  backend.counter.reset();
  const stall = watchEventLoop();
  const started = performance.now();
  try {
    const run = await createRun(
      { db: backend.counted, providers },
      {
        userId,
        input: {
          prompt: "Item {{id}}: {{text}}",
          rows,
          models: mockModelNames.map((model) => ({ provider: "mock", model, params: { latencyMs, jitterMs: 0 } })),
          concurrency,
          // Every repeat sends the same inputs: with the cache on, repeats would measure the cache.
          cache: false,
        },
      },
    );
    createRunMs = performance.now() - started;
    runId = run.id;
    // A lost cell shows as a run that never completes: it is reported, and the bench goes on.
    const end = await backend.waitForEnd(runId, runTimeoutMs);
    wallMs = end.timedOut ? Number.NaN : end.at - started;
    endStatus = end.timedOut ? `still ${end.status} after ${runTimeoutMs / 1000} s` : end.status;
  } finally {
    stall.stop();
    await worker.stop();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const machineAfter = readMachineTicks();
  const statements = backend.counter.snapshot();

  // What the run left in the database, read back as its user (RLS applies) and in bulk.
  const finished = await getRun({ db: backend.db }, { userId, runId });
  const timing = (
    await backend.db.query<{
      created_at: Date;
      finished_at: Date | null;
      first_result: Date | null;
      last_result: Date | null;
      max_attempts: number | null;
      hold_ms: number | null;
      call_ms: number | null;
    }>(
      `select r.created_at, r.finished_at, c.first_result, c.last_result, c.max_attempts, c.hold_ms, c.call_ms
         from runs r,
              lateral (select min(finished_at) as first_result, max(finished_at) as last_result, max(attempts) as max_attempts,
                              avg(extract(epoch from finished_at - started_at) * 1000)::float8 as hold_ms,
                              avg(latency_ms)::float8 as call_ms
                         from run_cells where run_id = r.id) c
        where r.id = $1`,
      [runId],
    )
  ).rows[0];
  const startedEpoch = wallClockOffset + started;
  const cellSteps = await measureCellSteps(backend.db, { runId, callStartedAt });

  const stats = mock.stats();
  const problems: string[] = [];
  const notes: string[] = [];
  if (endStatus !== "completed") problems.push(`run not completed: ${endStatus}`);
  const okCells = finished.cells.filter((cell) => cell.status === "ok").length;
  if (finished.cells.length !== cellCount) problems.push(`${finished.cells.length} cells in the run, expected ${cellCount}`);
  if (okCells !== cellCount) problems.push(`${okCells} ok cells, expected ${cellCount} (${JSON.stringify(finished.counts)})`);
  if (stats.calls !== cellCount) problems.push(`the mock saw ${stats.calls} calls, expected ${cellCount}`);
  let duplicateCalls = 0;
  let missingCalls = 0;
  for (const model of mockModelNames) {
    for (const row of rows) {
      const count = calls.get(`${model}|Item ${row.id}: ${row.text}`) ?? 0;
      if (count === 0) missingCalls += 1;
      if (count > 1) duplicateCalls += count - 1;
    }
  }
  if (duplicateCalls > 0) problems.push(`${duplicateCalls} duplicated call(s)`);
  if (missingCalls > 0) problems.push(`${missingCalls} cell(s) never called`);
  if (stats.peakInFlight > concurrency) problems.push(`CONCURRENCY EXCEEDED: ${stats.peakInFlight} calls in flight, cap ${concurrency}`);
  // At 0 ms a mock call starts and ends in one turn of the event loop, so 1 in flight is expected.
  if (latencyMs > 0 && stats.peakInFlight < concurrency) notes.push(`peak in flight ${stats.peakInFlight} < concurrency ${concurrency}`);

  const idealMs = (cellCount * latencyMs) / concurrency;
  const machineBusy = machineBefore && machineAfter ? busyShare(machineBefore, machineAfter) : null;
  return {
    backend: backend.name,
    latencyMs,
    concurrency,
    repeat,
    warmUp,
    sequence,
    runId,
    wallMs,
    idealMs,
    shareOfIdeal: idealMs > 0 ? idealMs / wallMs : null,
    cellsPerSecond: cellCount / (wallMs / 1000),
    createRunMs,
    firstCallMs: firstCallAt === null ? null : firstCallAt - started,
    firstResultMs: timing?.first_result ? new Date(timing.first_result).getTime() - startedEpoch : null,
    lastResultMs: timing?.last_result ? new Date(timing.last_result).getTime() - startedEpoch : null,
    databaseSpanMs: timing?.finished_at ? new Date(timing.finished_at).getTime() - new Date(timing.created_at).getTime() : null,
    peakInFlight: stats.peakInFlight,
    mockCalls: stats.calls,
    okCells,
    totalCells: finished.cells.length,
    maxAttempts: timing?.max_attempts ?? 0,
    cellHoldMs: timing?.hold_ms ?? null,
    cellCallMs: timing?.call_ms ?? null,
    cellClaimToCallMs: cellSteps?.claimToCallMs ?? null,
    cellCallToSaveMs: cellSteps?.callToSaveMs ?? null,
    duplicateCalls,
    missingCalls,
    problems,
    notes,
    load1Before,
    machineBusy,
    processCpuShare: (cpu.user + cpu.system) / 1000 / wallMs,
    eventLoopStallMs: stall.longestMs(),
    statements: statements.statements,
    transactions: statements.transactions,
    statementsByKind: statements.byKind,
  };
}

/**
 * Splits the time a cell is held (started_at to finished_at, both the now() of the claiming and the
 * saving statement) into claim-to-call, the call, and call-to-save, by the call start the mock saw.
 */
async function measureCellSteps(
  db: Database,
  { runId, callStartedAt }: { runId: string; callStartedAt: Map<string, number> },
): Promise<{ claimToCallMs: number; callToSaveMs: number } | null> {
  const { rows } = await db.query<{ row_index: number; column_index: number; started_at: Date; finished_at: Date; latency_ms: number }>(
    "select row_index, column_index, started_at, finished_at, latency_ms from run_cells where run_id = $1 and finished_at is not null",
    [runId],
  );
  let claimToCall = 0;
  let callToSave = 0;
  let counted = 0;
  for (const row of rows) {
    const callStart = callStartedAt.get(`${mockModelNames[row.column_index]}|Item ${row.row_index}: row ${row.row_index}`);
    if (callStart === undefined) continue;
    claimToCall += callStart - new Date(row.started_at).getTime();
    callToSave += new Date(row.finished_at).getTime() - (callStart + row.latency_ms);
    counted += 1;
  }
  return counted === 0 ? null : { claimToCallMs: claimToCall / counted, callToSaveMs: callToSave / counted };
}
