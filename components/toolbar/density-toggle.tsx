"use client";

import type { GridDensity } from "@/lib/client/workbench-types";
import { pillClassName } from "./pill-class-name";

type DensityToggleProps = { density: GridDensity; onChange(density: GridDensity): void };

/**
 * Switches the grid between 136 px cards and one line per cell (for comparisons of many rows). An
 * icon only, with its name in the tooltip: the toolbar also holds the run's status and controls.
 */
export function DensityToggle({ density, onChange }: DensityToggleProps) {
  const compact = density === "compact";
  return (
    <button
      type="button"
      aria-pressed={compact}
      aria-label="Compact rows"
      title={compact ? "Show each cell as a card" : "Show one line per cell"}
      onClick={() => onChange(compact ? "comfortable" : "compact")}
      className={`${pillClassName} px-2 aria-pressed:border-accent aria-pressed:bg-white`}
    >
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.5">
        {compact ? <path d="M2.5 4h11M2.5 8h11M2.5 12h11" /> : <path d="M2.5 3.5h11v4h-11zM2.5 10h11" />}
      </svg>
    </button>
  );
}
