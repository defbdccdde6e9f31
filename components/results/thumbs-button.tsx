"use client";

import { ThumbUpIcon } from "@/components/ui/icons";
import { describeManualGrade } from "./cell-metric";

type ThumbsButtonProps = {
  manualGrade: number | null;
  /** A malformed answer counts as a fail until a person grades it. */
  malformed: boolean;
  /** "row 3, openai / gpt-4o", for the button's name. */
  target: string;
  pending: boolean;
  error: string | null;
  tabIndex?: number;
  onGrade(next: number): void;
};

/** The next grade of the spec's cycle: not graded -> pass -> fail -> pass. */
function nextGrade(grade: number | null): number {
  return grade === 1 ? 0 : 1;
}

const LOOKS = {
  none: "border-zinc-300 bg-white text-zinc-500 hover:border-zinc-400 hover:text-zinc-800",
  pass: "border-emerald-300 bg-emerald-50 text-emerald-700 hover:border-emerald-500",
  fail: "border-red-300 bg-red-50 text-red-700 hover:border-red-500",
};

/** Thumbs up/down to grade a cell by hand; its name says the state and what a press does. */
export function ThumbsButton({ manualGrade, malformed, target, pending, error, tabIndex, onGrade }: ThumbsButtonProps) {
  const state = manualGrade === null ? "none" : manualGrade >= 0.5 ? "pass" : "fail";
  const next = nextGrade(manualGrade);
  const stateText = describeManualGrade(manualGrade) + (state === "none" && malformed ? " (malformed counts as fail)" : "");
  const label = `Grade ${target}: ${stateText}, press to mark ${next === 1 ? "pass" : "fail"}`;
  return (
    <button
      type="button"
      tabIndex={tabIndex}
      data-testid="thumbs-button"
      data-manual-grade={state}
      aria-label={label}
      aria-busy={pending || undefined}
      title={error ?? label}
      onClick={(event) => {
        event.stopPropagation();
        // A press while the last grade is saving still counts: the saves are queued.
        onGrade(next);
      }}
      className={`grid h-5 w-7 place-items-center rounded border ${LOOKS[state]} ${pending ? "opacity-60" : ""} ${error ? "ring-2 ring-red-500" : ""}`}
    >
      <ThumbIcon down={state === "fail"} muted={state === "none"} />
    </button>
  );
}

/** A person's grade of a past run, shown without a control. */
export function ManualGradeMark({ manualGrade }: { manualGrade: number }) {
  const state = manualGrade >= 0.5 ? "pass" : "fail";
  return (
    <span
      role="img"
      aria-label={`Graded by hand: ${state}`}
      title={`Graded by hand: ${state}`}
      data-testid="manual-grade-mark"
      data-manual-grade={state}
      className={`grid h-5 w-7 place-items-center rounded border ${LOOKS[state]}`}
    >
      <ThumbIcon down={state === "fail"} muted={false} />
    </span>
  );
}

function ThumbIcon({ down, muted }: { down: boolean; muted: boolean }) {
  return (
    <ThumbUpIcon
      aria-hidden="true"
      className={`size-3.5 ${down ? "rotate-180" : ""}`}
      fill={muted ? "none" : "currentColor"}
      fillOpacity={muted ? undefined : 0.2}
    />
  );
}
