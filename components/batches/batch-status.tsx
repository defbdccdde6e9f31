"use client";

import { useRef, useState } from "react";
import { DialogDescription, DialogShell, DialogTitle } from "@/components/ui/dialog-shell";
import { formatUsd } from "@/lib/client/format-money";
import type { BatchAction } from "@/lib/api/batches";
import { FINISHED_STATUSES, formatElapsed, formatThroughput, statusLabel, type BatchView } from "./batch-view";
import { JOB_STATUS_ORDER, paramText, statusByModel } from "./gallery-filter";

/** The status table's column names: the spec's queued/running/success/fail/skip. */
const STATUS_HEADINGS: Record<(typeof JOB_STATUS_ORDER)[number], string> = {
  pending: "Queued",
  running: "Running",
  success: "Success",
  failed: "Failed",
  skipped: "Skipped",
};

const buttonClass =
  "rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50 disabled:cursor-not-allowed disabled:text-zinc-400";

/**
 * While a batch runs and after: the summary panel (status, elapsed, throughput, estimated and
 * actual cost, budget remaining) with Pause / Resume / Stop (Stop asks first, then the run is
 * cancelled and keeps what it made), and the live status table by provider and model.
 */
export function BatchStatus({ batch, busy, onAction }: { batch: BatchView; busy: boolean; onAction(action: BatchAction): void }) {
  const [askingStop, setAskingStop] = useState(false);
  const stopRef = useRef<HTMLButtonElement>(null);
  const { summary } = batch;
  const { counts } = summary;
  const finished = FINISHED_STATUSES.has(summary.status);
  const done = counts.success + counts.failed + counts.skipped;
  const { rows } = statusByModel(batch.jobs);
  // The All row is the server's count of every job; the rows above it count the jobs read (the first page).
  const total = { provider: "All", model: "", counts, total: counts.total };
  const partial = batch.jobs.length < batch.jobsTotal;
  const limits = summary.limits;
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="batch-summary-heading" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 id="batch-summary-heading" className="text-sm font-semibold text-zinc-900">
              {summary.runId}{" "}
              <span className="font-normal text-zinc-600">
                · {summary.promptsFile} × {summary.matrixFile}
              </span>
            </h2>
            <p aria-live="polite" className="text-sm text-zinc-800">
              <span className="font-medium">{statusLabel(summary.status)}</span>: {done} of {counts.total} jobs finished · {counts.success}{" "}
              succeeded · {counts.failed} failed · {counts.skipped} skipped
            </p>
          </div>
          {!finished && (
            <div className="flex gap-2">
              {summary.status === "paused" ? (
                <button type="button" disabled={busy} onClick={() => onAction("resume")} className={buttonClass}>
                  Resume
                </button>
              ) : (
                <button type="button" disabled={busy} onClick={() => onAction("pause")} className={buttonClass}>
                  Pause
                </button>
              )}
              <button
                ref={stopRef}
                type="button"
                disabled={busy}
                onClick={() => setAskingStop(true)}
                className={`${buttonClass} text-red-800 hover:bg-red-50`}
              >
                Stop
              </button>
            </div>
          )}
        </div>
        <dl aria-label="Summary" className="grid grid-cols-2 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-3 lg:grid-cols-6">
          <Figure label="Elapsed" value={formatElapsed(summary.elapsedSeconds)} />
          <Figure label="Throughput" value={formatThroughput(summary.jobsPerMinute)} />
          <Figure label="Estimated cost" value={formatUsd(summary.estimatedCostUsd)} />
          <Figure label="Actual cost" value={summary.actualCostUsd === null ? "not reported" : formatUsd(summary.actualCostUsd)} />
          <Figure
            label="Budget remaining"
            value={
              summary.budgetUsd === null || summary.budgetRemainingUsd === null
                ? "no budget"
                : `${formatUsd(summary.budgetRemainingUsd)} of ${formatUsd(summary.budgetUsd)}`
            }
          />
          <Figure
            label="Limits"
            value={`${limits.concurrency} at once${
              Object.keys(limits.provider_concurrency).length > 0
                ? ` (${Object.entries(limits.provider_concurrency)
                    .map(([provider, n]) => `${provider} ${n}`)
                    .join(", ")})`
                : ""
            }, budget mode ${summary.budgetMode}`}
          />
        </dl>
      </section>

      <section aria-labelledby="batch-status-heading" className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
        <h2 id="batch-status-heading" className="text-sm font-semibold text-zinc-900">
          Status
        </h2>
        <div className="overflow-x-auto">
          <table aria-labelledby="batch-status-heading" className="w-full min-w-[560px] text-left text-sm">
            <thead className="text-xs text-zinc-600">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Provider / model
                </th>
                {JOB_STATUS_ORDER.map((status) => (
                  <th key={status} scope="col" className="py-1 pr-3 text-right font-medium">
                    {STATUS_HEADINGS[status]}
                  </th>
                ))}
                <th scope="col" className="py-1 text-right font-medium">
                  Jobs
                </th>
              </tr>
            </thead>
            <tbody className="tabular-nums">
              {[...rows, total].map((row) => (
                <tr key={`${row.provider}/${row.model}`} className="border-t border-zinc-100">
                  <th scope="row" className="py-1 pr-3 font-mono text-[13px] font-normal text-zinc-900">
                    {row.model ? `${row.provider} / ${row.model}` : <span className="font-sans font-medium">All</span>}
                  </th>
                  {JOB_STATUS_ORDER.map((status) => (
                    <td
                      key={status}
                      className={`py-1 pr-3 text-right ${
                        row.counts[status] > 0 && status === "failed" ? "font-medium text-red-800" : "text-zinc-900"
                      }`}
                    >
                      {row.counts[status]}
                    </td>
                  ))}
                  <td className="py-1 text-right text-zinc-900">{row.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {partial && (
          <p className="text-xs text-zinc-600">
            The rows by provider and model count the first {batch.jobs.length.toLocaleString("en-US")} of{" "}
            {batch.jobsTotal.toLocaleString("en-US")} jobs; All counts every job.
          </p>
        )}
        <FailedJobs batch={batch} />
      </section>

      <DialogShell
        open={askingStop}
        onClose={() => setAskingStop(false)}
        className="w-[min(440px,94vw)] p-5"
        described
        closeOnOutsideClick={false}
        returnFocus={stopRef}
      >
        <div className="flex flex-col gap-3">
          <DialogTitle className="text-base font-semibold text-zinc-900">Stop this batch?</DialogTitle>
          <DialogDescription className="text-sm text-zinc-700">
            No new job starts; the run is marked cancelled. The {summary.images} images made so far, their receipts and run.json are kept.
          </DialogDescription>
          <div className="flex justify-end gap-2">
            <button type="button" onClick={() => setAskingStop(false)} className={buttonClass}>
              Keep running
            </button>
            <button
              type="button"
              onClick={() => {
                setAskingStop(false);
                onAction("cancel");
              }}
              className="rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800"
            >
              Stop batch
            </button>
          </div>
        </div>
      </DialogShell>
    </div>
  );
}

/** The failed jobs with their errors (as text), the first 20. */
function FailedJobs({ batch }: { batch: BatchView }) {
  const failed = batch.jobs.filter((job) => job.status === "failed");
  if (failed.length === 0) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-red-800">
        {failed.length} failed {failed.length === 1 ? "job" : "jobs"}
      </summary>
      <ul className="mt-1 flex flex-col gap-1">
        {failed.slice(0, 20).map((job) => (
          <li key={job.job_id} className="break-words text-zinc-800">
            <span className="font-mono text-xs">{job.job_id}</span> {paramText(job.params.provider)} / {paramText(job.params.model)}:{" "}
            {job.error ?? "failed"}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-600">{label}</dt>
      <dd className="font-medium tabular-nums text-zinc-900">{value}</dd>
    </div>
  );
}
