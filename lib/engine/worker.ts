import { randomUUID } from "node:crypto";
import { claimCells, saveAndMarkStarted, type ClaimedCell } from "@/lib/db/cells/claim-cells";
import { expireAllLeases, releaseCells, releaseLeases, renewLeases, saveLeftAnswers } from "@/lib/db/cells/renew-leases";
import { openAnswerJournal, readLeftAnswers, type AnswerJournal } from "./answer-journal";
import { saveCellResults, type CellResult } from "@/lib/db/cells/save-cell-results";
import type { Database } from "@/lib/db/database";
import { pingDatabase } from "@/lib/db/ping-database";
import { finishInterruptedRuns } from "@/lib/db/runs/finish-interrupted-runs";
import { loadRunSettings, type RunSettings } from "@/lib/db/runs/load-run-settings";
import { recordContextWindow } from "@/lib/db/runs/record-context-window";
import { completeFinishedRuns, listActiveRunIds } from "@/lib/db/runs/run-lifecycle";
import { createRunVacuum } from "@/lib/db/vacuum-after-runs";
import { createWalCheckpointer } from "@/lib/db/wal-checkpoints";
import { applicablePrice } from "./applicable-price";
import type { ProviderRegistry } from "@/lib/providers/registry";
import { findCachedResponses, type CachedResponse } from "@/lib/db/cache/response-cache";
import { createImageProviderRegistry, type ImageProviderRegistry } from "@/lib/providers/image/registry";
import { createMockImageProvider } from "@/lib/providers/image/mock";
import { createBatchExecutor } from "./execute-batch-cell";
import { executeCell } from "./execute-cell";
import { prepareCell, type PreparedCell } from "./prepare-cell";

/** Settings of a worker. */
export interface WorkerOptions {
  db: Database;
  providers: ProviderRegistry;
  /** The image models batch runs call (the keyless mock alone when not given). */
  imageProviders?: ImageProviderRegistry;
  /** Distinct per process; appears in lease_owner. */
  workerId?: string;
  /** Most calls this worker has in flight at once, over all runs. */
  maxInFlight?: number;
  /** A claimed cell is this worker's for leaseMs unless renewed (renewed every leaseMs / 3). */
  leaseMs?: number;
  /** How often to look for due retries, expired leases and new runs without a notification. */
  pollMs?: number;
  /** How long a fresh answer stays in the response cache (default 7 days; null: until cleared). */
  cacheTtlSeconds?: number | null;
  /**
   * PGlite only: take back every running cell at start, and fail every planned run (one process
   * owns the folder, so no planner of it is at work).
   */
  reclaimOnStart?: boolean;
  /** A planned run whose planner has not been heard from for this long is failed (default 5 minutes). */
  plannedStaleMs?: number;
  now?: () => number;
  random?: () => number;
  /** Called with errors the worker survived (a failed claim or write); defaults to console.error. */
  onError?: (error: unknown) => void;
  /**
   * Claim up to each run's concurrency more cells than it runs and hold them ready, so that a call
   * starts the moment another ends instead of after the save-and-claim round trip. Calls in flight
   * stay within the run's cap (counted here); the database grants cells ahead only while no other
   * worker has a cell of the run running (0023_claim_ahead_on_a_server.sql), so that workers
   * sharing a run stay within its cap together.
   */
  claimAhead?: boolean;
  /**
   * A folder of this worker's alone (the data folder's, with claimAhead) where each answer is
   * kept from its arrival until it is saved (answer-journal.ts); with reclaimOnStart, what a dead
   * process left there is saved at start.
   */
  journalDir?: string;
  /** Called after results were written, with their runs: a follower in this process reads then. */
  onSaved?: (runIds: ReadonlySet<string>) => void;
  /** Called as a cell's call starts: a planner in this process adds the rest of a run after the first calls. */
  onCallStarted?: () => void;
}

/** A running worker. */
export interface Worker {
  readonly id: string;
  /**
   * Stops claiming, waits up to graceMs for calls in flight and saves their results, then aborts
   * the rest and gives their cells back (queued, attempt not counted).
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /** Calls in flight now. */
  inFlight(): number;
}

/**
 * Starts a worker that claims cells from the database, executes them and writes their results.
 * Results are written in batches: whatever finished since the last write goes in one statement,
 * which keeps a 0 ms mock run at thousands of cells per second instead of one write per cell.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { db, providers } = options;
  const id = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const maxInFlight = options.maxInFlight ?? 256;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const cacheTtlSeconds = options.cacheTtlSeconds === undefined ? 7 * 24 * 3600 : options.cacheTtlSeconds;
  const now = options.now ?? (() => performance.now());
  const random = options.random ?? Math.random;
  const onError = options.onError ?? ((error: unknown) => console.error("[parallaxr worker]", error));
  const onSaved = options.onSaved ?? (() => {});
  const onCallStarted = options.onCallStarted ?? (() => {});

  const stopController = new AbortController();
  const inFlight = new Map<string, ClaimedCell>();
  const inFlightByRun = new Map<string, number>();
  const finished: CellResult[] = [];
  // Cells claimed ahead (claimAhead), per run, in claim order: started as slots free.
  const held = new Map<string, Array<{ settings: RunSettings; prepared: PreparedCell; hit: CachedResponse | null }>>();
  let heldCount = 0;
  // Held cells of runs that stopped being runnable (paused, cancelled), to give back at the next tick.
  const toRelease: string[] = [];
  // Runs whose notice said they stopped (paused, cancelled, failed) during this tick: a claim of
  // theirs that was on its way is given back, not held or called. (A notice before a tick resets
  // the list of active runs, which the tick reads again without the run.)
  const stoppedRuns = new Set<string>();
  // Cells whose calls started since the last statement, to be marked started with the next one
  // (a cell claimed ahead stays held until then: the next worker knows it was never called).
  let startedIds: string[] = [];
  // Since when startedIds have waited with nothing else to send (null: they have not).
  let marksWaitingSince: number | null = null;
  let marksTimer: ReturnType<typeof setTimeout> | null = null;
  const claimAhead = options.claimAhead ?? false;
  // Cells this worker may hold claimed at once: its calls, and as many again held ready.
  const capacity = claimAhead ? 2 * maxInFlight : maxInFlight;
  const settingsByRun = new Map<string, RunSettings>();
  const contextWindows = new Map<string, Promise<number | null>>();
  // Columns whose context window is kept already: one statement per column, not per cell.
  const recordedWindows = new Set<string>();
  const keepContextWindow = async (input: { runId: string; columnIndex: number; contextWindow: number | null }) => {
    const key = `${input.runId}:${input.columnIndex}`;
    if (recordedWindows.has(key)) return;
    recordedWindows.add(key);
    await recordContextWindow(db, input);
  };
  // PGlite never checkpoints on its own: the sweep does, as its write-ahead log grows.
  const checkpointer = createWalCheckpointer(db, { onError });
  // The dead versions of a run's cells go to the next run's (vacuum-after-runs.ts).
  const vacuum = createRunVacuum(db, { onError });
  // Runs to claim from; re-read when a run notice arrives and on each poll, not on every tick.
  let activeRuns: string[] | null = null;
  // Batch runs' cells (image jobs) and their run.json, rewritten after each save of their results.
  const batches = createBatchExecutor({
    db,
    imageProviders: options.imageProviders ?? createImageProviderRegistry([createMockImageProvider()]),
    now,
    random,
    stopSignal: stopController.signal,
    onError,
  });
  // Runs whose last claim found nothing more to run: after their next results, check if done.
  const maybeFinished = new Set<string>();
  let rotation = 0;
  let ticking = false;
  let tickAgain = false;
  let stopped = false;
  // The first sweep comes a second after start rather than at the first poll: a command's first
  // claim does not wait behind it.
  let lastSweep = Date.now() - 4_000;
  // Ticks in a row whose results could not be saved.
  let failedSaves = 0;
  // Work the ticks and the sweep start without waiting for it (run.json rewrites, the sweep's
  // statements): stop() waits for it, so none of it reaches a database closed after the stop.
  const background = new Set<Promise<unknown>>();
  const inBackground = (work: Promise<unknown>): void => {
    const tracked = work.catch(onError).finally(() => background.delete(tracked));
    background.add(tracked);
  };

  // Answers a process that died here paid for but never saved are saved first, then its other
  // cells go back to the queue; this worker journals its own answers from now on.
  let journal: AnswerJournal | null = null;
  if (options.journalDir) {
    if (options.reclaimOnStart) await saveLeftAnswers(db, { workerId: id, results: readLeftAnswers(options.journalDir) });
    journal = openAnswerJournal(options.journalDir);
    journal.clear();
  }
  // A planner marks its run at every batch of 10,000 cells (seconds apart at most); one silent for
  // minutes has stopped, and half a plan must not stay in limbo (nor ever run).
  const plannedStaleMs = options.plannedStaleMs ?? 5 * 60_000;
  // What stopped processes left behind (cells still marked running, with reclaimOnStart; half
  // planned runs; cancels that stopped between batches) is put right once this worker's first
  // calls are on their way, or at the first sweep a second after start: a command's first call
  // does not wait behind it, and what it changes spares this worker's claims and the runs made
  // since it started. Until then a left-over running cell counts against its run's cap, as a
  // live one does.
  const startedAt = new Date();
  let recovery: Promise<void> | null = null;
  const recoverLeftovers = (): Promise<void> =>
    (recovery ??= (async () => {
      if (options.reclaimOnStart) await expireAllLeases(db, { sparing: id });
      // A batch failed here gets its run.json rewritten to say so.
      const failed = await finishInterruptedRuns(db, {
        staleMs: options.reclaimOnStart ? 0 : plannedStaleMs,
        leftovers: true,
        createdBefore: startedAt,
      });
      await batches.ended(failed);
      activeRuns = null;
      if (failed.length > 0 || options.reclaimOnStart) requestTick();
    })().catch((error: unknown) => {
      // tried again at the next sweep
      recovery = null;
      onError(error);
    }));

  const requestTick = (): void => {
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    // Start on the next turn of the event loop, not now: calls that end together (a wave of
    // equal-latency cells) all land in `finished` first, and go out in one write and one claim.
    void new Promise<void>((resolve) => setImmediate(resolve))
      .then(tick)
      .catch(onError)
      .finally(() => {
        ticking = false;
        if (tickAgain) {
          tickAgain = false;
          requestTick();
        }
      });
  };

  async function tick(): Promise<void> {
    // Results that finished since the last tick ride along with the first claim (one round trip
    // saves them and fills the slots they freed); if there is nothing to claim, they are saved alone.
    let unsaved = finished.splice(0, finished.length);
    const touched = new Set(unsaved.map((result) => result.runId));
    stoppedRuns.clear();
    try {
      if (toRelease.length > 0) {
        const ids = toRelease.splice(0, toRelease.length);
        await releaseCells(db, { workerId: id, ids }).catch((error) => {
          toRelease.push(...ids);
          throw error;
        });
      }
      if (!stopped && inFlight.size + heldCount < capacity) {
        activeRuns ??= await listActiveRunIds(db);
        const runIds = activeRuns;
        // (The list stops at 1,000 runs: past that, a run missing from it may still be runnable.)
        if (runIds.length < 1000) for (const runId of held.keys()) if (!runIds.includes(runId)) dropHeld(runId);
        // Start each tick at a different run so that no run starves the others.
        rotation = runIds.length > 0 ? (rotation + 1) % runIds.length : 0;
        for (let k = 0; k < runIds.length && inFlight.size + heldCount < capacity && !stopped; k++) {
          const runId = runIds[(rotation + k) % runIds.length];
          // This worker alone fills the run's cap (and what it may hold ahead): a claim could only come back empty.
          const known = settingsByRun.get(runId);
          const ahead = claimAhead && known ? known.concurrency : 0;
          if (known && (inFlightByRun.get(runId) ?? 0) + (held.get(runId)?.length ?? 0) >= known.concurrency + ahead) continue;
          const started = startedIds;
          startedIds = [];
          marksWaitingSince = null;
          const { cells, exhausted } = await claimCells(db, {
            runId,
            workerId: id,
            leaseMs,
            limit: capacity - inFlight.size - heldCount,
            ahead,
            // Those it can call now start now; the rest are held.
            start:
              ahead > 0
                ? Math.max(0, Math.min(known!.concurrency - (inFlightByRun.get(runId) ?? 0), maxInFlight - inFlight.size))
                : undefined,
            save: unsaved,
            started,
          }).catch((error: unknown) => {
            startedIds.push(...started);
            marksWaitingSince ??= now();
            throw error;
          });
          journal?.saved(unsaved);
          vacuum.saved(unsaved.length);
          unsaved = [];
          if (exhausted) maybeFinished.add(runId);
          if (cells.length === 0) continue;
          const settings = await settingsFor(runId);
          const prepared = cells.map((cell) => (settings.kind === "batch" ? batchCell(cell) : prepareCell(settings, cell)));
          // One look-up for the whole batch; re-runs skip the cache.
          const keys = prepared.filter((p) => p.cacheKey && !p.cell.bypassCache).map((p) => p.cacheKey!);
          const hits = await findCachedResponses(db, { userId: settings.userId, keys });
          if (stoppedRuns.has(runId)) {
            // Paused or cancelled while these were on their way: none of them starts.
            toRelease.push(...cells.map((cell) => cell.id));
            requestTick();
            continue;
          }
          for (const cell of prepared) {
            const hit = cell.cacheKey ? (hits.get(cell.cacheKey) ?? null) : null;
            // Calls that ended while the claim was on its way freed slots the claim did not know of:
            // a cell it handed over to hold starts too (marked started by the next statement).
            if ((inFlightByRun.get(runId) ?? 0) < settings.concurrency && inFlight.size < maxInFlight)
              start(settings, cell, hit, cell.cell.started === false);
            else hold(runId, { settings, prepared: cell, hit });
          }
        }
      }
      // Cells that started since the last statement, with nothing else to write: their marks wait
      // for the next statement, which a call's end brings within milliseconds while a run goes
      // and the sweep within pollMs otherwise, rather than take a statement of their own (on
      // PGlite ~80 of a 64-wide 1,000-cell run, a tenth of its thread's time). At most
      // MARKS_WAIT_MS: a held cell not yet marked is one whose call the next worker would count
      // no attempt for, should this process die meanwhile.
      const marksAlone = unsaved.length === 0 && startedIds.length > 0 && !stopped;
      if (marksAlone) marksWaitingSince ??= now();
      const marksWait = marksAlone && now() - marksWaitingSince! < MARKS_WAIT_MS;
      if (marksWait && !marksTimer) {
        marksTimer = setTimeout(() => {
          marksTimer = null;
          requestTick();
        }, MARKS_WAIT_MS);
        marksTimer.unref?.();
      }
      if ((startedIds.length > 0 || unsaved.length > 0) && !marksWait) {
        // Marked first: a held cell that started and already ended is among both.
        const started = startedIds;
        startedIds = [];
        marksWaitingSince = null;
        await saveAndMarkStarted(db, { workerId: id, results: unsaved, started }).catch((error: unknown) => {
          startedIds.push(...started);
          marksWaitingSince ??= now();
          throw error;
        });
        journal?.saved(unsaved);
        vacuum.saved(unsaved.length);
        unsaved = [];
      }
      failedSaves = 0;
      if (touched.size > 0) onSaved(touched);
      // Not awaited: the next claim does not wait for run.json (its rewrites are serialised per run).
      inBackground(batches.saved(touched));
    } catch (error) {
      if (unsaved.length > 0 && ++failedSaves >= SAVE_TRIES) {
        // The same results failed again and again: find out whether one of them is the cause.
        failedSaves = 0;
        await saveOneByOne(unsaved);
      } else {
        // Keep them for the next tick rather than lose paid-for results.
        finished.unshift(...unsaved);
      }
      throw error;
    }
    // Held cells start in any slot that is free now, whether or not a call is left to end and free one.
    if (heldCount > 0) startHeld();
    if (!recovery && inFlight.size > 0) await recoverLeftovers();
    // A run is checked for completion when it has nothing left to claim, and either results of
    // it were just saved or none of its calls are with us (another worker may have the last ones).
    const busy = new Set([...inFlight.values()].map((cell) => cell.runId).concat([...held.keys()]));
    await checkFinished([...maybeFinished].filter((runId) => touched.has(runId) || !busy.has(runId)));
  }

  async function checkFinished(runIds: string[]): Promise<void> {
    if (runIds.length === 0) return;
    const done = await completeFinishedRuns(db, { runIds });
    // Only a batch's end rewrites a file: a run this worker knows to be of another kind needs no
    // look-up (a statement between the run's end and its followers' read of it).
    const batchesDone = done.filter((runId) => (settingsByRun.get(runId)?.kind ?? "batch") === "batch");
    for (const runId of done) {
      settingsByRun.delete(runId);
      maybeFinished.delete(runId);
    }
    if (done.length > 0) {
      activeRuns = activeRuns?.filter((runId) => !done.includes(runId)) ?? null;
      vacuum.runsEnded();
    }
    inBackground(batches.ended(batchesDone));
  }

  function hold(runId: string, entry: { settings: RunSettings; prepared: PreparedCell; hit: CachedResponse | null }): void {
    const queue = held.get(runId);
    if (queue) queue.push(entry);
    else held.set(runId, [entry]);
    heldCount++;
  }

  /** Starts held cells while their runs' caps and this worker's allow: the moment a call ends. */
  function startHeld(): void {
    for (const [runId, queue] of held) {
      while (
        !stopped &&
        queue.length > 0 &&
        inFlight.size < maxInFlight &&
        (inFlightByRun.get(runId) ?? 0) < queue[0].settings.concurrency
      ) {
        const next = queue.shift()!;
        heldCount--;
        start(next.settings, next.prepared, next.hit);
      }
      if (queue.length === 0) held.delete(runId);
    }
  }

  /** A run stopped being runnable: its held cells are given back (or cancelled with it) at the next tick. */
  function dropHeld(runId: string): void {
    const queue = held.get(runId);
    if (!queue) return;
    held.delete(runId);
    heldCount -= queue.length;
    toRelease.push(...queue.map((entry) => entry.prepared.cell.id));
  }

  async function settingsFor(runId: string): Promise<RunSettings> {
    let settings = settingsByRun.get(runId);
    if (!settings) {
      const loaded = await loadRunSettings(db, { runId, priceOf: applicablePrice });
      if (!loaded) throw new Error(`Run ${runId} vanished while its cells were claimed`);
      settings = loaded;
      settingsByRun.set(runId, settings);
    }
    return settings;
  }

  /** Calls a claimed cell; unmarked: it is still held in the database, so the next statement marks it started. */
  function start(settings: RunSettings, prepared: PreparedCell, hit: CachedResponse | null, unmarked = true): void {
    const { cell } = prepared;
    if (claimAhead && unmarked) startedIds.push(cell.id);
    inFlight.set(cell.id, cell);
    inFlightByRun.set(cell.runId, (inFlightByRun.get(cell.runId) ?? 0) + 1);
    onCallStarted();
    (settings.kind === "batch"
      ? batches.execute(settings, cell)
      : executeCell(
          {
            providers,
            now,
            random,
            stopSignal: stopController.signal,
            cacheTtlSeconds,
            contextWindows,
            recordContextWindow: keepContextWindow,
          },
          settings,
          prepared,
          hit,
        )
    )
      .then(
        (result) => {
          // A call aborted by stop() is given back by releaseLeases, not written as a failure.
          if (stopController.signal.aborted) return;
          // Kept on disk before a held cell takes the slot (below): a kill now loses no answer.
          // A journal that cannot be written (a full disk) costs that protection, not the answer.
          try {
            journal?.append(result);
          } catch (error) {
            onError(error);
          }
          finished.push(result);
        },
        (error) => {
          onError(error);
          if (!stopController.signal.aborted) {
            finished.push({
              id: cell.id,
              runId: cell.runId,
              status: "error",
              errorCode: "internal",
              errorMessage: `Internal error: ${(error as Error).message}`,
            });
          }
        },
      )
      .finally(() => {
        inFlight.delete(cell.id);
        inFlightByRun.set(cell.runId, (inFlightByRun.get(cell.runId) ?? 1) - 1);
        // A held cell takes the slot now; the save and the next claim follow in the tick.
        if (heldCount > 0) startHeld();
        requestTick();
      });
  }

  /**
   * Saves results one at a time, after a batch of them failed SAVE_TRIES times. One the database
   * refuses twice on its own, while it answers everything else, is stored as an error that keeps
   * what was paid (tokens, cost, latency) without the text that could not be stored; otherwise a
   * single unstorable answer would fail every batch it rides in, and the worker would retry that
   * batch for ever while no run finished. While the database does not answer, nothing is changed:
   * the results wait for the next tick, as they would after any failed write.
   */
  async function saveOneByOne(results: CellResult[]): Promise<void> {
    for (const result of results) {
      let refusal: unknown = null;
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await saveCellResults(db, { workerId: id, results: [result] });
          journal?.saved([result]);
          refusal = null;
          break;
        } catch (error) {
          refusal = error;
        }
      }
      if (refusal === null) continue;
      const answers = await pingDatabase(db).then(
        () => true,
        () => false,
      );
      if (!answers) {
        finished.push(result);
        continue;
      }
      onError(refusal);
      await saveCellResults(db, { workerId: id, results: [unstorableResult(result, refusal)] }).then(
        () => journal?.saved([result]),
        (error) => {
          onError(error);
          finished.push(result);
        },
      );
    }
  }

  async function flush(): Promise<void> {
    if (finished.length === 0) return;
    const batch = finished.splice(0, finished.length);
    const runIds = batch.map((result) => result.runId);
    // The last write before the leases go back: a refused batch is saved one by one, so that one
    // unstorable answer does not send every finished cell back to the queue to be paid for again.
    await saveCellResults(db, { workerId: id, results: batch }).then(
      () => journal?.saved(batch),
      async (error) => {
        onError(error);
        await saveOneByOne(batch);
      },
    );
    onSaved(new Set(runIds));
    await batches.saved(runIds);
  }

  const renewTimer = setInterval(
    () => {
      if (inFlight.size === 0 && heldCount === 0) return;
      renewLeases(db, { workerId: id, leaseMs }).catch(onError);
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );

  const pollTimer = setInterval(() => {
    const time = Date.now();
    if (time - lastSweep > 5_000) {
      // Runs finished by other workers, or whose last result was written before their claim
      // came back short, are completed here.
      lastSweep = time;
      inBackground(recoverLeftovers());
      inBackground(
        completeFinishedRuns(db, { runIds: null }).then((done) => {
          if (done.length > 0) vacuum.runsEnded();
          return batches.ended(done);
        }),
      );
      inBackground(checkpointer.checkIfDue());
      inBackground(finishInterruptedRuns(db, { staleMs: plannedStaleMs, leftovers: false }).then((failed) => batches.ended(failed)));
    }
    activeRuns = null;
    requestTick();
  }, pollMs);

  // A run with work joins the list as it is: a new run's first claim does not wait for the list to
  // be read again, a statement on the way of its first call. (A run in it that is not runnable
  // yet, still planned, is claimed from in vain until the next poll reads the list again.)
  const runHasWork = (runId: string | undefined): void => {
    if (runId === undefined) activeRuns = null;
    else if (activeRuns !== null && !activeRuns.includes(runId)) activeRuns = [...activeRuns, runId];
    requestTick();
  };
  const unlistenRuns = await db.listen("parallaxr_runs", (payload) => {
    const [, runId, status] = /"runId"\s*:\s*"([^"]+)".*"status"\s*:\s*"([^"]+)"/.exec(payload) ?? [];
    // A new run's "planned" is heard with its "queued", after the commit that queued it.
    if (status === "planned") return;
    if (status === "queued" || status === "running") return runHasWork(runId);
    // Paused, cancelled or ended: nothing it holds starts any more, and it leaves the list.
    if (runId !== undefined && stoppingStatuses.has(status)) {
      stoppedRuns.add(runId);
      dropHeld(runId);
      activeRuns = activeRuns?.filter((active) => active !== runId) ?? null;
    } else {
      activeRuns = null;
    }
    requestTick();
  });
  const unlistenCells = await db.listen("parallaxr_cells", (payload) => {
    // New cells and re-queued cells are work; our own result writes are not.
    if (/"status"\s*:\s*"queued"/.test(payload)) runHasWork(/"runId"\s*:\s*"([^"]+)"/.exec(payload)?.[1]);
  });

  requestTick();

  return {
    id,
    inFlight: () => inFlight.size,
    async stop({ graceMs = 5_000 } = {}) {
      if (stopped) return;
      stopped = true;
      clearInterval(pollTimer);
      if (marksTimer) clearTimeout(marksTimer);
      // Held cells never started: releaseLeases below gives them back with the rest.
      held.clear();
      heldCount = 0;
      await unlistenRuns().catch(onError);
      await unlistenCells().catch(onError);
      const deadline = Date.now() + graceMs;
      while (inFlight.size > 0 && Date.now() < deadline) await delay(10);
      stopController.abort(new Error("worker stopping"));
      while (inFlight.size > 0 || ticking) await delay(5);
      await recovery;
      clearInterval(renewTimer);
      await flush().catch(onError);
      await releaseLeases(db, { workerId: id }).catch(onError);
      while (background.size > 0) await Promise.all(background);
      await checkpointer.idle();
      await vacuum.idle();
      journal?.close();
    },
  };
}

/** A run's statuses in which none of its cells may start (a run notice naming one drops what is held). */
const stoppingStatuses: ReadonlySet<string> = new Set(["paused", "cancelled", "failed", "completed"]);

/** How long started held cells may wait to be marked for a statement that writes something else. */
const MARKS_WAIT_MS = 100;

/** Failed saves in a row after which the worker looks for a result the database refuses. */
const SAVE_TRIES = 3;

/** What is kept of a result the database refused: the call's cost and its cell's end, not its text. */
function unstorableResult(result: CellResult, refusal: unknown): CellResult {
  const reason = refusal instanceof Error ? refusal.message : String(refusal);
  return {
    id: result.id,
    runId: result.runId,
    status: "error",
    errorCode: "internal",
    errorMessage: `The answer came back but could not be stored (${reason}). Its tokens and cost are kept; re-run the cell to try again.`,
    inputHash: result.inputHash,
    tokensIn: result.tokensIn,
    tokensOut: result.tokensOut,
    tokensEstimated: result.tokensEstimated,
    latencyMs: result.latencyMs,
    costUsd: result.costUsd,
    graderCostUsd: result.graderCostUsd,
    graderTokensIn: result.graderTokensIn,
    graderTokensOut: result.graderTokensOut,
    provider: result.provider,
    model: result.model,
  };
}

/** A batch cell as the worker hands it on: its job is in its row and column, no prompt to render, nothing cached. */
function batchCell(cell: ClaimedCell): PreparedCell {
  return { cell, input: "", missing: [], variables: {}, inputHash: "", cacheKey: null };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
