"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { subscribeToRun, type ConnectionState } from "@/lib/client/subscribe-to-run";
import { ApiError, changeRun, createRun, getRun, type RunAction } from "./api";
import { useDraftStore } from "./draft-store";
import { useRunStore } from "./run-store";
import { isRunActive, type Cell, type CreateRunInput } from "./run-types";

/** What the workbench can do with runs, and how the current one is going. */
export type RunSession = {
  /** True while a run is being created or an action (pause, resume, cancel) is in flight. */
  busy: boolean;
  /** The last error from the server about runs, for an alert. */
  error: string | null;
  showError(message: string): void;
  clearError(): void;
  /** The prompt's run already in progress when the server refused to start another (409), else null. */
  activeRunId: string | null;
  /** Opens that run here and follows it, as if this tab had started it. */
  openActiveRun(): Promise<void>;
  /** The live connection's state while following a run, else null. */
  connection: ConnectionState | null;
  /** True until the run to reopen on first load (`?run=`, else the prompt's latest) is on screen, or known to be none. */
  restoring: boolean;
  /** True when the run on screen is an earlier run opened from history: look, don't touch. */
  readOnly: boolean;
  /** Starts a run; `rows` are the dataset rows the grid shows while the run loads. */
  start(input: CreateRunInput, rows?: Record<string, string>[]): Promise<void>;
  /** Opens an earlier run read-only (from history). */
  openHistory(runId: string): Promise<void>;
  /** Leaves a history view for the run that was on screen before it (or none). */
  closeHistory(): Promise<void>;
  /** Puts a finished run away: a clean grid for the next run (the run stays in history). */
  clearRun(): void;
  act(action: RunAction): Promise<void>;
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Keeps the run id in the address bar, so a reload reopens the same run (read-only from history). */
function showRunInAddressBar(runId: string | null, readOnly = false) {
  const url = new URL(window.location.href);
  if (runId) url.searchParams.set("run", runId);
  else url.searchParams.delete("run");
  if (readOnly) url.searchParams.set("view", "history");
  else url.searchParams.delete("view");
  window.history.replaceState(window.history.state, "", url);
}

/** The newest change in a snapshot of cells: live updates start after it. */
function highestSeq(cells: Cell[]): number {
  let highest = 0;
  for (const cell of cells) if (cell.seq > highest) highest = cell.seq;
  return highest;
}

/** What the session needs to know to reopen a run on first load. */
export type RunSessionOptions = {
  /** `?run=` of the address. */
  initialRunId: string | null;
  /** `&view=history`: that run is opened read-only. */
  initialReadOnly?: boolean;
  /** The setup (prompt, dataset, columns) has loaded: a run reopens onto it. */
  setupLoaded: boolean;
  /** The latest run of the active prompt, reopened when the address names none. */
  latestRunId: string | null;
};

/**
 * Starts, reopens and follows runs: creates them, reopens `?run=` (or the active prompt's latest
 * run) once the setup has loaded, subscribes to live updates until the run ends, and sends pause,
 * resume and cancel.
 */
export function useRunSession({ initialRunId, initialReadOnly = false, setupLoaded, latestRunId }: RunSessionOptions): RunSession {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The run a 409 named, with the message that said so: the offer to open it lasts as long as
  // that message is the one shown (another error, or none, replaces it).
  const [refusal, setRefusal] = useState<{ runId: string; message: string } | null>(null);
  const activeRunId = refusal && refusal.message === error ? refusal.runId : null;
  const [connection, setConnection] = useState<ConnectionState | null>(null);
  const [restoring, setRestoring] = useState(true);
  const [readOnly, setReadOnly] = useState(initialRunId !== null && initialReadOnly);
  // The run on screen before a history view opened, to go back to.
  const beforeHistoryRef = useRef<string | null>(null);
  const stopFollowingRef = useRef<(() => void) | null>(null);

  const stopFollowing = useCallback(() => {
    stopFollowingRef.current?.();
    stopFollowingRef.current = null;
    setConnection(null);
  }, []);

  const follow = useCallback(
    (runId: string, afterSeq = 0) => {
      stopFollowing();
      const store = useRunStore.getState();
      // Cells arrive in bursts (hundreds a second with fast models): apply them once per frame.
      let pending: Cell[] = [];
      let frame: number | null = null;
      const flush = () => {
        if (frame !== null) cancelAnimationFrame(frame);
        frame = null;
        const batch = pending;
        pending = [];
        store.applyCells(batch);
      };
      const stop = subscribeToRun(
        runId,
        {
          onCell: (cell) => {
            pending.push(cell);
            frame ??= requestAnimationFrame(flush);
          },
          onRun: (summary) => {
            flush();
            store.applyRun(summary);
          },
          onEnd: (summary) => {
            flush();
            store.applyRun(summary);
            stopFollowingRef.current = null;
            setConnection(null);
            // One last snapshot, in case the stream ended before every final cell reached us.
            getRun({ id: runId })
              .then((run) => {
                if (useRunStore.getState().run?.id === runId) useRunStore.getState().loadRun(run);
              })
              .catch(() => {});
          },
          onConnectionChange: setConnection,
        },
        afterSeq,
      );
      stopFollowingRef.current = () => {
        stop();
        if (frame !== null) cancelAnimationFrame(frame);
      };
    },
    [stopFollowing],
  );

  useEffect(() => stopFollowing, [stopFollowing]);

  // First load: once the setup is there, reopen the run the address names, or else the active
  // prompt's latest run. A run that cannot be opened (a stale link, another person's run, a wiped
  // data folder) leaves the setup as it is, says why, and drops the run from the address.
  const reopenedRef = useRef(false);
  useEffect(() => {
    if (!setupLoaded || reopenedRef.current) return;
    reopenedRef.current = true;
    const runId = initialRunId ?? latestRunId;
    const asHistory = initialRunId !== null && initialReadOnly;
    if (!runId) {
      setRestoring(false);
      return;
    }
    getRun({ id: runId })
      .then((run) => {
        useRunStore.getState().loadRun(run);
        if (!asHistory) useDraftStore.getState().linkRunColumns(run.columns);
        showRunInAddressBar(run.id, asHistory);
        if (isRunActive(run.status)) follow(run.id, highestSeq(run.cells));
      })
      .catch((reason: unknown) => {
        setReadOnly(false);
        showRunInAddressBar(null);
        setError(`Could not reopen run ${runId}: ${messageOf(reason)}`);
      })
      .finally(() => setRestoring(false));
  }, [setupLoaded, initialRunId, initialReadOnly, latestRunId, follow]);

  const start = useCallback(
    async (input: CreateRunInput, rows?: Record<string, string>[]) => {
      setBusy(true);
      setError(null);
      try {
        const run = await createRun(input);
        stopFollowing();
        setReadOnly(false);
        beforeHistoryRef.current = null;
        // The 201 answer may leave out the rows and cells; we know the rows we sent.
        // The plan shown while it runs is the one the server made for this run, not the draft's.
        useRunStore.getState().loadRun({ ...run, rows: run.rows ?? input.rows ?? rows ?? [], cells: run.cells ?? [] }, run.plan);
        useDraftStore.getState().adoptRunColumns(run.columns);
        showRunInAddressBar(run.id);
        // Every cell is queued as of the answer's cursor: follow the changes after it.
        follow(run.id, run.cursor ?? 0);
      } catch (reason) {
        setError(`The run did not start: ${messageOf(reason)}`);
        // One run per prompt: the server named the one already going (another tab, another client).
        if (reason instanceof ApiError && reason.status === 409 && reason.runId) {
          const message = "This prompt already has a run in progress, started in another tab or window. Open it to follow it here.";
          setError(message);
          setRefusal({ runId: reason.runId, message });
        }
      } finally {
        setBusy(false);
      }
    },
    [follow, stopFollowing],
  );

  const openActiveRun = useCallback(async () => {
    if (!activeRunId) return;
    setBusy(true);
    try {
      const run = await getRun({ id: activeRunId });
      stopFollowing();
      setReadOnly(false);
      beforeHistoryRef.current = null;
      useRunStore.getState().loadRun(run);
      useDraftStore.getState().adoptRunColumns(run.columns);
      showRunInAddressBar(run.id);
      if (isRunActive(run.status)) follow(run.id, highestSeq(run.cells));
      setError(null);
    } catch (reason) {
      setError(`Could not open run ${activeRunId}: ${messageOf(reason)}`);
    } finally {
      setBusy(false);
    }
  }, [activeRunId, follow, stopFollowing]);

  const act = useCallback(async (action: RunAction) => {
    const runId = useRunStore.getState().run?.id;
    if (!runId) return;
    setBusy(true);
    setError(null);
    try {
      useRunStore.getState().applyRun(await changeRun({ id: runId, action }));
    } catch (reason) {
      setError(`Could not ${action} the run: ${messageOf(reason)}`);
    } finally {
      setBusy(false);
    }
  }, []);

  const openHistory = useCallback(
    async (runId: string) => {
      setBusy(true);
      setError(null);
      try {
        const run = await getRun({ id: runId });
        const current = useRunStore.getState().run;
        if (!readOnly) beforeHistoryRef.current = current?.id ?? null;
        stopFollowing();
        useRunStore.getState().loadRun(run);
        setReadOnly(true);
        showRunInAddressBar(run.id, true);
        // An earlier run may still be going (paused, say): its cells keep arriving.
        if (isRunActive(run.status)) follow(run.id, highestSeq(run.cells));
      } catch (reason) {
        setError(`Could not open run ${runId}: ${messageOf(reason)}`);
      } finally {
        setBusy(false);
      }
    },
    [follow, stopFollowing, readOnly],
  );

  const closeHistory = useCallback(async () => {
    const previous = beforeHistoryRef.current;
    beforeHistoryRef.current = null;
    stopFollowing();
    setReadOnly(false);
    if (!previous) {
      useRunStore.getState().reset();
      showRunInAddressBar(null);
      return;
    }
    try {
      const run = await getRun({ id: previous });
      useRunStore.getState().loadRun(run);
      useDraftStore.getState().adoptRunColumns(run.columns);
      showRunInAddressBar(run.id);
      if (isRunActive(run.status)) follow(run.id, highestSeq(run.cells));
    } catch (reason) {
      useRunStore.getState().reset();
      showRunInAddressBar(null);
      setError(`Could not reopen run ${previous}: ${messageOf(reason)}`);
    }
  }, [follow, stopFollowing]);

  const clearRun = useCallback(() => {
    stopFollowing();
    beforeHistoryRef.current = null;
    setReadOnly(false);
    useRunStore.getState().reset();
    showRunInAddressBar(null);
  }, [stopFollowing]);

  const clearError = useCallback(() => setError(null), []);

  return {
    busy,
    error,
    showError: setError,
    clearError,
    activeRunId,
    openActiveRun,
    connection,
    restoring,
    readOnly,
    start,
    act,
    openHistory,
    closeHistory,
    clearRun,
  };
}
