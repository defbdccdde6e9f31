"use client";

import type { PromptItem } from "@/lib/client/workbench-types";
import { FlaskIcon, SelectChevronIcon } from "@/components/ui/icons";
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
      {/* Outlined when no grader is chosen, filled when one is. */}
      <FlaskIcon
        filled={selected !== null}
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-accent-strong"
      />
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
      <SelectChevronIcon
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-3.5 -translate-y-1/2 text-accent-strong"
      />
    </span>
  );
}
