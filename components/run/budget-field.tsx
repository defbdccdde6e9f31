"use client";

import { useId } from "react";
import type { BudgetMode } from "@/lib/client/draft-store";

type BudgetFieldProps = {
  text: string;
  mode: BudgetMode;
  disabled: boolean;
  onChange(budget: { text?: string; mode?: BudgetMode }): void;
};

/** The budget typed, as dollars; null when empty; NaN when it is not a positive number. */
export function parseBudget(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, "");
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : Number.NaN;
}

const MODE_HELP: Record<BudgetMode, string> = {
  estimate: "estimate: skip cells once spent plus their estimate would pass the budget",
  strict: "strict: also skip models that have no price or no output estimate",
};

/** An optional budget in dollars for the next run, and how strictly it applies. */
export function BudgetField({ text, mode, disabled, onChange }: BudgetFieldProps) {
  const id = useId();
  const value = parseBudget(text);
  const invalid = Number.isNaN(value);
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <label htmlFor={`${id}-amount`} className="text-xs font-medium text-zinc-700">
        Budget
      </label>
      <div className="relative w-24">
        <span aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2 -translate-y-1/2 text-sm text-zinc-500">
          $
        </span>
        <input
          id={`${id}-amount`}
          inputMode="decimal"
          autoComplete="off"
          placeholder="none"
          value={text}
          disabled={disabled}
          onChange={(event) => onChange({ text: event.target.value })}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          className="h-7 w-full rounded-md border border-zinc-300 bg-white pr-2 pl-5 text-sm text-zinc-900 tabular-nums placeholder:text-zinc-400 focus:border-accent focus:ring-2 focus:ring-accent/25 focus-visible:outline-none disabled:bg-zinc-100 aria-[invalid=true]:border-red-400"
        />
      </div>
      <select
        aria-label="Budget mode"
        value={mode}
        disabled={disabled || value === null}
        title={MODE_HELP[mode]}
        onChange={(event) => onChange({ mode: event.target.value as BudgetMode })}
        className="h-7 rounded-md border border-zinc-300 bg-white px-1.5 text-xs text-zinc-800 focus:border-accent focus:ring-2 focus:ring-accent/25 focus-visible:outline-none disabled:text-zinc-400"
      >
        <option value="estimate">estimate</option>
        <option value="strict">strict</option>
      </select>
      {invalid && (
        <p id={`${id}-error`} role="alert" className="basis-full text-xs text-red-700">
          The budget is a positive number of dollars, like 0.50.
        </p>
      )}
    </div>
  );
}
