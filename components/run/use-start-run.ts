"use client";

import { useCallback, useMemo, useState } from "react";
import { detectVariables } from "@/lib/core/template";
import { draftRunInput } from "@/lib/client/draft-run-input";
import { useDraftStore } from "@/lib/client/draft-store";
import { findRunProblem, type RunValidationProblem } from "@/lib/client/find-run-problem";
import { refreshActivePrompt, saveActiveText, useActivePrompt, usePromptStore } from "@/lib/client/prompt-store";
import { runGate } from "@/lib/client/run-gate";
import { useRunStore } from "@/lib/client/run-store";
import { isRunActive, type CreateRunInput } from "@/lib/client/run-types";
import type { RunSession } from "@/lib/client/use-run-session";
import { useViewMode } from "@/lib/client/view-mode";
import type { PromptItem } from "@/lib/client/workbench-types";
import { parseBudget } from "./budget-field";

type StartRunOptions = {
  session: RunSession;
  /** True until the prompts, dataset and columns have loaded. */
  setupLoading: boolean;
  /** The grader chosen for the run, if any. */
  grader: PromptItem | null;
};

/** What Run does, and the dataset problem that stopped it, for the validation dialog. */
export type StartRun = {
  startRun(): Promise<void>;
  validationProblem: RunValidationProblem | null;
  clearValidationProblem(): void;
};

/**
 * Run, from the button or Ctrl+Enter: checks the draft (prompt, dataset fit, budget), saves the
 * prompt, then starts the run on the version the server saved.
 */
export function useStartRun({ session, setupLoading, grader }: StartRunOptions): StartRun {
  const { prompt, dataset, columns, budgetText, budgetMode } = useDraftStore();
  const activePrompt = useActivePrompt();
  const graderModel = usePromptStore((state) => state.graderModel);
  const run = useRunStore((state) => state.run);
  const runActive = run ? isRunActive(run.status) : false;
  const setViewMode = useViewMode((state) => state.setMode);
  const [validationProblem, setValidationProblem] = useState<RunValidationProblem | null>(null);
  // Run is blocked in a history view, so the draft's own text is the one checked.
  const variables = useMemo(() => detectVariables(prompt), [prompt]);
  const budget = parseBudget(budgetText);
  const readOnly = session.readOnly;

  const startRun = useCallback(async () => {
    setViewMode("balanced");
    if (runGate({ readOnly, loading: setupLoading, columnCount: columns.length, runActive }) !== null || session.busy) return;
    if (!activePrompt) return;
    if (prompt.trim() === "") {
      session.showError("Write a prompt first: the editor is empty.");
      return;
    }
    const problem = findRunProblem(variables, dataset, grader ? { name: grader.name, variables: detectVariables(grader.text) } : null);
    if (problem) {
      setValidationProblem(problem);
      return;
    }
    if (Number.isNaN(budget)) {
      session.showError("The budget is a positive number of dollars, like 0.50; empty means no budget.");
      return;
    }
    // Autosave before the run: the server versions and runs the text it has.
    if (!(await saveActiveText())) {
      session.showError("The prompt could not be saved, so the run did not start. Try again.");
      return;
    }
    const input: CreateRunInput = {
      promptId: activePrompt.id,
      ...draftRunInput({ dataset, variableCount: variables.length, columns, graderId: grader?.id ?? null, graderModel }),
      ...(budget === null ? {} : { budgetUsd: budget, budgetMode }),
    };
    await session.start(input, dataset && dataset.rows.length === dataset.rowCount ? dataset.rows : undefined);
    void refreshActivePrompt();
  }, [
    setupLoading,
    runActive,
    session,
    columns,
    readOnly,
    activePrompt,
    prompt,
    variables,
    dataset,
    grader,
    graderModel,
    budget,
    budgetMode,
    setViewMode,
  ]);

  const clearValidationProblem = useCallback(() => setValidationProblem(null), []);
  return { startRun, validationProblem, clearValidationProblem };
}
