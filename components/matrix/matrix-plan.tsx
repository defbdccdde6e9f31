"use client";

import { useRef, useState } from "react";
import type { MatrixPlanResponse } from "@/lib/api/matrix";
import { confirmationQuestion, estimatedCostText } from "@/lib/core/matrix/plan-matrix";
import { ModalDialog } from "@/components/ui/modal-dialog";

const count = (value: number) => value.toLocaleString("en-US");

/** The estimate's words for the whole matrix, as the CLI prints it: an unpriced model is left out and named, never $0. */
export function planCostText(plan: MatrixPlanResponse): string {
  return estimatedCostText({ costUsd: plan.estimate.costUsd, models: plan.models.length, unpricedModels: plan.estimate.unpricedModels });
}

/**
 * The plan of a dry run: how many prompt versions, models, inputs and evals, and per model its
 * evals, estimated tokens and cost (unknown for a model without a price); then Run. Above 100
 * evals Run asks the spec's question first ("This will run 120 evals. Estimated cost: $X.
 * Continue? [y/N]") in a dialog whose default answer, as [y/N] says, is no.
 */
export function MatrixPlanView({ plan, starting, onRun }: { plan: MatrixPlanResponse; starting: boolean; onRun(): void }) {
  const [asking, setAsking] = useState(false);
  const noRef = useRef<HTMLButtonElement>(null);
  const question = confirmationQuestion({
    evals: plan.evals,
    models: plan.models.length,
    inputTokens: plan.estimate.inputTokens,
    outputTokens: plan.estimate.outputTokens,
    costUsd: plan.estimate.costUsd,
    unpricedModels: plan.estimate.unpricedModels,
  });

  return (
    <section
      aria-labelledby="matrix-plan-heading"
      className="flex flex-col gap-3 rounded-lg border border-accent-line bg-accent-soft px-4 py-3"
    >
      <h2 id="matrix-plan-heading" className="text-sm font-semibold text-zinc-900">
        Plan
      </h2>
      <p className="text-sm text-zinc-800">
        {count(plan.prompts.length)} prompt {plan.prompts.length === 1 ? "version" : "versions"} × {count(plan.models.length)}{" "}
        {plan.models.length === 1 ? "model" : "models"} × {count(plan.inputs.length)} {plan.inputs.length === 1 ? "input" : "inputs"} ={" "}
        <strong>
          {count(plan.evals)} {plan.evals === 1 ? "eval" : "evals"}
        </strong>
        , 3 at a time. Estimated cost: <strong>{planCostText(plan)}</strong>.
      </p>
      <div className="overflow-x-auto rounded-md border border-zinc-200 bg-white">
        <table className="w-full text-sm">
          <caption className="sr-only">Estimate per model</caption>
          <thead>
            <tr className="border-b border-zinc-200 bg-zinc-50 text-left text-xs text-zinc-700">
              <th scope="col" className="px-3 py-1.5 font-semibold">
                Model
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-semibold">
                Evals
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-semibold">
                Input tokens
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-semibold">
                Output tokens
              </th>
              <th scope="col" className="px-3 py-1.5 text-right font-semibold">
                Estimated cost
              </th>
            </tr>
          </thead>
          <tbody>
            {plan.estimate.models.map((model) => (
              <tr key={model.model} className="border-b border-zinc-100 last:border-b-0">
                <th scope="row" className="px-3 py-1.5 text-left font-mono text-[13px] font-medium text-zinc-900">
                  {model.model}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">{count(model.evals)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{count(model.inputTokens)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{count(model.outputTokens)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">
                  {model.costUsd === null ? <span className="text-amber-900">unknown (no price)</span> : `$${model.costUsd.toFixed(4)}`}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-t border-zinc-200 font-semibold">
              <th scope="row" className="px-3 py-1.5 text-left">
                Total
              </th>
              <td className="px-3 py-1.5 text-right tabular-nums">{count(plan.evals)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{count(plan.estimate.inputTokens)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{count(plan.estimate.outputTokens)}</td>
              <td className="px-3 py-1.5 text-right tabular-nums">{planCostText(plan)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="text-xs text-zinc-600">
        Input tokens are estimated from each rendered prompt (characters / 4), output tokens at 1,000 per eval.
      </p>
      <button
        type="button"
        disabled={starting}
        onClick={() => (plan.needsConfirmation ? setAsking(true) : onRun())}
        className="self-start rounded-md bg-accent-strong px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-strong/90 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600"
      >
        {starting ? "Starting…" : `Run ${count(plan.evals)} ${plan.evals === 1 ? "eval" : "evals"}`}
      </button>
      <ModalDialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Run this matrix?"
        description={question}
        initialFocus={noRef}
        testId="matrix-confirm-dialog"
        footer={
          <>
            <button
              ref={noRef}
              type="button"
              onClick={() => setAsking(false)}
              className="h-8 rounded-lg border border-zinc-300 bg-white px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
            >
              No
            </button>
            <button
              type="button"
              onClick={() => {
                setAsking(false);
                onRun();
              }}
              className="h-8 rounded-lg bg-accent-strong px-4 text-sm font-medium text-white hover:bg-accent-strong/90"
            >
              Yes, run {count(plan.evals)} evals
            </button>
          </>
        }
      />
    </section>
  );
}
