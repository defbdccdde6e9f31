"use client";

import type { PromptItem } from "@/lib/client/workbench-types";
import { pillClassName } from "./pill-class-name";

type GraderSelectProps = {
  graders: PromptItem[];
  value: string | null;
  disabled?: boolean;
  onChange(id: string | null): void;
};

/**
 * The grader for the next run, or "No grader" (then cells get thumbs up/down). A native
 * <select> dressed as a pill: arrows, Enter, Escape and type-to-find work as in every form.
 */
export function GraderSelect({ graders, value, disabled = false, onChange }: GraderSelectProps) {
  const selected = graders.find((grader) => grader.id === value) ?? null;
  return (
    <span className="relative inline-flex shrink-0">
      <FlaskIcon filled={selected !== null} />
      <select
        data-testid="grader-select"
        aria-label="Grader"
        title={selected ? `Grader: ${selected.name}` : "No grader: grade cells by hand"}
        value={selected?.id ?? ""}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.value === "" ? null : event.currentTarget.value)}
        className={`${pillClassName} max-w-[240px] appearance-none truncate pr-8 pl-8 [field-sizing:content]`}
      >
        <option value="">No grader</option>
        {graders.map((grader) => (
          <option key={grader.id} value={grader.id}>
            {grader.name}
          </option>
        ))}
      </select>
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="pointer-events-none absolute top-1/2 right-3 size-3.5 -translate-y-1/2 text-accent-strong"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path d="m4.5 6.25 3.5 3.5 3.5-3.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

/** Outlined when no grader is chosen, filled when one is. */
function FlaskIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-accent-strong"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <path d="M6.25 2h3.5M6.75 2v4.1L3.2 12.3A1.1 1.1 0 0 0 4.15 14h7.7a1.1 1.1 0 0 0 .95-1.7L9.25 6.1V2" strokeLinejoin="round" />
      {filled ? (
        <path d="M4.6 10.5h6.8l1.4 1.8a1.1 1.1 0 0 1-.95 1.7h-7.7a1.1 1.1 0 0 1-.95-1.7Z" fill="currentColor" stroke="none" />
      ) : (
        <path d="M5 10.5h6" strokeLinecap="round" />
      )}
    </svg>
  );
}
