"use client";

import type { MatrixEval } from "@/lib/api/matrix";
import { DialogShell, DialogTitle } from "@/components/ui/dialog-shell";
import { CloseIcon } from "@/components/ui/icons";
import { formatUsd } from "@/lib/client/format-money";
import { EvalStatus } from "./eval-status";
import { costText, durationText, gradeText } from "./format-eval";

/**
 * One eval of the grid opened: its input, prompt version and model, status, tokens, cost,
 * duration and grade, and its output or error as plain text (React escapes it; never HTML).
 */
export function EvalDialog({ item, onClose }: { item: MatrixEval | null; onClose(): void }) {
  return (
    <DialogShell
      open={item !== null}
      onClose={onClose}
      className="flex max-h-[90vh] w-[min(860px,94vw)] flex-col"
      testId="matrix-eval-dialog"
    >
      {item && <EvalBody item={item} onClose={onClose} />}
    </DialogShell>
  );
}

function EvalBody({ item, onClose }: { item: MatrixEval; onClose(): void }) {
  const grade = gradeText(item.grade);
  return (
    <>
      <div className="flex items-start gap-3 border-b border-zinc-200 px-5 py-3">
        <div className="min-w-0 flex-1">
          <DialogTitle className="break-all text-base font-semibold text-zinc-900">
            {item.prompt} + {item.model} + {item.input}
          </DialogTitle>
          <p className="break-all font-mono text-xs text-zinc-600">{item.runId ?? "Not started yet"}</p>
        </div>
        <EvalStatus status={item.status} />
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="rounded-md p-1 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <CloseIcon aria-hidden="true" className="size-4" />
        </button>
      </div>
      <div className="flex min-h-0 flex-col gap-4 overflow-y-auto px-5 py-4">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-5">
          <Figure label="Tokens in" value={item.tokensInput === null ? "–" : item.tokensInput.toLocaleString("en-US")} />
          <Figure label="Tokens out" value={item.tokensOutput === null ? "–" : item.tokensOutput.toLocaleString("en-US")} />
          <Figure label="Cost" value={costText(item)} />
          <Figure label="Duration" value={durationText(item.durationSeconds)} />
          <Figure label="Grade" value={grade ?? "none"} />
          {item.graderCostUsd !== null && <Figure label="Grading cost" value={formatUsd(item.graderCostUsd)} />}
        </dl>
        {item.error !== null && (
          <section className="flex flex-col gap-1.5">
            <h3 className="text-sm font-semibold text-zinc-900">Error</h3>
            <pre className="whitespace-pre-wrap break-words rounded-md border border-amber-300 bg-amber-50 px-3 py-2 font-mono text-[13px] text-amber-900">
              {item.error}
            </pre>
          </section>
        )}
        {item.graderError !== null && (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">No grade: {item.graderError}</p>
        )}
        {item.metricScores && (
          <section className="flex flex-col gap-1.5">
            <h3 className="text-sm font-semibold text-zinc-900">
              Metrics: {item.metricScores.passed ? "all passed" : `failing ${item.metricScores.failing.join(", ")}`}
            </h3>
            <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
              {Object.entries(item.metricScores.scores).map(([metric, value]) => (
                <Figure key={metric} label={metric} value={value.toFixed(2)} />
              ))}
            </dl>
          </section>
        )}
        <section className="flex flex-col gap-1.5">
          <h3 className="text-sm font-semibold text-zinc-900">Output</h3>
          {item.output === null || item.output === "" ? (
            <p className="text-sm text-zinc-600">
              {item.status === "queued" || item.status === "running" ? "Not answered yet." : "No output."}
            </p>
          ) : (
            <pre className="max-h-[50vh] overflow-auto whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] text-zinc-900">
              {item.output}
            </pre>
          )}
        </section>
      </div>
    </>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-600">{label}</dt>
      <dd className="break-words font-medium tabular-nums text-zinc-900">{value}</dd>
    </div>
  );
}
