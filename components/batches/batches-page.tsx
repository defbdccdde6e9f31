"use client";

import { useCallback, useEffect, useState } from "react";
import { useAddressId } from "@/lib/client/use-open-record";
import { ErrorAlert } from "@/components/ui/error-alert";
import { formatUsd } from "@/lib/client/format-money";
import { BatchBuilder, type BuilderInputs } from "./batch-builder";
import { BatchGallery } from "./batch-gallery";
import { BatchStatus } from "./batch-status";
import type { BatchAction, BatchJob, BatchSummary, CreateBatchInput } from "@/lib/api/batches";
import { batchManifestUrl, batchZipUrl, changeBatch, createBatch, getAllJobs, getBatch, getBatchInputs, listBatches } from "./batches-api";
import { FINISHED_STATUSES, type BatchView } from "./batch-view";
import { PastBatches } from "./past-batches";

// How often an open batch is read again while it runs (as the /evals page does): a finished job
// shows this late at most. A large batch is read less often, up to 5 s apart.
const REFRESH_MS = 500;

const linkClass = "rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50";

/**
 * /batches: image batch runs (spec: image-batch-runs.md) in the browser. The builder, then the
 * open batch's summary, status table and controls while it runs, and after it the gallery, the
 * manifest, the run folder as a zip and "Re-run with tweaks". Past batches reopen at /batches?id=.
 */
export function BatchesPage() {
  const { openId, open: openAddress, dropOpen } = useAddressId("/batches");
  const [batch, setBatch] = useState<BatchView | null>(null);
  const [past, setPast] = useState<BatchSummary[] | null>(null);
  // The successful jobs of a finished batch, every page: the gallery's images.
  const [madeJobs, setMadeJobs] = useState<{ id: string; jobs: BatchJob[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [busy, setBusy] = useState(false);
  // Bumped to read the open batch again at once (after pause, resume or stop).
  const [poke, setPoke] = useState(0);
  const [builder, setBuilder] = useState<{ key: number; inputs: BuilderInputs | null }>({ key: 0, inputs: null });

  const refreshPast = useCallback(() => {
    listBatches().then(setPast, (caught: Error) => setError(`Could not list past batches: ${caught.message}`));
  }, []);

  useEffect(() => refreshPast(), [refreshPast]);

  // Follow the open batch until it has finished.
  useEffect(() => {
    if (!openId) {
      setBatch(null);
      return;
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let readsSinceEnd = 0;
    const read = async () => {
      try {
        const current = await getBatch(openId);
        if (stopped) return;
        setBatch({ summary: current.batch, jobs: current.jobs, jobsTotal: current.jobsTotal });
        // A stopped batch may still have a call in flight: read on until it has landed (a minute at most).
        const ended = FINISHED_STATUSES.has(current.batch.status);
        if (ended) readsSinceEnd++;
        if (!ended || (current.batch.counts.running > 0 && readsSinceEnd < 120)) {
          timer = setTimeout(read, Math.max(REFRESH_MS, Math.min(5_000, current.jobsTotal / 10)));
          return;
        }
        refreshPast();
        const jobs =
          current.jobsTotal <= current.jobs.length
            ? current.jobs.filter((job) => job.status === "success")
            : await getAllJobs(openId, "success");
        if (!stopped) setMadeJobs({ id: openId, jobs });
      } catch (caught) {
        if (stopped) return;
        setError(`Could not open batch ${openId}: ${(caught as Error).message}`);
        dropOpen();
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [openId, poke, refreshPast, dropOpen]);

  const open = (id: string | null) => {
    if (id !== openId) setBatch(null);
    openAddress(id);
  };

  const start = async (body: CreateBatchInput) => {
    setStarting(true);
    setError(null);
    try {
      const created = await createBatch(body);
      if (!("batch" in created)) throw new Error("The server answered a plan, not a batch: nothing was started.");
      open(created.batch.id);
      refreshPast();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setStarting(false);
    }
  };

  const act = async (action: BatchAction) => {
    if (!openId) return;
    setBusy(true);
    try {
      await changeBatch(openId, action);
      setPoke((n) => n + 1);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const rerun = async () => {
    if (!batch) return;
    try {
      const inputs = await getBatchInputs(batch.summary.id, { prompts: batch.summary.promptsFile, matrix: batch.summary.matrixFile });
      setBuilder((current) => ({ key: current.key + 1, inputs }));
      open(null);
    } catch (caught) {
      setError((caught as Error).message);
    }
  };

  return (
    <div className="mx-auto flex max-w-[1400px] flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-lg font-semibold tracking-tight text-zinc-900">Batches</h1>
          <p className="text-sm text-zinc-600">
            Run a prompt set across a matrix of image providers, models and parameters, within limits and a budget; the same runner as{" "}
            <code className="font-mono">parallaxr batch-run</code>.
          </p>
        </div>
        {openId && (
          <button
            type="button"
            onClick={() => {
              setBuilder((current) => ({ key: current.key + 1, inputs: null }));
              open(null);
            }}
            className={linkClass}
          >
            New batch
          </button>
        )}
      </div>

      <ErrorAlert message={error} onDismiss={() => setError(null)} />

      {openId ? (
        !batch ? (
          <p className="text-sm text-zinc-600">Loading the batch…</p>
        ) : (
          <div className="flex flex-col gap-4">
            <BatchStatus batch={batch} busy={busy} onAction={(action) => void act(action)} />
            {FINISHED_STATUSES.has(batch.summary.status) && <RunFolder summary={batch.summary} onRerun={() => void rerun()} />}
            <BatchGallery
              key={batch.summary.id}
              batchId={batch.summary.id}
              jobs={madeJobs?.id === batch.summary.id ? madeJobs.jobs : batch.jobs.filter((job) => job.status === "success")}
            />
          </div>
        )
      ) : (
        <div className="flex flex-col gap-6">
          <BatchBuilder key={builder.key} initial={builder.inputs} starting={starting} onStart={(body) => void start(body)} />
          <PastBatches batches={past} onOpen={open} />
        </div>
      )}
    </div>
  );
}

/** After the run: the counts and cost as run.json has them, the manifest to view or save, the folder as a zip, and a re-run. */
function RunFolder({ summary, onRerun }: { summary: BatchSummary; onRerun(): void }) {
  const [manifest, setManifest] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const showManifest = async () => {
    if (manifest !== null) {
      setManifest(null);
      return;
    }
    try {
      const response = await fetch(batchManifestUrl(summary.id), { cache: "no-store" });
      if (!response.ok) throw new Error(`run.json could not be read (${response.status}).`);
      setManifest(await response.text());
      setProblem(null);
    } catch (caught) {
      setProblem((caught as Error).message);
    }
  };
  return (
    <section aria-labelledby="batch-folder-heading" className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <h2 id="batch-folder-heading" className="text-sm font-semibold text-zinc-900">
        Run folder
      </h2>
      <p className="text-sm text-zinc-700">
        {summary.counts.success} succeeded, {summary.counts.failed} failed, {summary.counts.skipped} skipped · {summary.images}{" "}
        {summary.images === 1 ? "image" : "images"} ·{" "}
        {summary.actualCostUsd === null ? `estimated ${formatUsd(summary.estimatedCostUsd)}` : `cost ${formatUsd(summary.actualCostUsd)}`} ·
        manifest <span className="break-all font-mono text-[13px]">{summary.outDir.replace(/[\\/]+$/, "")}/run.json</span>
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" aria-expanded={manifest !== null} onClick={() => void showManifest()} className={linkClass}>
          {manifest === null ? "View run.json" : "Hide run.json"}
        </button>
        <a href={batchManifestUrl(summary.id)} download="run.json" className={linkClass}>
          Download run.json
        </a>
        <a href={batchZipUrl(summary.id)} download className={linkClass}>
          Download the run folder (.zip)
        </a>
        <button type="button" onClick={onRerun} className={linkClass}>
          Re-run with tweaks
        </button>
      </div>
      {problem && (
        <p role="alert" className="text-sm text-red-800">
          {problem}
        </p>
      )}
      {manifest !== null && (
        <pre
          aria-label="run.json"
          tabIndex={0}
          className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[12px] text-zinc-900"
        >
          {manifest}
        </pre>
      )}
    </section>
  );
}
