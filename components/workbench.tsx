"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useDraftAutosave } from "@/lib/client/use-draft-autosave";
import { useDraftStore } from "@/lib/client/draft-store";
import { usePromptStore } from "@/lib/client/prompt-store";
import { useRunSession } from "@/lib/client/use-run-session";
import { useWorkbenchSetup } from "@/lib/client/use-workbench-setup";
import { useViewMode } from "@/lib/client/view-mode";
import { EditorPanel } from "./editor/editor-panel";
import { AppHeader } from "./layout/app-header";
import { ResultsPanel } from "./results/results-panel";
import { useStartRun } from "./run/use-start-run";
import { ValidationDialog } from "./run/validation-dialog";
import { Toaster } from "./ui/toast";

type WorkbenchProps = { initialRunId: string | null; initialReadOnly?: boolean };

/** The workbench page: the prompt editor on the left, the toolbar and results grid on the right. */
export function Workbench({ initialRunId, initialReadOnly = false }: WorkbenchProps) {
  const setup = useWorkbenchSetup();
  const session = useRunSession({ initialRunId, initialReadOnly, setupLoaded: !setup.loading, latestRunId: setup.latestRunId });
  useDraftAutosave({ enabled: !setup.loading });
  const viewMode = useViewMode((state) => state.mode);
  const dataset = useDraftStore((state) => state.dataset);
  const prompts = usePromptStore((state) => state.prompts);
  const graderId = usePromptStore((state) => state.graderId);

  // The stored view mode is applied after the first render; animate only changes after that.
  const [animatePanels, setAnimatePanels] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setAnimatePanels(true));
    return () => cancelAnimationFrame(frame);
  }, []);

  // Both panels need the chosen grader: the editor checks the dataset against it, the results grade with it.
  const graders = useMemo(() => prompts.filter((item) => item.type === "grader"), [prompts]);
  const grader = graders.find((item) => item.id === graderId) ?? null;
  const { startRun, validationProblem, clearValidationProblem } = useStartRun({
    session,
    setupLoading: setup.loading || session.restoring,
    grader,
  });

  // Ctrl/Cmd+Enter runs from anywhere on the page (the editor handles its own and stops it there),
  // but not while a dialog or menu is open: there Enter belongs to what is on top.
  const startRunRef = useRef(startRun);
  useEffect(() => {
    startRunRef.current = startRun;
  });
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.altKey || event.defaultPrevented || event.repeat) return;
      if (document.querySelector("[role=dialog], dialog[open], [role=menu]")) return;
      event.preventDefault();
      void startRunRef.current();
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <div className="flex h-screen min-h-[560px] flex-col">
      <AppHeader />

      <main className="flex min-h-0 flex-1" data-view-mode={viewMode} aria-busy={setup.loading || session.restoring}>
        {/* In the main landmark, where a screen reader's list of landmarks leads (outside any, axe flagged it). */}
        <h1 className="sr-only">Prompt workbench</h1>
        <EditorPanel
          session={session}
          setup={setup}
          grader={grader}
          startRun={() => void startRun()}
          focus={viewMode === "focus"}
          animate={animatePanels}
        />
        <ResultsPanel session={session} setup={setup} graders={graders} grader={grader} />
      </main>

      <ValidationDialog
        problem={validationProblem}
        datasetName={dataset?.name ?? null}
        datasetHeaders={dataset?.headers ?? []}
        onClose={clearValidationProblem}
      />
      <Toaster />
    </div>
  );
}
