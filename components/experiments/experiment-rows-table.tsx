"use client";

import { useState } from "react";
import type { Experiment, ExperimentRow } from "@/lib/api/experiments";

const STATUS_STYLE: Record<ExperimentRow["status"], string> = {
  pending: "bg-zinc-100 text-zinc-700",
  ok: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  warning: "bg-amber-50 text-amber-900 ring-amber-200",
  error: "bg-red-50 text-red-800 ring-red-200",
};

/** Long outputs show their first lines until opened, so every row's message stays in view. */
const PREVIEW_LINES = 4;
const PREVIEW_CHARS = 200;

function preview(output: string): string | null {
  const lines = output.split("\n");
  const short = lines.slice(0, PREVIEW_LINES).join("\n").slice(0, PREVIEW_CHARS);
  return short.length < output.length ? `${short}…` : null;
}

/**
 * The experiment's rows as the output CSV has them: the input columns, then status, tokens,
 * context window, output and message. Model output is shown as text, never as markup.
 */
export function ExperimentRowsTable({ experiment }: { experiment: Experiment }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">
          Rows of {experiment.experimentsFile}: {experiment.counts.ok} ok, {experiment.counts.warning} warning, {experiment.counts.error}{" "}
          error, {experiment.counts.pending} pending
        </caption>
        <thead className="bg-zinc-50 text-xs font-medium text-zinc-600">
          <tr>
            <th scope="col" className="px-3 py-2 text-right">
              #
            </th>
            {experiment.columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-mono">
                {column}
              </th>
            ))}
            <th scope="col" className="px-3 py-2">
              status
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              input_tokens
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              context_window
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              output_tokens
            </th>
            <th scope="col" className="w-80 min-w-72 px-3 py-2">
              output
            </th>
            <th scope="col" className="min-w-64 px-3 py-2">
              error_message
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 align-top">
          {experiment.rows.map((row) => (
            <RowLine key={row.number} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RowLine({ row }: { row: ExperimentRow }) {
  const [open, setOpen] = useState(false);
  const short = preview(row.output);
  const long = short !== null;
  return (
    <tr className={row.status === "error" ? "bg-red-50/40" : undefined}>
      <td className="px-3 py-2 text-right tabular-nums text-zinc-500">{row.number}</td>
      {row.values.map((value, index) => (
        <td key={index} className="max-w-60 truncate px-3 py-2 font-mono text-[13px] text-zinc-800" title={value}>
          {value}
        </td>
      ))}
      <td className="px-3 py-2">
        <span
          className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ring-transparent ${STATUS_STYLE[row.status]}`}
        >
          {row.status === "pending" ? "running…" : row.status}
        </span>
      </td>
      <td className="px-3 py-2 text-right tabular-nums">{row.inputTokens ?? ""}</td>
      <td className="px-3 py-2 text-right tabular-nums">{row.contextWindow ?? ""}</td>
      <td className="px-3 py-2 text-right tabular-nums">{row.outputTokens ?? ""}</td>
      <td className="px-3 py-2">
        <div className="whitespace-pre-wrap break-words font-mono text-[12px] leading-snug text-zinc-800">
          {open || !long ? row.output : short}
        </div>
        {long && (
          <button
            type="button"
            onClick={() => setOpen(!open)}
            aria-expanded={open}
            className="mt-1 text-xs font-medium text-accent-strong hover:underline"
          >
            {open ? "Show less" : `Show all ${row.output.length.toLocaleString("en-US")} characters`}
          </button>
        )}
      </td>
      <td className="px-3 py-2 text-[13px] text-zinc-700">{row.errorMessage}</td>
    </tr>
  );
}
