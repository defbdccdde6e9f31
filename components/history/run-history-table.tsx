"use client";

import type { PromptRunHistoryEntry } from "@/lib/api/types";
import { formatGrade, gradeOf } from "@/lib/client/compare-runs";
import { formatUsd } from "@/lib/client/format-money";
import { ExportRunMenu } from "@/components/results/export-run-menu";
import { describeRun, formatRowCount, formatRunDate, versionLabelParts } from "./describe-run";
import { describeGrading } from "./describe-grading";

type RunHistoryTableProps = {
  runs: PromptRunHistoryEntry[];
  currentRunId: string | null;
  /** The ids ticked for comparison (at most two). */
  selected: string[];
  onToggle(runId: string): void;
  onOpen(runId: string): void;
};

/** Status colours, each at least 4.5:1 on white. */
const STATUS_TONES: Record<string, string> = {
  completed: "text-green-700",
  failed: "text-red-700",
  cancelled: "text-zinc-600",
};

/**
 * The prompt's runs, newest first: a tick box to compare, the run, its status and rows, who graded
 * it, each model's average grade and cost, and Export and Open. Arrow keys move between rows,
 * staying on the same kind of control.
 */
export function RunHistoryTable({ runs, currentRunId, selected, onToggle, onOpen }: RunHistoryTableProps) {
  return (
    <table className="w-full border-separate border-spacing-0 text-left text-[13px]">
      <caption className="sr-only">Runs of this prompt, newest first</caption>
      <thead>
        <tr className="text-[11px] font-semibold tracking-wide text-zinc-600 uppercase">
          <HeaderCell className="w-[76px] text-center">Compare</HeaderCell>
          <HeaderCell className="w-[150px]">Version</HeaderCell>
          <HeaderCell className="w-[120px]">Started</HeaderCell>
          <HeaderCell className="w-[96px]">Status</HeaderCell>
          <HeaderCell className="min-w-[280px]">
            <span className="grid grid-cols-[minmax(0,1fr)_88px_72px] gap-x-3">
              <span>Model</span>
              <span className="text-right">Avg grade</span>
              <span className="text-right">Cost</span>
            </span>
          </HeaderCell>
          <HeaderCell className="w-[88px]">
            <span className="sr-only">Actions</span>
          </HeaderCell>
        </tr>
      </thead>
      <tbody onKeyDown={moveFocusBetweenRows}>
        {runs.map((run) => {
          const label = describeRun(run);
          const current = run.id === currentRunId;
          return (
            <tr
              key={run.id}
              data-testid="history-run-row"
              aria-current={current ? "true" : undefined}
              className={current ? "bg-accent-soft" : "hover:bg-zinc-50"}
            >
              <BodyCell className="text-center">
                <input
                  type="checkbox"
                  data-nav="compare"
                  checked={selected.includes(run.id)}
                  onChange={() => onToggle(run.id)}
                  aria-label={`Compare ${label}`}
                  className="size-4 cursor-pointer accent-accent-strong"
                />
              </BodyCell>
              <BodyCell className="max-w-[180px] text-zinc-900">
                <VersionLabel run={run} />
                {current && (
                  <span className="mt-1 inline-block rounded-full border border-accent-line bg-white px-1.5 py-px text-[10px] font-medium text-accent-strong">
                    shown
                  </span>
                )}
              </BodyCell>
              <BodyCell className="whitespace-nowrap text-zinc-700 tabular-nums">{formatRunDate(run.createdAt)}</BodyCell>
              <BodyCell>
                <span className={`block ${STATUS_TONES[run.status] ?? "text-accent-strong"}`}>{run.status}</span>
                <span className="block text-[11px] whitespace-nowrap text-zinc-600 tabular-nums">
                  <span className="sr-only">, </span>
                  {formatRowCount(run.rowCount)}
                </span>
              </BodyCell>
              <BodyCell>
                <RunModels models={run.models} grading={describeGrading(run)} />
              </BodyCell>
              <BodyCell>
                {/* One above the other: side by side they made the table wider than its dialog. */}
                <div className="flex flex-col items-end gap-1.5">
                  <ExportRunMenu runId={run.id} label={label} look="row" />
                  <button
                    type="button"
                    data-nav="open"
                    data-testid="history-open-button"
                    onClick={() => onOpen(run.id)}
                    aria-label={`Open ${label}`}
                    className="inline-flex h-7 items-center rounded-md border border-zinc-300 bg-white px-2.5 text-xs font-medium text-zinc-800 hover:border-accent hover:bg-accent-soft"
                  >
                    Open
                  </button>
                </div>
              </BodyCell>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** "summary v1" over the date that version first ran; read as "summary v1, 26 Nov 12:20". */
function VersionLabel({ run }: { run: PromptRunHistoryEntry }) {
  const { name, since } = versionLabelParts(run);
  return (
    <span data-testid="history-version">
      <span className="block truncate font-medium" title={name}>
        {name}
      </span>
      {since && (
        <span className="block text-[11px] text-zinc-600 tabular-nums">
          <span className="sr-only">, </span>
          {since}
        </span>
      )}
    </span>
  );
}

/** Who graded the run, once, then one line per model: its average grade and cost. */
function RunModels({ models, grading }: { models: PromptRunHistoryEntry["models"]; grading: string }) {
  if (models.length === 0) return <span className="text-zinc-500">no models</span>;
  return (
    <>
      <p className="mb-0.5 truncate text-[11px] text-zinc-600" data-testid="history-graded-by" title={grading}>
        {grading}
      </p>
      <ul className="flex flex-col gap-0.5">
        {models.map((model) => {
          const grade = gradeOf(model);
          return (
            <li key={model.column} className="grid grid-cols-[minmax(0,1fr)_88px_72px] items-baseline gap-x-3">
              <span className="truncate text-zinc-800" title={`${model.provider} / ${model.model}`}>
                {model.model}
              </span>
              <span className="text-right tabular-nums">
                {grade === null ? (
                  <span className="text-zinc-500">
                    {formatGrade(null)} <span className="text-[11px]">no grades</span>
                  </span>
                ) : (
                  <span className="font-medium text-zinc-900">{formatGrade(grade)}</span>
                )}
              </span>
              <span className="text-right text-zinc-700 tabular-nums">
                {formatUsd(model.totalCostUsd)}
                {model.graderCostUsd !== null && (
                  <span className="block text-[11px] text-zinc-600" title="The grader's calls, included in the cost above">
                    grader {formatUsd(model.graderCostUsd)}
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

function HeaderCell({ className = "", children }: { className?: string; children: React.ReactNode }) {
  return (
    <th scope="col" className={`sticky top-0 z-10 border-b border-zinc-200 bg-white px-2.5 py-2 font-semibold ${className}`}>
      {children}
    </th>
  );
}

function BodyCell({ className = "", children }: { className?: string; children: React.ReactNode }) {
  return <td className={`border-b border-zinc-100 px-2.5 py-2 align-top ${className}`}>{children}</td>;
}

/** ArrowUp/ArrowDown (and Home/End) move to the same control in another row. */
function moveFocusBetweenRows(event: React.KeyboardEvent<HTMLTableSectionElement>) {
  const target = event.target as HTMLElement;
  const nav = target.dataset.nav;
  if (!nav) return;
  const rows = Array.from(event.currentTarget.rows);
  const index = rows.findIndex((row) => row.contains(target));
  const nextIndex =
    event.key === "ArrowDown"
      ? index + 1
      : event.key === "ArrowUp"
        ? index - 1
        : event.key === "Home"
          ? 0
          : event.key === "End"
            ? rows.length - 1
            : null;
  if (nextIndex === null) return;
  const next = rows[nextIndex]?.querySelector<HTMLElement>(`[data-nav="${nav}"]`);
  if (!next) return;
  event.preventDefault();
  next.focus();
}
