"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import type { Experiment, ExperimentSummary } from "@/lib/api/experiments";
import { concatenateDocuments, type ExperimentFile } from "@/lib/core/experiment-document";
import { createExperiment, experimentOutputUrl, getExperiment, listExperiments } from "@/lib/client/experiments-api";
import { ExperimentFileError } from "@/lib/formats/experiment-file-error";
import { readExperimentsCsv } from "@/lib/formats/read-experiments-csv";
import { useAddressId, useFollowedRecord } from "@/lib/client/use-open-record";
import { ErrorAlert } from "@/components/ui/error-alert";
import { DocumentPreview } from "./document-preview";
import { ExperimentRowsTable } from "./experiment-rows-table";
import { FileField } from "./file-field";
import { PastExperiments } from "./past-experiments";

const FINISHED = new Set(["completed", "cancelled", "failed"]);
// How often an open run is read again while it works: a finished row shows this late at most.
const REFRESH_MS = 400;

/**
 * /experiments: pick the prompt, context and experiments files, see the document each row sends,
 * run it, watch the rows fill in, download the output CSV at any moment; past runs reopen.
 */
export function ExperimentsPage() {
  const [prompt, setPrompt] = useState<ExperimentFile[]>([]);
  const [contexts, setContexts] = useState<ExperimentFile[]>([]);
  const [csv, setCsv] = useState<ExperimentFile[]>([]);
  const [timeoutSeconds, setTimeoutSeconds] = useState("300");
  const [concurrency, setConcurrency] = useState("1");
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const { openId, open, dropOpen } = useAddressId("/experiments");
  const [past, setPast] = useState<ExperimentSummary[] | null>(null);

  const refreshPast = useCallback(() => {
    listExperiments().then(setPast, (caught: Error) => setError(`Could not list past experiments: ${caught.message}`));
  }, []);

  useEffect(() => refreshPast(), [refreshPast]);

  // Follow the open experiment until it has finished.
  const experiment = useFollowedRecord<Experiment>(openId, {
    load: getExperiment,
    next: (current) => (FINISHED.has(current.status) ? null : REFRESH_MS),
    onEnd: refreshPast,
    onFailure: (caught) => {
      setError(`Could not open experiment ${openId}: ${caught.message}`);
      dropOpen();
    },
  });

  const table = useMemo(() => {
    if (csv.length === 0) return null;
    try {
      return { ok: true as const, table: readExperimentsCsv(csv[0].text, csv[0].name) };
    } catch (caught) {
      if (caught instanceof ExperimentFileError) return { ok: false as const, message: caught.message };
      throw caught;
    }
  }, [csv]);
  const document = prompt.length > 0 ? concatenateDocuments([...prompt, ...contexts]) : null;
  const variables = table?.ok ? table.table.columns.filter((column) => column !== "provider" && column !== "model") : null;
  const missing = [prompt.length === 0 ? "a prompt file" : null, csv.length === 0 ? "an experiments CSV" : null].filter(Boolean);
  const canRun = missing.length === 0 && table?.ok === true && table.table.rows.length > 0 && !starting;

  const run = async () => {
    if (!canRun) return;
    setStarting(true);
    setError(null);
    try {
      const created = await createExperiment({
        prompt: prompt[0],
        contexts,
        experiments: csv[0],
        timeoutSeconds: Number(timeoutSeconds),
        concurrency: Number(concurrency),
      });
      open(created.id);
      refreshPast();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="mx-auto flex max-w-[1400px] flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight text-zinc-900">Experiments</h1>
          <p className="text-sm text-zinc-600">
            One call per row of an experiments CSV (columns <code className="font-mono">provider</code>,{" "}
            <code className="font-mono">model</code>, and your variables); the same runner as{" "}
            <code className="font-mono">parallaxr run</code>.
          </p>
        </div>
        {openId && (
          <button
            type="button"
            onClick={() => open(null)}
            className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
          >
            New experiment
          </button>
        )}
      </div>

      <ErrorAlert message={error} onDismiss={() => setError(null)} />

      {openId ? (
        <OpenExperiment experiment={experiment} />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void run();
          }}
          className="grid gap-6 lg:grid-cols-[minmax(320px,420px)_1fr]"
        >
          <div className="flex flex-col gap-4">
            <FileField
              label="Prompt file"
              hint="Required. Text with {{variables}}."
              files={prompt}
              onChange={setPrompt}
              accept=".txt,.md,text/*"
            />
            <FileField
              label="Context files"
              hint="Optional, any number: appended after the prompt, in this order."
              multiple
              files={contexts}
              onChange={setContexts}
            />
            <FileField
              label="Experiments CSV"
              hint="Required. Columns provider and model; every other column fills a {{variable}}."
              files={csv}
              onChange={setCsv}
              accept=".csv,text/csv"
            />
            {table && !table.ok && (
              <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
                {table.message}
              </p>
            )}
            {table?.ok && (
              <p className="text-sm text-zinc-700">
                {table.table.rows.length.toLocaleString("en-US")} {table.table.rows.length === 1 ? "experiment" : "experiments"} on{" "}
                {new Set(table.table.rows.map((row) => `${row.provider}/${row.model}`)).size} models.
              </p>
            )}
            <div className="grid grid-cols-2 gap-3">
              <label className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
                Timeout (seconds)
                <input
                  type="number"
                  min={1}
                  max={86400}
                  value={timeoutSeconds}
                  onChange={(event) => setTimeoutSeconds(event.target.value)}
                  className="rounded-md border border-zinc-300 px-2 py-1.5 font-normal tabular-nums"
                />
              </label>
              <label className="flex flex-col gap-1 text-sm font-medium text-zinc-800">
                Calls at once
                <input
                  type="number"
                  min={1}
                  max={256}
                  value={concurrency}
                  onChange={(event) => setConcurrency(event.target.value)}
                  className="rounded-md border border-zinc-300 px-2 py-1.5 font-normal tabular-nums"
                />
              </label>
            </div>
            <button
              type="submit"
              disabled={!canRun}
              className="self-start rounded-md bg-accent-strong px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-strong/90 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600"
            >
              {starting ? "Starting…" : "Run experiments"}
            </button>
            {missing.length > 0 && <p className="text-xs text-zinc-600">Choose {missing.join(" and ")} to run.</p>}
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            {document !== null ? (
              <DocumentPreview document={document} variables={variables} />
            ) : (
              <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-10 text-center text-sm text-zinc-600">
                The document each row sends shows here once a prompt file is chosen.
              </p>
            )}
            <PastExperiments experiments={past} onOpen={open} />
          </div>
        </form>
      )}
    </div>
  );
}

function OpenExperiment({ experiment }: { experiment: Experiment | null }) {
  if (!experiment) return <p className="text-sm text-zinc-600">Loading the experiment…</p>;
  const { counts } = experiment;
  const finished = counts.ok + counts.warning + counts.error;
  const running = !FINISHED.has(experiment.status);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3">
        <div className="flex flex-col gap-0.5">
          <p className="text-sm font-medium text-zinc-900">
            {experiment.experimentsFile} <span className="font-normal text-zinc-600">with</span> {experiment.promptFile}
            {experiment.contextFiles.length > 0 && (
              <span className="font-normal text-zinc-600"> + {experiment.contextFiles.join(", ")}</span>
            )}
          </p>
          <p aria-live="polite" className="text-sm text-zinc-700">
            {running
              ? "Running: "
              : experiment.status === "completed"
                ? "Done: "
                : `${experiment.status[0].toUpperCase()}${experiment.status.slice(1)}: `}
            {finished} of {experiment.rows.length} rows · {counts.ok} ok · {counts.warning} warning · {counts.error} error
          </p>
        </div>
        <a
          href={experimentOutputUrl(experiment.id)}
          download
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
        >
          Download output CSV{running ? ` (${finished} rows so far)` : ""}
        </a>
      </div>
      <ExperimentRowsTable experiment={experiment} />
      <details className="rounded-lg border border-zinc-200 bg-white px-4 py-2">
        <summary className="cursor-pointer text-sm font-medium text-zinc-800">Document sent for each row</summary>
        <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words font-mono text-[13px] text-zinc-800">
          {experiment.document}
        </pre>
      </details>
    </div>
  );
}
