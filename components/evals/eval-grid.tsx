"use client";

import { useMemo, useState } from "react";
import type { EvalDetail } from "@/lib/api/evals";
import { CheckCircleIcon, ErrorCircleIcon } from "@/components/ui/icons";

type EvalRunDetail = EvalDetail["runs"][number];
export type EvalResultDetail = EvalRunDetail["results"][number];

/** A result and the EvalRun (prompt on model) it belongs to: what the result dialog shows. */
export interface OpenedResult {
  run: EvalRunDetail;
  result: EvalResultDetail;
}

/** Pass, fail or error of one result, as words; the grid and the dialog show the same. */
export function resultVerdict(result: EvalResultDetail): "Pass" | "Fail" | "Error" {
  return result.error !== null ? "Error" : result.passed ? "Pass" : "Fail";
}

/** A result's verdict: an icon and its word, green, red or amber (the word carries it without colour). */
export function VerdictBadge({ result }: { result: EvalResultDetail }) {
  const verdict = resultVerdict(result);
  const style =
    verdict === "Pass"
      ? "border-emerald-300 bg-emerald-50 text-emerald-800"
      : verdict === "Fail"
        ? "border-red-300 bg-red-50 text-red-800"
        : "border-amber-300 bg-amber-50 text-amber-900";
  const Icon = verdict === "Pass" ? CheckCircleIcon : ErrorCircleIcon;
  return (
    <span className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold ${style}`}>
      <Icon aria-hidden="true" className="size-3.5" />
      {verdict}
    </span>
  );
}

// Rows drawn at once: a 10,000-case eval shows its first rows, and more on request.
const ROWS_AT_ONCE = 500;

const score = (value: number) => value.toFixed(2);
const percent = (value: number) => `${Math.round(value * 100)}%`;

/**
 * The results as a grid: a row per test case (and trial, when the config repeats), a column per
 * prompt on each model. Each cell shows its pass / fail / error and its metrics' scores, and opens
 * the result; a result still running shows "Pending". testCases: the names in config order when
 * the page knows them (the eval was run from here), else the rows come from the results.
 */
export function EvalGrid({
  detail,
  testCases,
  onOpen,
}: {
  detail: EvalDetail;
  testCases: string[] | null;
  onOpen(opened: OpenedResult): void;
}) {
  const { eval: summary, runs } = detail;
  const running = !["completed", "cancelled", "failed"].includes(summary.status);
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  const { names, byCell } = useMemo(() => {
    const names = new Set(testCases ?? []);
    const byCell = runs.map((run) => {
      const index = new Map<string, EvalResultDetail>();
      for (const result of run.results) {
        names.add(result.test_case);
        index.set(`${result.test_case}#${result.trial}`, result);
      }
      return index;
    });
    return { names: [...names], byCell };
  }, [runs, testCases]);
  const allRows = names.flatMap((name) => Array.from({ length: summary.repeat }, (_, index) => ({ name, trial: index + 1 })));
  const rows = allRows.slice(0, shown);
  const unnamed = Math.max(0, summary.testCases - names.length);
  const manyModels = summary.models.length > 1;

  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">
          Results: a row per test case{summary.repeat > 1 ? " and trial" : ""}, a column per prompt{manyModels ? " and model" : ""}
        </caption>
        <thead>
          <tr className="border-b border-zinc-200 bg-zinc-50 text-left align-bottom">
            <th scope="col" className="w-48 px-3 py-2 font-semibold text-zinc-900">
              Test case
            </th>
            {runs.map((run) => (
              <th key={run.run_id} scope="col" className="min-w-52 px-3 py-2 font-semibold text-zinc-900">
                <span className="block truncate">{run.prompt_name}</span>
                <span className="block truncate font-mono text-xs font-normal text-zinc-600">{run.model}</span>
                <span className="block text-xs font-normal text-zinc-700">
                  {run.results.length === 0
                    ? "No results yet"
                    : `${run.results.filter((result) => result.passed).length} of ${run.results.length} passed (${percent(run.pass_rate)})`}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.name}#${row.trial}`} className="border-b border-zinc-100 align-top last:border-b-0">
              <th scope="row" className="px-3 py-2 text-left font-medium text-zinc-900">
                <span className="block break-words">{row.name}</span>
                {summary.repeat > 1 && <span className="block text-xs font-normal text-zinc-600">trial {row.trial}</span>}
              </th>
              {runs.map((run, runIndex) => {
                const result = byCell[runIndex].get(`${row.name}#${row.trial}`);
                return (
                  <td key={run.run_id} className="px-2 py-1.5">
                    {result ? (
                      <button
                        type="button"
                        onClick={() => onOpen({ run, result })}
                        className="flex w-full flex-col items-start gap-1 rounded-md px-1.5 py-1 text-left hover:bg-zinc-50 focus-visible:bg-zinc-50"
                      >
                        <span className="sr-only">
                          {row.name}
                          {summary.repeat > 1 ? ` trial ${row.trial}` : ""}, {run.prompt_name} on {run.model}:{" "}
                        </span>
                        <VerdictBadge result={result} />
                        {result.error !== null ? (
                          <span className="line-clamp-2 text-xs text-amber-900">{result.error}</span>
                        ) : (
                          <span className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs tabular-nums text-zinc-700">
                            {Object.entries(result.metrics).map(([metric, value]) => (
                              <span key={metric}>
                                {metric} <span className="font-medium text-zinc-900">{score(value)}</span>
                              </span>
                            ))}
                          </span>
                        )}
                      </button>
                    ) : (
                      <span className="block px-1.5 py-1 text-xs text-zinc-600">{running ? "Pending…" : "Not run"}</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {allRows.length > rows.length && (
        <div className="flex items-center gap-3 border-t border-zinc-100 px-3 py-2 text-xs text-zinc-600">
          Showing {rows.length.toLocaleString("en-US")} of {allRows.length.toLocaleString("en-US")} rows.
          <button
            type="button"
            onClick={() => setShown((current) => current + ROWS_AT_ONCE)}
            className="font-medium text-accent-strong hover:underline"
          >
            Show {Math.min(ROWS_AT_ONCE, allRows.length - rows.length).toLocaleString("en-US")} more
          </button>
        </div>
      )}
      {unnamed > 0 && (
        <p className="border-t border-zinc-100 px-3 py-2 text-xs text-zinc-600">
          {unnamed} more test {unnamed === 1 ? "case" : "cases"} show here once their first result is in.
        </p>
      )}
    </div>
  );
}
