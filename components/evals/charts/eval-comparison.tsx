"use client";

import { useMemo } from "react";
import type { EvalDetail } from "@/lib/api/evals";
import { compareEvalRuns } from "@/lib/core/eval/stats/compare-eval-runs";
import { runLabels } from "@/lib/formats/eval-exports/charts/chart-data";
import { comparisonText, type ComparisonText } from "@/lib/formats/eval-exports/charts/comparison-text";

/**
 * Every EvalRun paired with the first (the config's first prompt on its first model), as
 * comparison.md pairs them: the difference in pass rate with Newcombe's interval and McNemar's p,
 * each metric's mean paired difference with its bootstrap interval, each figure's standard error,
 * the cases a difference that size would need, and "not distinguishable" when the interval covers 0.
 */
export function EvalComparison({ detail }: { detail: EvalDetail }) {
  const texts = useMemo(() => comparisonTexts(detail.runs), [detail.runs]);
  if (detail.runs.length < 2) {
    return (
      <section aria-label="Comparison" className="text-sm text-zinc-600">
        <p>One prompt on one model ran, so there is nothing to compare. Add a second prompt or model to the config to compare them.</p>
      </section>
    );
  }
  return (
    <section aria-label="Comparison" className="flex flex-col gap-6">
      {texts.map((text) => (
        <article key={text.heading} className="flex flex-col gap-2" data-comparison={text.heading}>
          <h3 className="text-base font-semibold text-zinc-900">{text.heading}</h3>
          <p className="text-sm text-zinc-600">{text.pairedOn}</p>
          {/* Focusable, so that a keyboard can scroll a table wider than the screen. */}
          <div
            className="overflow-x-auto rounded-lg border border-zinc-200 bg-white"
            role="region"
            aria-label={`Paired comparison table: ${text.heading}`}
            tabIndex={0}
          >
            <table className="w-full border-collapse text-left text-[13px]">
              <caption className="sr-only">{`Paired comparison: ${text.heading}`}</caption>
              <thead className="bg-zinc-50 text-zinc-700">
                <tr>
                  {[
                    "Measure",
                    `${text.baselineLabel} (baseline)`,
                    text.candidateLabel,
                    "Difference",
                    "95% interval",
                    "Verdict",
                    "Cases needed",
                  ].map((heading) => (
                    <th key={heading} scope="col" className="px-3 py-2 font-medium">
                      {heading}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {text.rows.map((row) => (
                  <tr key={row.measure} className="border-t border-zinc-200 align-top">
                    <th scope="row" className="px-3 py-2 font-medium text-zinc-800">
                      {row.measure}
                    </th>
                    <td className="px-3 py-2 tabular-nums">{row.baseline}</td>
                    <td className="px-3 py-2 tabular-nums">{row.candidate}</td>
                    <td className="px-3 py-2 tabular-nums">{row.difference}</td>
                    <td className="px-3 py-2 tabular-nums">{row.interval}</td>
                    <td className={`px-3 py-2 ${row.distinguishable ? "font-medium text-zinc-900" : "font-semibold text-amber-800"}`}>
                      {row.verdict}
                    </td>
                    <td className="px-3 py-2 tabular-nums">{row.casesNeeded}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="flex list-disc flex-col gap-1 pl-5 text-sm text-zinc-800">
            {text.rows.map((row) => (
              <li key={row.measure} data-verdict={row.distinguishable ? "distinguishable" : "not distinguishable"}>
                <span className="font-medium">{row.measure}:</span> {row.sentence} <span className="text-zinc-600">{row.method}</span>
              </li>
            ))}
          </ul>
        </article>
      ))}
      <p className="text-xs text-zinc-600">
        Cases needed: test cases a difference of the observed size would need to be found 4 times in 5 (80% power, alpha 0.05). Standard
        errors are clustered by test case when cases ran several trials.
      </p>
    </section>
  );
}

/** Each run after the first, compared with the first on the test cases both ran. */
function comparisonTexts(runs: EvalDetail["runs"]): ComparisonText[] {
  if (runs.length < 2) return [];
  const labels = runLabels(runs);
  return runs.slice(1).map((run, index) => comparisonText(compareEvalRuns(runs[0], run), labels[index + 1], labels[0]));
}
