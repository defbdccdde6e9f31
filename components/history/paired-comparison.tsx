"use client";

import { useEffect, useMemo, useState } from "react";
import { getRunGrades, type RunGrades } from "@/lib/client/history-api";
import { comparePairedRuns, type PairedModelComparison } from "@/lib/core/history/paired-run-comparison";

type PairedComparisonProps = {
  beforeId: string;
  afterId: string;
  beforeLabel: string;
  afterLabel: string;
};

type Loaded = { status: "loading" } | { status: "failed"; message: string } | { status: "loaded"; before: RunGrades; after: RunGrades };

/**
 * The two runs paired by dataset row, per model: the difference with its 95% interval, each side
 * with its standard error, the McNemar p for pass/fail grades, the cases a difference this size
 * would need, and "not distinguishable" when the interval covers 0 (or McNemar p >= 0.05). Runs on different datasets
 * say why they cannot be paired.
 */
export function PairedComparison({ beforeId, afterId, beforeLabel, afterLabel }: PairedComparisonProps) {
  const key = `${beforeId}|${afterId}`;
  const [loaded, setLoaded] = useState<Loaded & { key?: string }>({ status: "loading" });
  useEffect(() => {
    let current = true;
    Promise.all([getRunGrades({ runId: beforeId }), getRunGrades({ runId: afterId })]).then(
      ([before, after]) => current && setLoaded({ status: "loaded", before, after, key }),
      (error: Error) => current && setLoaded({ status: "failed", message: error.message, key }),
    );
    return () => {
      current = false;
    };
  }, [beforeId, afterId, key]);
  const state: Loaded = loaded.key === key ? loaded : { status: "loading" };
  const comparison = useMemo(() => {
    if (loaded.key !== key || loaded.status !== "loaded") return null;
    if (loaded.before.tooMany || loaded.after.tooMany) {
      return { paired: false as const, reason: "These runs have too many cells to pair here (more than 20,000)." };
    }
    return comparePairedRuns(loaded.before, loaded.after);
  }, [loaded, key]);

  return (
    <section aria-label="Paired comparison" className="flex min-w-0 flex-col gap-1.5 md:col-span-2" data-testid="paired-comparison">
      <h4 className="text-xs font-semibold text-zinc-700">
        Paired by dataset row · before {beforeLabel}, after {afterLabel}
      </h4>
      {state.status === "loading" && <p className="text-xs text-zinc-600">Pairing the runs’ grades…</p>}
      {state.status === "failed" && <p className="text-xs text-red-700">Could not read the runs’ grades: {state.message}</p>}
      {comparison && !comparison.paired && <p className="text-xs text-zinc-700">Not paired: {comparison.reason}</p>}
      {comparison?.paired && comparison.models.length === 0 && (
        <p className="text-xs text-zinc-600">No model has grades on the same rows in both runs.</p>
      )}
      {comparison?.paired && comparison.models.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full border-collapse text-left text-[12px]">
            <caption className="sr-only">
              Paired difference per model, {afterLabel} minus {beforeLabel}, with its 95% interval
            </caption>
            <thead>
              <tr className="border-b border-zinc-200 text-[11px] font-semibold tracking-wide text-zinc-600 uppercase">
                <th scope="col" className="px-2 py-1.5">
                  Model
                </th>
                <th scope="col" className="px-2 py-1.5 text-right whitespace-nowrap">
                  Before ± SE
                </th>
                <th scope="col" className="px-2 py-1.5 text-right whitespace-nowrap">
                  After ± SE
                </th>
                <th scope="col" className="px-2 py-1.5 text-right whitespace-nowrap">
                  Difference [95% CI]
                </th>
                <th scope="col" className="px-2 py-1.5 text-right">
                  McNemar p
                </th>
                <th scope="col" className="px-2 py-1.5 text-right whitespace-nowrap">
                  Cases for 80% power
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Verdict
                </th>
              </tr>
            </thead>
            <tbody>
              {comparison.models.map((model) => (
                <PairedRow key={`${model.provider}/${model.model}`} model={model} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function PairedRow({ model }: { model: PairedModelComparison }) {
  const percent = model.kind === "pass rate";
  const value = (number: number) => (percent ? `${(number * 100).toFixed(1)}%` : number.toFixed(2));
  const signed = (number: number) => (percent ? `${signedFixed(number * 100, 1)} pts` : signedFixed(number, 2));
  return (
    <tr className="border-b border-zinc-100 last:border-0" data-testid="paired-row">
      <th scope="row" className="px-2 py-1.5 font-medium text-zinc-900">
        {model.model}
        <span className="block text-[11px] font-normal text-zinc-600">
          {model.kind}, {model.pairedRows} rows
        </span>
      </th>
      <td className="px-2 py-1.5 text-right whitespace-nowrap tabular-nums">
        {value(model.before.value)} ± {value(model.before.standard_error)}
      </td>
      <td className="px-2 py-1.5 text-right whitespace-nowrap tabular-nums">
        {value(model.after.value)} ± {value(model.after.standard_error)}
      </td>
      <td className="px-2 py-1.5 text-right whitespace-nowrap tabular-nums" data-testid="paired-interval">
        {signed(model.difference)} [{signed(model.interval.low)}, {signed(model.interval.high)}]
      </td>
      <td className="px-2 py-1.5 text-right tabular-nums" title={model.mcnemarP === null ? "" : "exact McNemar test"}>
        {model.mcnemarP === null ? "—" : model.mcnemarP < 0.001 ? "<0.001" : model.mcnemarP.toFixed(3)}
      </td>
      <td className="px-2 py-1.5 text-right tabular-nums">{model.casesNeeded ?? "—"}</td>
      <td className="px-2 py-1.5 whitespace-nowrap" data-testid="paired-verdict">
        {model.distinguishable ? (
          <span className={model.difference > 0 ? "font-medium text-green-700" : "font-medium text-red-700"}>
            {model.difference > 0 ? "after higher" : "after lower"}
          </span>
        ) : (
          <span className="text-zinc-700">not distinguishable</span>
        )}
      </td>
    </tr>
  );
}

function signedFixed(number: number, digits: number): string {
  const text = Math.abs(number).toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return `${number > 0 ? "+" : "−"}${text}`;
}
