"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { subscribeToRun, type ConnectionState } from "@/lib/realtime/subscribe-to-run";
import { changeRun, createRun, getRun, type RunAction } from "./api";
import { useDraftStore } from "./draft-store";
import { useRunStore } from "./run-store";
import { isRunActive, type Cell, type CreateRunInput, type Run } from "./run-types";

/** What the workbench can do with runs, and how the current one is going. */
export type RunSession = {
  /** True while a run is being created or an action (pause, resume, cancel) is in flight. */
  busy: boolean;
  /** The last error from the server about runs, for an alert. */
  error: string | null;
  showError(message: string): void;
  clearError(): void;
  /** The live connection's state while following a run, else null. */
  connection: ConnectionState | null;
  /** True while `?run=` is being loaded on first render. */
  restoring: boolean;
  start(input: CreateRunInput): Promise<void>;
  act(action: RunAction): Promise<void>;
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Keeps the run id in the address bar, so a reload reopens the same run. */
function showRunInAddressBar(runId: string) {
  const url = new URL(window.location.href);
  url.searchParams.set("run", runId);
  window.history.replaceState(window.history.state, "", url);
}

/** The columns, prompt and dataset of a reopened run, so the editor matches the grid. */
function restoreDraftFromRun(run: Run) {
  const draft = useDraftStore.getState();
  draft.setPrompt(run.prompt);
  draft.adoptRunColumns(run.columns);
  const headers = [...new Set(run.rows.flatMap((row) => Object.keys(row)))];
  // A run of a prompt without variables has one empty row and no dataset to show.
  if (headers.length > 0) {
    draft.setDataset({ name: run.datasetName || "Dataset of this run", headers, rows: run.rows });
  }
}

/**
 * Starts, reopens and follows runs: creates them, loads `?run=` on first render, subscribes to
 * live updates until the run ends, and sends pause, resume and cancel.
 */
export function useRunSession(initialRunId: string | null): RunSession {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [connection, setConnection] = useState<ConnectionState | null>(null);
  const [restoring, setRestoring] = useState(initialRunId !== null);
  const stopFollowingRef = useRef<(() => void) | null>(null);

  const stopFollowing = useCallback(() => {
    stopFollowingRef.current?.();
    stopFollowingRef.current = null;
    setConnection(null);
  }, []);

  const follow = useCallback(
    (runId: string) => {
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
      const stop = subscribeToRun(runId, {
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
      });
      stopFollowingRef.current = () => {
        stop();
        if (frame !== null) cancelAnimationFrame(frame);
      };
    },
    [stopFollowing],
  );

  useEffect(() => stopFollowing, [stopFollowing]);

  useEffect(() => {
    if (!initialRunId) return;
    let cancelled = false;
    getRun({ id: initialRunId })
      .then((run) => {
        if (cancelled) return;
        useRunStore.getState().loadRun(run);
        restoreDraftFromRun(run);
        if (isRunActive(run.status)) follow(run.id);
      })
      .catch((reason: unknown) => {
        if (!cancelled) setError(`Could not reopen run ${initialRunId}: ${messageOf(reason)}`);
      })
      .finally(() => {
        if (!cancelled) setRestoring(false);
      });
    return () => {
      cancelled = true;
    };
  }, [initialRunId, follow]);

  const start = useCallback(
    async (input: CreateRunInput) => {
      setBusy(true);
      setError(null);
      try {
        const run = await createRun(input);
        stopFollowing();
        // The 201 answer may leave out the rows and cells; we know the rows we sent.
        useRunStore.getState().loadRun({ ...run, rows: run.rows ?? input.rows, cells: run.cells ?? [] });
        useDraftStore.getState().adoptRunColumns(run.columns);
        showRunInAddressBar(run.id);
        follow(run.id);
      } catch (reason) {
        setError(`The run did not start: ${messageOf(reason)}`);
      } finally {
        setBusy(false);
      }
    },
    [follow, stopFollowing],
  );

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

  const clearError = useCallback(() => setError(null), []);

  return { busy, error, showError: setError, clearError, connection, restoring, start, act };
}
