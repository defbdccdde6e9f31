"use client";

import { Fragment, useEffect, useId, useState } from "react";
import { formatTokenCount } from "@/lib/client/format-metrics";
import { formatUsd } from "@/lib/client/format-money";
import { estimateRun, type ModelEstimate, type RunEstimate } from "@/lib/client/estimate-api";
import type { CreateRunInput } from "@/lib/client/run-types";
import { ChevronDownIcon, PlanIcon } from "@/components/ui/icons";

/** Typing pauses shorter than this don't ask the server for a new plan. */
const PLAN_DEBOUNCE_MS = 400;

type RunPlanSummaryProps = {
  /** What Run would send, or null when there is nothing to plan yet (no prompt, no columns). */
  input: CreateRunInput | null;
  /** True while a run is active: the plan is not refreshed then. */
  frozen: boolean;
  /** While frozen, the plan the server made for the active run (null: not known, as after a reload). */
  runPlan?: RunEstimate | null;
};

type PlanState =
  | { kind: "idle" }
  | { kind: "loading"; previous: RunEstimate | null }
  | { kind: "ready"; plan: RunEstimate }
  | { kind: "error"; message: string };

/**
 * What the next run would do before it starts: "6 cells · ~84 input tokens · est. $0.0012",
 * the grading's part of it ("grading by judge / strict: est. $0.0009"), the models without a
 * price, and per model (and its grading) on "Details". Planned with `?dryRun=true`.
 */
export function RunPlanSummary({ input, frozen, runPlan = null }: RunPlanSummaryProps) {
  const [planned, setState] = useState<PlanState>({ kind: "idle" });
  const [expanded, setExpanded] = useState(false);
  const detailsId = useId();
  // The effect compares the request by value: a new object with the same content is no change.
  const requestKey = input ? JSON.stringify(input) : null;

  useEffect(() => {
    if (frozen) return;
    if (requestKey === null) {
      setState({ kind: "idle" });
      return;
    }
    const controller = new AbortController();
    setState((current) => ({
      kind: "loading",
      previous: current.kind === "ready" ? current.plan : current.kind === "loading" ? current.previous : null,
    }));
    const timer = setTimeout(() => {
      estimateRun(JSON.parse(requestKey) as CreateRunInput, controller.signal)
        .then((plan) => setState({ kind: "ready", plan }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ kind: "error", message: error instanceof Error ? error.message : String(error) });
        });
    }, PLAN_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [requestKey, frozen]);

  // While a run is active the plan shown is that run's (a draft's estimate still on its way when
  // Run was pressed showed another dataset's numbers for the whole run), kept while it is paused.
  const state: PlanState = frozen ? (runPlan ? { kind: "ready", plan: runPlan } : { kind: "idle" }) : planned;

  const plan = state.kind === "ready" ? state.plan : state.kind === "loading" ? state.previous : null;
  if (state.kind === "idle") return null;

  return (
    <div className="flex min-w-0 flex-col gap-1.5" data-testid="run-plan" aria-busy={state.kind === "loading"}>
      <div className="flex min-w-0 items-start gap-2">
        <PlanIcon aria-hidden="true" className="mt-[3px] size-3.5 shrink-0 text-zinc-500" />
        <p
          aria-live="polite"
          className={`min-w-0 flex-1 text-sm leading-5 tabular-nums ${state.kind === "loading" ? "text-zinc-500" : "text-zinc-800"}`}
        >
          {state.kind === "error" ? (
            <span className="text-zinc-600">No estimate: {state.message}</span>
          ) : plan ? (
            <span title={plan.models.map(describeModel).join("\n")}>
              {summarizeWork(plan)} · <span className="font-medium whitespace-nowrap text-zinc-900">{summarizeCost(plan)}</span>
            </span>
          ) : (
            "Estimating…"
          )}
        </p>
        {plan && plan.models.length > 0 && (
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded((value) => !value)}
            className="-my-0.5 inline-flex h-6 shrink-0 items-center gap-1 rounded px-1.5 text-xs font-medium text-accent-strong hover:bg-accent-soft"
          >
            {expanded ? "Hide details" : "Details"}
            <ChevronDownIcon aria-hidden="true" className={`size-3 ${expanded ? "rotate-180" : ""}`} />
          </button>
        )}
      </div>
      {plan && gradingOf(plan) && (
        <p className="text-xs text-zinc-600 tabular-nums" data-testid="run-plan-grading">
          {gradingOf(plan)}
        </p>
      )}
      {plan && plan.unpriced.length > 0 && (
        <p className="text-xs text-amber-800" title="These models have no price: set one in Settings → Prices.">
          <span className="font-medium">unpriced:</span> {plan.unpriced.join(", ")}
        </p>
      )}
      {plan && expanded && (
        <table id={detailsId} className="w-full text-left text-xs text-zinc-700 tabular-nums">
          <caption className="sr-only">Estimate per model</caption>
          <thead>
            <tr className="text-zinc-500">
              <th scope="col" className="py-0.5 pr-2 font-medium">
                Model
              </th>
              <th scope="col" className="py-0.5 pr-2 text-right font-medium">
                Cells
              </th>
              <th scope="col" className="py-0.5 pr-2 text-right font-medium">
                In
              </th>
              <th scope="col" className="py-0.5 pr-2 text-right font-medium">
                Out
              </th>
              <th scope="col" className="py-0.5 text-right font-medium">
                Est. cost
              </th>
            </tr>
          </thead>
          <tbody>
            {plan.models.map((model, index) => (
              <Fragment key={index}>
                <tr className="border-t border-zinc-100">
                  <th scope="row" className="max-w-[140px] truncate py-1 pr-2 font-normal text-zinc-900">
                    {model.provider} / {model.model}
                  </th>
                  <td className="py-1 pr-2 text-right">{model.cells}</td>
                  <td className="py-1 pr-2 text-right">~{formatTokenCount(model.inputTokens)}</td>
                  <td className="py-1 pr-2 text-right" title={OUTPUT_SOURCES[model.outputTokensSource]}>
                    {model.outputTokens === null ? "?" : `~${formatTokenCount(model.outputTokens)}`}
                  </td>
                  <td className={`py-1 text-right ${model.priced ? "" : "text-amber-800"}`}>
                    {model.costUsd === null ? (model.priced ? "unknown" : "unpriced") : formatUsd(model.costUsd)}
                  </td>
                </tr>
                {model.graderModel && (
                  <tr className="text-zinc-600">
                    <th scope="row" className="max-w-[140px] truncate py-1 pr-2 pl-3 font-normal">
                      grading by {model.graderModel.provider} / {model.graderModel.model}
                    </th>
                    <td className="py-1 pr-2 text-right">{model.cells}</td>
                    <td className="py-1 pr-2 text-right">~{formatTokenCount(model.graderInputTokens)}</td>
                    <td className="py-1 pr-2 text-right" title="Output tokens: the average of this grading model's earlier grades">
                      {model.graderOutputTokens === null ? "?" : `~${formatTokenCount(model.graderOutputTokens)}`}
                    </td>
                    <td className="py-1 text-right">{describeGradingCost(model)}</td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

const OUTPUT_SOURCES: Record<ModelEstimate["outputTokensSource"], string> = {
  maxTokens: "Output tokens: at most the column's max tokens",
  history: "Output tokens: the average of this model's earlier answers",
  unknown: "Output tokens unknown: set max tokens, or run once to learn",
};

/** "6 cells · ~84 input tokens". */
function summarizeWork(plan: RunEstimate): string {
  const inputTokens = plan.models.reduce((sum, model) => sum + model.inputTokens, 0);
  return `${plan.cells} ${plan.cells === 1 ? "cell" : "cells"} · ~${formatTokenCount(inputTokens)} input tokens`;
}

/** "est. $0.0012", or "at least $0.0012" when some model's cost is unknown. */
function summarizeCost(plan: RunEstimate): string {
  return plan.totalIsLowerBound ? `at least ${formatUsd(plan.totalCostUsd)}` : `est. ${formatUsd(plan.totalCostUsd)}`;
}

/** "grading by judge / strict: est. $0.0009 of it", or null for a run without a grader. */
function gradingOf(plan: RunEstimate): string | null {
  const graded = plan.models.filter((model) => model.graderModel !== null);
  if (graded.length === 0) return null;
  const names = [...new Set(graded.map((model) => `${model.graderModel!.provider} / ${model.graderModel!.model}`))];
  const cost = graded.reduce((sum, model) => sum + (model.graderCostUsd ?? model.graderLowerBoundUsd ?? 0), 0);
  const lowerBound = graded.some((model) => model.graderCostUsd === null);
  return `grading by ${names.join(", ")}: ${lowerBound ? "at least" : "est."} ${formatUsd(cost)} of it`;
}

/** The grading's cost in the details: its estimate, its floor, or why there is none. */
function describeGradingCost(model: ModelEstimate): string {
  if (model.graderCostUsd !== null) return formatUsd(model.graderCostUsd);
  if (model.graderLowerBoundUsd !== null) return `≥ ${formatUsd(model.graderLowerBoundUsd)}`;
  return "unpriced";
}

function describeModel(model: ModelEstimate): string {
  const cost = model.costUsd === null ? "cost unknown" : `est. ${formatUsd(model.costUsd)}`;
  return `${model.provider} / ${model.model}: ${model.cells} cells · ~${formatTokenCount(model.inputTokens)} input tokens · ${cost}`;
}
