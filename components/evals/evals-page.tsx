"use client";

import { useCallback, useDeferredValue, useEffect, useId, useMemo, useState } from "react";
import type { EvalDetail, EvalList } from "@/lib/api/evals";
import { formatConfigProblem, parseEvalConfig } from "@/lib/core/eval/config";
import { parsePromptFile } from "@/lib/core/eval/prompt-file";
import { createEval, getEval, listEvals } from "@/lib/client/evals-api";
import { useAddressId, useFollowedRecord } from "@/lib/client/use-open-record";
import { ErrorAlert } from "@/components/ui/error-alert";
import { EvalsTabs } from "@/components/matrix/evals-tabs";
import { EvalCharts, EvalComparison } from "@/components/evals/charts";
import { ConfigEditor, type EditorProblem } from "./config-editor";
import { EvalDownloads } from "./eval-downloads";
import { EvalGrid, type OpenedResult } from "./eval-grid";
import { PastEvals } from "./past-evals";
import { PromptFilesField, type PromptFile } from "./prompt-files-field";
import { ResultDialog } from "./result-dialog";
import { SavedPromptsBuilder } from "./saved-prompts-builder";

const FINISHED = new Set(["completed", "cancelled", "failed"]);
// How often an open eval is read again while it runs: a finished result shows this late at most.
const REFRESH_MS = 500;
const PAGE = 20;

/** The base name of a path as a config writes it: ../prompts/summarizer_v1.yaml is summarizer_v1.yaml. */
function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * /evals: paste or upload an eval config (specs/eval-config.md) and the prompt files it names,
 * see its problems at their lines before running, run it, watch the grid of test cases x prompts
 * (x models) fill in, open a result, download every export; past evals reopen at /evals?id=.
 */
export function EvalsPage() {
  const [configText, setConfigText] = useState("");
  const [configNameField, setConfigName] = useState("eval.yaml");
  // The name errors are placed in and the server reads the config by (.json as JSON).
  const configName = configNameField.trim() || "eval.yaml";
  const [promptFiles, setPromptFiles] = useState<PromptFile[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const { openId, open: openAddress, dropOpen } = useAddressId("/evals");
  // The test case names of evals run from this page, in config order: the grid's rows before their results.
  const [caseNames, setCaseNames] = useState<Record<string, string[]>>({});
  const [past, setPast] = useState<EvalList["evals"] | null>(null);
  const [pastNext, setPastNext] = useState<number | null>(null);
  const [opened, setOpened] = useState<OpenedResult | null>(null);
  const problemsId = useId();

  const refreshPast = useCallback(() => {
    listEvals({ limit: PAGE }).then(
      (page) => {
        setPast(page.evals);
        setPastNext(page.nextOffset);
      },
      (caught: Error) => setError(`Could not list past evals: ${caught.message}`),
    );
  }, []);

  const morePast = () => {
    if (pastNext === null) return;
    listEvals({ limit: PAGE, offset: pastNext }).then(
      (page) => {
        setPast((current) => [...(current ?? []), ...page.evals]);
        setPastNext(page.nextOffset);
      },
      (caught: Error) => setError(`Could not list past evals: ${caught.message}`),
    );
  };

  useEffect(() => refreshPast(), [refreshPast]);

  // Follow the open eval until it has finished. A large eval is read less often: about 1 s apart
  // at 10,000 cells.
  const detail = useFollowedRecord<EvalDetail>(openId, {
    load: getEval,
    next: (current) => (FINISHED.has(current.eval.status) ? null : Math.max(REFRESH_MS, Math.min(5_000, current.eval.cells / 10))),
    onEnd: refreshPast,
    onFailure: (caught) => {
      setError(`Could not open eval ${openId}: ${caught.message}`);
      dropOpen();
    },
  });

  const open = (id: string | null) => {
    setOpened(null);
    openAddress(id);
  };

  // The config as the server will read it, checked here first (lib/core/eval is pure).
  const text = useDeferredValue(configText);
  const parsed = useMemo(() => (text.trim() === "" ? null : parseEvalConfig(text, { fileName: configName })), [text, configName]);
  const referenced = useMemo(
    () =>
      parsed?.ok
        ? parsed.config.prompts.flatMap((prompt) => (prompt.kind === "file" ? [{ path: prompt.path, line: prompt.line }] : []))
        : [],
    [parsed],
  );
  const matched = useMemo(
    () =>
      referenced.map((reference) => ({
        ...reference,
        file:
          promptFiles.find((file) => file.name === reference.path) ??
          promptFiles.find((file) => file.name === baseName(reference.path)) ??
          null,
      })),
    [referenced, promptFiles],
  );
  const missing = matched.filter((reference) => reference.file === null);
  const fileProblems = useMemo(
    () =>
      matched.flatMap((reference) => {
        if (!reference.file) return [];
        const read = parsePromptFile(reference.file.text, { fileName: reference.file.name });
        return read.ok ? [] : read.errors.map((problem) => formatConfigProblem(problem, reference.file!.name));
      }),
    [matched],
  );
  const editorProblems: EditorProblem[] = parsed
    ? [
        ...(parsed.ok
          ? []
          : parsed.errors.map((problem) => ({ line: problem.line, message: problem.message, severity: "error" as const }))),
        ...parsed.warnings.map((problem) => ({ line: problem.line, message: problem.message, severity: "warning" as const })),
      ]
    : [];
  const errorLines = parsed && !parsed.ok ? parsed.errors.map((problem) => formatConfigProblem(problem, configName)) : [];
  const warningLines = parsed ? parsed.warnings.map((problem) => formatConfigProblem(problem, configName)) : [];
  const ready = parsed?.ok === true && missing.length === 0 && fileProblems.length === 0;
  const canRun = ready && !starting && text === configText;

  const run = async () => {
    if (!canRun || !parsed?.ok) return;
    setStarting(true);
    setError(null);
    try {
      const files = Object.fromEntries(matched.map((reference) => [reference.path, reference.file!.text]));
      const created = await createEval({ config: configText, configName, files });
      setCaseNames((current) => ({ ...current, [created.id]: parsed.config.test_cases.map((testCase) => testCase.name) }));
      open(created.id);
      refreshPast();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setStarting(false);
    }
  };

  const uploadConfig = async (list: FileList | null) => {
    const file = list?.[0];
    if (!file) return;
    setConfigText((await file.text()).replace(/^\uFEFF/, ""));
    setConfigName(file.name);
  };

  return (
    <div className="mx-auto flex max-w-[1400px] flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight text-zinc-900">Evals</h1>
          <p className="text-sm text-zinc-600">
            Run an eval config: each prompt on each model over its test cases, scored by its metrics; the same runner as{" "}
            <code className="font-mono">parallaxr eval</code>.
          </p>
        </div>
        {openId && (
          <button
            type="button"
            onClick={() => open(null)}
            className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
          >
            New eval
          </button>
        )}
      </div>
      <EvalsTabs current="/evals" />

      <ErrorAlert message={error} onDismiss={() => setError(null)} />

      {openId ? (
        <OpenEval detail={detail} testCases={caseNames[openId] ?? null} onOpenResult={setOpened} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
          className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(300px,400px)]"
        >
          <div className="flex min-w-0 flex-col gap-3">
            <div className="flex flex-wrap items-end justify-between gap-2">
              <label htmlFor="eval-config-name" className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
                Config file name
                <input
                  id="eval-config-name"
                  value={configNameField}
                  onChange={(event) => setConfigName(event.target.value)}
                  className="w-56 rounded-md border border-zinc-300 px-2 py-1 font-mono text-[13px] font-normal"
                />
              </label>
              <label className="cursor-pointer rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 focus-within:ring-2 focus-within:ring-accent-line hover:bg-zinc-50">
                Upload a config
                <input
                  type="file"
                  accept=".yaml,.yml,.json,text/yaml,application/json"
                  className="sr-only"
                  onChange={(event) => {
                    void uploadConfig(event.target.files);
                    event.target.value = "";
                  }}
                />
              </label>
            </div>
            <SavedPromptsBuilder
              onBuild={(yaml) => {
                setConfigText(yaml);
                setConfigName("eval.yaml");
              }}
            />
            <ConfigEditor
              value={configText}
              onChange={setConfigText}
              problems={editorProblems}
              label="Eval config"
              describedBy={problemsId}
            />
            <div id={problemsId} aria-live="polite" className="flex flex-col gap-1.5">
              {parsed === null ? (
                <p className="text-sm text-zinc-600">Paste a config above, or upload one. It is checked as you type.</p>
              ) : errorLines.length > 0 ? (
                <ul
                  aria-label="Problems in the config"
                  className="flex flex-col gap-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
                >
                  {errorLines.map((line, index) => (
                    <li key={index} className="break-words">
                      {line}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-zinc-700">
                  {parsed.ok &&
                    `${parsed.config.prompts.length} ${parsed.config.prompts.length === 1 ? "prompt" : "prompts"} on ${parsed.config.models.length} ${
                      parsed.config.models.length === 1 ? "model" : "models"
                    } over ${parsed.config.test_cases.length} test ${parsed.config.test_cases.length === 1 ? "case" : "cases"}${
                      parsed.config.repeat > 1 ? `, ${parsed.config.repeat} trials each` : ""
                    }: ${parsed.config.prompts.length * parsed.config.models.length * parsed.config.test_cases.length * parsed.config.repeat} calls.`}
                </p>
              )}
              {warningLines.length > 0 && (
                <ul
                  aria-label="Warnings"
                  className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
                >
                  {warningLines.map((line, index) => (
                    <li key={index} className="break-words">
                      Warning: {line}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </div>
          <div className="flex min-w-0 flex-col gap-4">
            <PromptFilesField files={promptFiles} onChange={setPromptFiles} referenced={matched} />
            {fileProblems.length > 0 && (
              <ul
                aria-label="Problems in the prompt files"
                className="flex flex-col gap-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
              >
                {fileProblems.map((line, index) => (
                  <li key={index} className="break-words">
                    {line}
                  </li>
                ))}
              </ul>
            )}
            <button
              type="submit"
              disabled={!canRun}
              className="self-start rounded-md bg-accent-strong px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-strong/90 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600"
            >
              {starting ? "Starting…" : "Run eval"}
            </button>
            {!ready && (
              <p className="text-xs text-zinc-600">
                {parsed === null
                  ? "Paste or upload a config to run."
                  : !parsed.ok
                    ? "Fix the problems in the config to run."
                    : missing.length > 0
                      ? `Upload ${missing.map((reference) => reference.path).join(", ")} to run.`
                      : "Fix the problems in the prompt files to run."}
              </p>
            )}
            <PastEvals evals={past} onOpen={open} onMore={pastNext === null ? undefined : morePast} />
          </div>
        </form>
      )}
      <ResultDialog opened={opened} onClose={() => setOpened(null)} />
    </div>
  );
}

function OpenEval({
  detail,
  testCases,
  onOpenResult,
}: {
  detail: EvalDetail | null;
  testCases: string[] | null;
  onOpenResult(opened: OpenedResult): void;
}) {
  if (!detail) return <p className="text-sm text-zinc-600">Loading the eval…</p>;
  const { eval: summary } = detail;
  const { counts } = summary;
  const finished = counts.ok + counts.warning + counts.error;
  const running = !FINISHED.has(summary.status);
  const status = running
    ? "Running"
    : summary.status === "completed"
      ? "Done"
      : `${summary.status[0].toUpperCase()}${summary.status.slice(1)}`;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-0.5 rounded-lg border border-zinc-200 bg-white px-4 py-3">
        <p className="text-sm font-medium text-zinc-900">
          {summary.configName}{" "}
          <span className="font-normal text-zinc-600">
            · {summary.prompts.length} {summary.prompts.length === 1 ? "prompt" : "prompts"} · {summary.models.join(", ")} ·{" "}
            {summary.testCases} test {summary.testCases === 1 ? "case" : "cases"}
            {summary.repeat > 1 ? ` × ${summary.repeat} trials` : ""}
          </span>
        </p>
        <p aria-live="polite" className="text-sm text-zinc-700">
          {status}: {finished} of {summary.cells} results · {counts.error} {counts.error === 1 ? "error" : "errors"}
        </p>
        {summary.warnings.map((warning, index) => (
          <p key={index} className="text-xs text-amber-900">
            Warning: {warning}
          </p>
        ))}
      </div>
      <EvalGrid detail={detail} testCases={testCases} onOpen={onOpenResult} />
      <EvalDownloads detail={detail} />
      <EvalCharts detail={detail} />
      {detail.runs.length > 1 && <EvalComparison detail={detail} />}
    </div>
  );
}
