"use client";

import { DialogShell, DialogTitle } from "@/components/ui/dialog-shell";
import { CloseIcon } from "@/components/ui/icons";
import { formatUsd } from "@/lib/client/format-money";
import { VerdictBadge, type OpenedResult } from "./eval-grid";

/**
 * One result opened: the test case, prompt and model, the verdict, each metric's score, the input
 * sent and the model's output as plain text (never HTML), tokens, latency, cost and the error.
 */
export function ResultDialog({ opened, onClose }: { opened: OpenedResult | null; onClose(): void }) {
  return (
    <DialogShell
      open={opened !== null}
      onClose={onClose}
      className="flex max-h-[90vh] w-[min(860px,94vw)] flex-col"
      testId="eval-result-dialog"
    >
      {opened && <ResultBody opened={opened} onClose={onClose} />}
    </DialogShell>
  );
}

function ResultBody({ opened: { run, result }, onClose }: { opened: OpenedResult; onClose(): void }) {
  const threshold = run.config.evaluation_threshold;
  return (
    <>
      <div className="flex items-start gap-3 border-b border-zinc-200 px-5 py-3">
        <div className="min-w-0 flex-1">
          <DialogTitle className="text-base font-semibold text-zinc-900">
            {result.test_case}
            {result.trial > 1 || run.results.some((other) => other.trial > 1) ? `, trial ${result.trial}` : ""}
          </DialogTitle>
          <p className="text-sm text-zinc-600">
            {run.prompt_name} on <span className="font-mono">{run.model}</span> · run {run.run_id}
          </p>
        </div>
        <VerdictBadge result={result} />
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
        {result.error !== null && (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">Error: {result.error}</p>
        )}
        <section aria-labelledby="result-scores" className="flex flex-col gap-1.5">
          <h3 id="result-scores" className="text-sm font-semibold text-zinc-900">
            Scores
          </h3>
          {Object.keys(result.metrics).length === 0 ? (
            <p className="text-sm text-zinc-600">No scores.</p>
          ) : (
            <table className="w-full max-w-md text-sm">
              <thead className="sr-only">
                <tr>
                  <th scope="col">Metric</th>
                  <th scope="col">Score</th>
                  <th scope="col">Threshold</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(result.metrics).map(([metric, value]) => {
                  const needed = run.config.metric_thresholds?.[metric] ?? threshold;
                  return (
                    <tr key={metric} className="border-b border-zinc-100 last:border-b-0">
                      <th scope="row" className="py-1 pr-4 text-left font-medium text-zinc-800">
                        {metric}
                      </th>
                      <td className="py-1 pr-4 tabular-nums text-zinc-900">{value.toFixed(2)}</td>
                      <td className="py-1 text-xs text-zinc-600">
                        {value >= needed ? "at or above" : "below"} {needed.toFixed(2)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </section>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
          <Figure label="Tokens in" value={result.tokens_in.toLocaleString("en-US")} />
          <Figure label="Tokens out" value={result.tokens_out.toLocaleString("en-US")} />
          <Figure label="Latency" value={`${Math.round(result.latency_ms).toLocaleString("en-US")} ms`} />
          <Figure label="Cost" value={result.cost_usd === null ? "not priced" : formatUsd(result.cost_usd)} />
        </dl>
        <TextBlock title="Output" text={result.output} empty="No output." />
        {result.judge_reasoning != null && <TextBlock title="Judge's reasoning" text={result.judge_reasoning} empty="" />}
        <TextBlock title="Input" text={result.input_text} empty="No input." />
        {result.system_prompt !== "" && <TextBlock title="System prompt" text={result.system_prompt} empty="" />}
      </div>
    </>
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

/** Text shown as text: React escapes it, and pre keeps its lines. */
function TextBlock({ title, text, empty }: { title: string; text: string; empty: string }) {
  return (
    <section className="flex flex-col gap-1.5">
      <h3 className="text-sm font-semibold text-zinc-900">{title}</h3>
      {text === "" ? (
        <p className="text-sm text-zinc-600">{empty}</p>
      ) : (
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] text-zinc-900">
          {text}
        </pre>
      )}
    </section>
  );
}
