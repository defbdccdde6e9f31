"use client";

import { effectiveGrade } from "@/lib/client/column-summary";
import { formatLatency, formatTokenCount } from "@/lib/client/format-metrics";
import { formatUsd } from "@/lib/client/format-money";
import { gradeColor } from "@/lib/client/grade-color";
import { useRunStore, useShownCell } from "@/lib/client/run-store";
import { useFullCell } from "@/lib/client/use-full-cell";
import type { Cell } from "@/lib/client/run-types";
import { describeManualGrade, isGradable } from "./cell-metric";
import { PanelDialog } from "@/components/ui/panel-dialog";
import type { GridView } from "./grid-view";
import { ThumbsButton } from "./thumbs-button";
import { useCellActions } from "./use-cell-actions";

/** The cell a detail modal is open on. */
export type OpenCell = { row: number; runColumn: number | null; columnName: string };

type CellDialogProps = {
  target: OpenCell | null;
  /** The dataset row's values, shown as the cell's input. */
  rowValues: Record<string, string> | undefined;
  view: GridView;
  onClose(): void;
};

/**
 * A cell's full output and everything known about it: status, tokens, cost, latency, grades,
 * the error in full, warnings, cache, attempts, and the grader's output. Text only, never HTML.
 * It follows the store, so a re-run or a grade arriving while it is open shows at once.
 */
export function CellDialog({ target, rowValues, view, onClose }: CellDialogProps) {
  const cell = useShownCell(target?.row ?? -1, target?.runColumn ?? null);
  const title = target ? `Row ${target.row + 1}, ${target.columnName}` : "Cell";
  return (
    <PanelDialog
      open={target !== null}
      onClose={onClose}
      title={title}
      testId="cell-modal"
      widthClassName="w-[min(760px,calc(100vw-32px))]"
    >
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 text-sm text-zinc-800">
        {target && cell ? (
          <CellDetails cell={cell} view={view} target={`row ${target.row + 1}, ${target.columnName}`} rowValues={rowValues} />
        ) : (
          <p className="text-zinc-600">This cell has not run.</p>
        )}
      </div>
    </PanelDialog>
  );
}

function CellDetails({
  cell: shown,
  view,
  target,
  rowValues,
}: {
  cell: Cell;
  view: GridView;
  target: string;
  rowValues: Record<string, string> | undefined;
}) {
  // The grid holds the start of each output; the dialog reads the whole of this one.
  const full = useFullCell(shown, view.runId);
  const cell = full.cell;
  const actions = useCellActions(cell, view.runId);
  const estimated = cell.tokensEstimated ? "~" : "";
  const graderGrade = cell.grade;
  const counted = effectiveGrade(cell, view.gradeMode);
  const inputs = Object.entries(rowValues ?? {});
  const hasGrader = useRunStore((state) => state.run?.hasGrader ?? false);
  const graderModel = useRunStore((state) => state.run?.graderModel ?? null);

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-[13px]">
        <Term>Status</Term>
        <dd>
          {cell.status}
          {cell.finishReason ? <span className="text-zinc-500"> · finish reason {cell.finishReason}</span> : null}
        </dd>
        <Term>Tokens in | out</Term>
        <dd className="tabular-nums">
          {cell.tokensIn === null && cell.tokensOut === null
            ? "—"
            : `${estimated}${formatTokenCount(cell.tokensIn)} | ${estimated}${formatTokenCount(cell.tokensOut)}`}
          {cell.tokensIn !== null || cell.tokensOut !== null ? (
            <span className="text-zinc-500">
              {" "}
              ({cell.tokensIn?.toLocaleString("en") ?? "–"} in, {cell.tokensOut?.toLocaleString("en") ?? "–"} out
              {cell.tokensEstimated ? ", estimated" : ""})
            </span>
          ) : null}
        </dd>
        <Term>Cost</Term>
        <dd className="tabular-nums">
          {/* A call that used no tokens we know of (it failed, or never ran) has no cost to price. */}
          {cell.costUsd !== null ? formatUsd(cell.costUsd) : cell.tokensIn === null && cell.tokensOut === null ? "—" : "No price"}
          {cell.graderCostUsd !== null ? <span className="text-zinc-500"> · grader {formatUsd(cell.graderCostUsd)}</span> : null}
        </dd>
        {hasGrader && (
          <>
            <Term>Graded by</Term>
            <dd data-testid="cell-graded-by">
              {graderModel ? `${graderModel.provider} / ${graderModel.model}` : "this column's own model (an earlier run)"}
            </dd>
          </>
        )}
        <Term>Latency</Term>
        <dd className="tabular-nums">{cell.latencyMs === null ? "—" : formatLatency(cell.latencyMs)}</dd>
        <Term>Grade</Term>
        <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {counted !== null && <GradeChip grade={counted} />}
          <span>
            By hand: {describeManualGrade(cell.manualGrade)}
            {view.gradeMode === "grader" || cell.graderStatus !== null ? (
              <>
                {" · "}Grader: {graderGrade !== null ? graderGrade.toFixed(2) : (cell.graderStatus ?? "none")}
              </>
            ) : null}
            {cell.status === "malformed" && cell.manualGrade === null ? " · malformed counts as 0" : ""}
          </span>
          {!view.readOnly && view.runId !== null && isGradable(cell) && (
            <ThumbsButton
              manualGrade={cell.manualGrade}
              malformed={cell.status === "malformed"}
              target={target}
              pending={actions.pending === "grade"}
              error={actions.error}
              onGrade={actions.grade}
            />
          )}
        </dd>
        <Term>Cached</Term>
        <dd>{cell.cached ? "Yes: answered from the response cache" : "No"}</dd>
        <Term>Attempts</Term>
        <dd className="tabular-nums">{cell.attempts}</dd>
      </dl>

      {actions.error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-[13px] text-red-800">
          {actions.error}
        </p>
      )}

      {(cell.error || cell.errorCode) && (
        <Section title={cell.status === "error" ? "Error" : "Reason"}>
          <pre className="rounded-lg border border-red-200 bg-white px-3 py-2 font-sans text-[13px] break-words whitespace-pre-wrap text-red-800">
            {cell.error ?? ""}
            {cell.errorCode ? `${cell.error ? "\n" : ""}Code: ${cell.errorCode}` : ""}
          </pre>
        </Section>
      )}

      {cell.warnings.length > 0 && (
        <Section title="Warnings">
          <ul className="list-disc space-y-0.5 pl-5 text-[13px] text-amber-900">
            {cell.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </Section>
      )}

      {/* A failed call has no output to show: the error above says what happened. */}
      {(cell.output || !(cell.error || cell.errorCode)) && (
        <Section title="Output">
          <TextBox
            label="Output"
            text={cell.outputTruncated && cell.output !== null ? `${cell.output}…` : cell.output}
            empty={cell.status === "queued" || cell.status === "running" ? "Not finished yet." : "(empty output)"}
          />
          {full.loading && (
            <p role="status" className="text-xs text-zinc-500">
              Loading the whole output…
            </p>
          )}
          {full.error && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-[13px] text-red-800">
              Only the start of the output is shown: the rest could not be loaded ({full.error}).
            </p>
          )}
        </Section>
      )}

      {cell.outputParsed !== null && cell.outputParsed !== cell.output && (
        <Section title="Parsed response">
          <TextBox label="Parsed response" text={cell.outputParsed} empty="(empty)" />
        </Section>
      )}

      {(cell.graderOutput !== null || cell.graderError !== null) && (
        <Section title="Grader output">
          {cell.graderError && (
            <p className="mb-2 rounded-lg border border-red-500 bg-white px-3 py-2 text-[13px] text-red-800">
              Grader error: {cell.graderError}
            </p>
          )}
          {cell.graderOutput !== null && <TextBox label="Grader output" text={cell.graderOutput} empty="(empty)" />}
        </Section>
      )}

      {inputs.length > 0 && (
        <details className="text-[13px]">
          <summary className="cursor-pointer rounded text-xs font-semibold tracking-wide text-zinc-600 uppercase">Input row</summary>
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
            {inputs.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="font-mono text-accent-strong">{`{{${name}}}`}</dt>
                <dd className="break-words whitespace-pre-wrap">{value}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </div>
  );
}

function Term({ children }: { children: React.ReactNode }) {
  return <dt className="text-zinc-500">{children}</dt>;
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-1.5">
      <h3 className="text-xs font-semibold tracking-wide text-zinc-600 uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** Model text, as text: pre-wrapped and scrollable. */
function TextBox({ text, empty, label }: { text: string | null; empty: string; label: string }) {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={label}
      className="max-h-[40vh] overflow-y-auto rounded-lg border border-zinc-200 bg-canvas px-3 py-2 text-[13px] leading-[1.5] break-words whitespace-pre-wrap text-zinc-900"
    >
      {text ? text : <span className="text-zinc-500 italic">{empty}</span>}
    </div>
  );
}

function GradeChip({ grade }: { grade: number }) {
  const colors = gradeColor(grade);
  return (
    <span
      className="inline-flex h-5 items-center rounded border px-1.5 text-[11px] font-medium tabular-nums"
      style={{ background: colors.background, color: colors.text, borderColor: colors.border }}
    >
      {grade.toFixed(2)}
    </span>
  );
}
