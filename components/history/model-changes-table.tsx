"use client";

import {
  formatCostChange,
  formatGrade,
  formatGradeChange,
  formatLatencyChange,
  gradeOf,
  type ChangeTone,
  type FormattedChange,
  type ModelChange,
} from "@/lib/client/compare-runs";
import { formatLatency } from "@/lib/client/format-metrics";
import { formatUsd } from "@/lib/client/format-money";

type ModelChangesTableProps = {
  changes: ModelChange[];
  /** "v5", "v6": to say which run a model was missing from. */
  beforeLabel: string;
  afterLabel: string;
};

/** Each at least 4.5:1 on white: green for good news, red for bad, grey for none. */
const TONES: Record<ChangeTone, string> = {
  better: "text-green-700",
  worse: "text-red-700",
  flat: "text-zinc-600",
  unknown: "text-zinc-500",
};

/** Per model: average grade before → after and the change, and the change in latency and cost. */
export function ModelChangesTable({ changes, beforeLabel, afterLabel }: ModelChangesTableProps) {
  if (changes.length === 0) return <p className="text-sm text-zinc-600">Neither run had a model column.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full border-collapse text-left text-[13px]">
        <caption className="sr-only">
          Change per model from {beforeLabel} to {afterLabel}
        </caption>
        <thead>
          <tr className="border-b border-zinc-200 text-[11px] font-semibold tracking-wide text-zinc-600 uppercase">
            <th scope="col" className="px-2.5 py-2">
              Model
            </th>
            <th scope="col" className="px-2.5 py-2 text-right whitespace-nowrap">
              Avg grade
            </th>
            <th scope="col" className="px-2.5 py-2 text-right">
              <span aria-hidden="true">Δ</span>
              <span className="sr-only">Grade change</span>
            </th>
            <th scope="col" className="px-2.5 py-2 text-right">
              Latency
            </th>
            <th scope="col" className="px-2.5 py-2 text-right">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <ModelChangeRow
              key={`${change.provider}/${change.model}/${change.occurrence}`}
              change={change}
              beforeLabel={beforeLabel}
              afterLabel={afterLabel}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ModelChangeRow({ change, beforeLabel, afterLabel }: { change: ModelChange } & Omit<ModelChangesTableProps, "changes">) {
  const beforeGrade = change.before ? gradeOf(change.before) : null;
  const afterGrade = change.after ? gradeOf(change.after) : null;
  const missingFrom = change.before === null ? beforeLabel : change.after === null ? afterLabel : null;
  return (
    <tr className="border-b border-zinc-100 last:border-b-0">
      <th scope="row" className="max-w-[180px] px-2.5 py-2 text-left align-top font-normal">
        <span className="block truncate font-medium text-zinc-900" title={`${change.provider} / ${change.model}`}>
          {change.model}
          {change.occurrence > 1 && <span className="font-normal text-zinc-600"> #{change.occurrence}</span>}
        </span>
        <span className="block truncate text-[11px] text-zinc-600">
          {change.provider}
          {missingFrom && ` · not in ${missingFrom}`}
        </span>
      </th>
      <td className="px-2.5 py-2 text-right align-top whitespace-nowrap text-zinc-800 tabular-nums">
        <GradeValue grade={beforeGrade} present={change.before !== null} />
        <span aria-hidden="true" className="px-1 text-zinc-500">
          →
        </span>
        <span className="sr-only"> to </span>
        <GradeValue grade={afterGrade} present={change.after !== null} />
      </td>
      <ChangeCell change={formatGradeChange(change.gradeChange)} testId="grade-change" emphasis />
      <ChangeCell
        change={formatLatencyChange(change.latencyChangeMs)}
        detail={`Average latency: ${formatLatency(change.before?.averageLatencyMs ?? null)} → ${formatLatency(change.after?.averageLatencyMs ?? null)}`}
      />
      <ChangeCell
        change={formatCostChange(change.costChangeUsd)}
        detail={`Total cost: ${formatUsd(change.before?.totalCostUsd)} → ${formatUsd(change.after?.totalCostUsd)}`}
      />
    </tr>
  );
}

function GradeValue({ grade, present }: { grade: number | null; present: boolean }) {
  if (grade !== null) return <span>{formatGrade(grade)}</span>;
  const reason = present ? "no grades" : "not run";
  return (
    <span className="text-zinc-500" title={reason}>
      {formatGrade(null)}
      <span className="sr-only"> ({reason})</span>
    </span>
  );
}

function ChangeCell({
  change,
  testId,
  emphasis = false,
  detail,
}: {
  change: FormattedChange;
  testId?: string;
  emphasis?: boolean;
  detail?: string;
}) {
  return (
    <td
      data-testid={testId}
      title={detail}
      data-tone={change.tone}
      className={`px-2.5 py-2 text-right align-top whitespace-nowrap tabular-nums ${emphasis ? "font-semibold" : ""} ${TONES[change.tone]}`}
    >
      {change.text}
    </td>
  );
}
