"use client";

import { useMemo, useState } from "react";
import type { MatrixDetail, MatrixEval } from "@/lib/api/matrix";
import { EvalStatus } from "./eval-status";
import { costText, durationText, gradeText, tokensText } from "./format-eval";

// Rows drawn at once: a 1,000-input matrix shows its first rows, and more on request.
const ROWS_AT_ONCE = 200;

/** The key of a grid cell: prompt version, model and input. */
export function evalKey(prompt: string, model: string, input: string): string {
  return JSON.stringify([prompt, model, input]);
}

/**
 * The prompts x models x inputs grid: a row per input, a column per prompt version on each model
 * (the versions head groups of model columns). Each cell shows its status as icon and word, its
 * tokens, cost, duration and grade, and opens the eval; one not started yet says so.
 */
export function MatrixGrid({ detail, onOpen }: { detail: MatrixDetail; onOpen(item: MatrixEval): void }) {
  const { plan } = detail.matrix;
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  const byKey = useMemo(() => new Map(detail.evals.map((item) => [evalKey(item.prompt, item.model, item.input), item])), [detail.evals]);
  const inputs = plan.inputs.slice(0, shown);
  const columns = plan.prompts.flatMap((prompt) => plan.models.map((model) => ({ prompt, model })));
  // The last model column of a prompt version closes its group, but not the table's last column.
  const groupEnd = (index: number) => index % plan.models.length === plan.models.length - 1 && index < columns.length - 1;

  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Matrix: a row per input, a column per prompt version on each model</caption>
        <thead>
          <tr className="border-b border-zinc-200 bg-zinc-50 text-left">
            <td rowSpan={2} className="w-44 border-r border-zinc-200 px-3 py-2 align-bottom text-xs font-medium text-zinc-600">
              Input ↓ · prompt →
            </td>
            {plan.prompts.map((prompt) => (
              <th
                key={prompt}
                scope="colgroup"
                colSpan={plan.models.length}
                className="border-r border-zinc-200 px-3 py-1.5 font-mono text-[13px] font-semibold text-zinc-900 last:border-r-0"
              >
                {prompt}
              </th>
            ))}
          </tr>
          <tr className="border-b border-zinc-200 bg-zinc-50 text-left">
            {columns.map(({ prompt, model }, index) => (
              <th
                key={`${prompt}\u0000${model}`}
                scope="col"
                className={`min-w-44 px-3 py-1.5 font-mono text-xs font-medium text-zinc-700 ${groupEnd(index) ? "border-r border-zinc-200" : ""}`}
              >
                <span className="sr-only">{prompt} on </span>
                {model}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {inputs.map((input) => (
            <tr key={input} className="border-b border-zinc-100 align-top last:border-b-0">
              <th scope="row" className="border-r border-zinc-200 px-3 py-2 text-left font-mono text-[13px] font-medium text-zinc-900">
                <span className="block break-all">{input}</span>
              </th>
              {columns.map(({ prompt, model }, index) => {
                const item = byKey.get(evalKey(prompt, model, input));
                return (
                  <td key={`${prompt}\u0000${model}`} className={`px-1.5 py-1.5 ${groupEnd(index) ? "border-r border-zinc-100" : ""}`}>
                    {item ? (
                      <Cell item={item} onOpen={onOpen} />
                    ) : (
                      <span className="block px-1.5 py-1 text-xs text-zinc-600">Not planned</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {plan.inputs.length > inputs.length && (
        <div className="flex items-center gap-3 border-t border-zinc-100 px-3 py-2 text-xs text-zinc-600">
          Showing {inputs.length.toLocaleString("en-US")} of {plan.inputs.length.toLocaleString("en-US")} inputs.
          <button
            type="button"
            onClick={() => setShown((current) => current + ROWS_AT_ONCE)}
            className="font-medium text-accent-strong hover:underline"
          >
            Show {Math.min(ROWS_AT_ONCE, plan.inputs.length - inputs.length).toLocaleString("en-US")} more
          </button>
        </div>
      )}
    </div>
  );
}

function Cell({ item, onOpen }: { item: MatrixEval; onOpen(item: MatrixEval): void }) {
  const grade = gradeText(item.grade);
  // A queued or running eval has no figures yet: its status says all there is.
  const finished = item.status !== "queued" && item.status !== "running";
  return (
    <button
      type="button"
      onClick={() => onOpen(item)}
      className="flex w-full flex-col items-start gap-1 rounded-md px-1.5 py-1 text-left hover:bg-zinc-50 focus-visible:bg-zinc-50"
    >
      <span className="sr-only">
        {item.input}, {item.prompt} on {item.model}:{" "}
      </span>
      <EvalStatus status={item.status} />
      {finished && (
        <span className="flex flex-col gap-0.5 text-xs tabular-nums text-zinc-700">
          <span>{tokensText(item)}</span>
          <span>
            {costText(item)} · {durationText(item.durationSeconds)}
            {grade !== null && (
              <>
                {" "}
                · grade <span className="font-medium text-zinc-900">{grade}</span>
              </>
            )}
          </span>
          {item.error !== null && <span className="line-clamp-2 break-all text-amber-900">{item.error}</span>}
        </span>
      )}
    </button>
  );
}
