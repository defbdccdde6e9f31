"use client";

import { useMemo } from "react";
import type { PromptRunHistoryEntry } from "@/lib/api/types";
import { compareRuns } from "@/lib/client/compare-runs";
import { formatRunDate, formatVersionLabel } from "./describe-run";
import { ModelChangesTable } from "./model-changes-table";
import { PairedComparison } from "./paired-comparison";
import { PromptDiff } from "./prompt-diff";
import { describeGrading } from "./describe-grading";

type RunComparisonProps = {
  /** The earlier run. */
  before: PromptRunHistoryEntry;
  /** The later run. */
  after: PromptRunHistoryEntry;
};

/** Two runs side by side: how the prompt text changed (left) and how each model did (right). */
export function RunComparison({ before, after }: RunComparisonProps) {
  const changes = useMemo(() => compareRuns(before, after), [before, after]);
  const beforeLabel = runLabel(before, after);
  const afterLabel = runLabel(after, before);
  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,1.15fr)_minmax(0,1fr)]">
      <section aria-label="Prompt text changes" className="flex min-w-0 flex-col gap-2">
        <h4 className="text-xs font-semibold text-zinc-700">
          Prompt · {beforeLabel} → {afterLabel}
        </h4>
        <PromptDiff
          beforeVersionId={before.promptVersionId}
          afterVersionId={after.promptVersionId}
          beforeLabel={beforeLabel}
          afterLabel={afterLabel}
          afterVersion={formatVersionLabel(after)}
        />
      </section>
      <section aria-label="Model changes" className="flex min-w-0 flex-col gap-2">
        <h4 className="text-xs font-semibold text-zinc-700">
          Per model · {beforeLabel} → {afterLabel}
        </h4>
        <p className="text-xs text-zinc-600" data-testid="compare-graded-by">
          {beforeLabel}: {describeGrading(before)}; {afterLabel}: {describeGrading(after)}
          {describeGrading(before) !== describeGrading(after) && (
            <span className="font-medium text-amber-800"> · graded differently: the grades may not compare</span>
          )}
        </p>
        <ModelChangesTable changes={changes} beforeLabel={beforeLabel} afterLabel={afterLabel} />
      </section>
      <PairedComparison beforeId={before.id} afterId={after.id} beforeLabel={beforeLabel} afterLabel={afterLabel} />
    </div>
  );
}

/**
 * "summary v5, 20 Nov 09:15", with the run's own start, "(26 Nov 14:02)", when the other run ran
 * the same version, to tell them apart.
 */
function runLabel(run: PromptRunHistoryEntry, other: PromptRunHistoryEntry): string {
  const version = formatVersionLabel(run);
  return version === formatVersionLabel(other) ? `${version} (${formatRunDate(run.createdAt)})` : version;
}
