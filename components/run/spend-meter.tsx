"use client";

import { formatUsd } from "@/lib/client/format-money";
import { useRunStore } from "@/lib/client/run-store";

/**
 * What the run on screen has spent, its models' answers and its grader's calls together:
 * "$0.0021 of $0.01" with a bar when it has a budget, else "$0.0021"; with a grader, the two
 * the grader's part apart ("(grader $0.0012)", the models' in its tooltip); notes when some answered cells have no known cost.
 */
export function SpendMeter() {
  const spent = useRunStore((state) => state.run?.spentUsd ?? null);
  const budget = useRunStore((state) => state.run?.budgetUsd ?? null);
  const someUnknown = useRunStore((state) => state.unpricedCount > 0);
  const hasGrader = useRunStore((state) => state.run?.hasGrader ?? false);
  const generatorSpent = useRunStore((state) => state.run?.generatorSpentUsd ?? 0);
  const graderSpent = useRunStore((state) => state.run?.graderSpentUsd ?? 0);
  if (spent === null) return null;

  const hasBudget = budget !== null && budget > 0;
  const ratio = hasBudget ? Math.min(1, spent / budget) : 0;
  const over = hasBudget && spent >= budget;
  const text = hasBudget ? `${formatUsd(spent)} of ${formatUsd(budget)}` : formatUsd(spent);

  return (
    <div className="flex min-w-0 shrink items-center gap-2 text-sm text-zinc-700 tabular-nums" data-testid="spend-meter">
      <span className="shrink-0 text-xs font-medium tracking-wide text-zinc-500 uppercase">Spent</span>
      {hasBudget ? (
        <div
          role="meter"
          aria-label="Spend against budget"
          aria-valuemin={0}
          aria-valuemax={budget}
          aria-valuenow={Math.min(spent, budget)}
          aria-valuetext={`${text}${over ? ", budget reached" : ""}`}
          className="h-1.5 w-16 shrink-0 overflow-hidden rounded-full bg-zinc-200"
        >
          <div
            className={`h-full rounded-full ${over ? "bg-amber-500" : "bg-emerald-500"}`}
            style={{ width: `${Math.max(ratio * 100, spent > 0 ? 4 : 0)}%` }}
          />
        </div>
      ) : null}
      <span className={`shrink-0 ${over ? "font-medium text-amber-800" : ""}`}>{text}</span>
      {hasGrader && (
        <span
          data-testid="spend-split"
          className="shrink-0 text-xs text-zinc-500"
          title={`Models ${formatUsd(generatorSpent)}, grader ${formatUsd(graderSpent)}: the budget counts both.`}
        >
          (grader {formatUsd(graderSpent)})
        </span>
      )}
      {someUnknown && (
        <span
          className="truncate text-xs text-amber-700"
          title="Some answered cells have no price for their model; add one in Settings → Prices."
        >
          cost unknown for some cells
        </span>
      )}
    </div>
  );
}
