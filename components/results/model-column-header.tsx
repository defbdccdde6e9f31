"use client";

import { useState } from "react";
import { useDraftStore } from "@/lib/client/draft-store";
import { useRunStore } from "@/lib/client/run-store";
import { isRunActive } from "@/lib/client/run-types";
import { ColumnParamsDialog, describeParams } from "@/components/run/column-params-dialog";

type ModelColumnHeaderProps = {
  position: number;
  name: string;
  canRemove: boolean;
  onRemove(): void;
  /** The draft column's id: its parameters are read from and saved to the draft store. */
  columnId: string;
};

/**
 * A model column's header: its number, "provider / model" (a button that opens the column's
 * parameters), a count of the parameters set, and a × to remove it.
 */
export function ModelColumnHeader({
  position,
  name,
  canRemove,
  onRemove,
  columnId,
}: ModelColumnHeaderProps) {
  const [editing, setEditing] = useState(false);
  const params = useDraftStore((state) => state.columns.find((column) => column.id === columnId)?.params ?? NO_PARAMS);
  const setColumnParams = useDraftStore((state) => state.setColumnParams);
  const runActive = useRunStore((state) => (state.run ? isRunActive(state.run.status) : false));
  const paramsDisabledReason = runActive ? "Parameters can't change while a run is active." : null;
  const summary = describeParams(params);
  return (
    <th
      scope="col"
      className="group sticky top-0 z-10 w-[310px] min-w-[310px] border-y border-r border-zinc-200 bg-white px-3 py-0 text-left font-normal"
    >
      <div className="flex h-10 items-center gap-2">
        <span
          aria-hidden="true"
          className="grid size-5 shrink-0 place-items-center rounded bg-accent-soft text-[11px] font-semibold text-accent-strong ring-1 ring-accent-line"
        >
          {position}
        </span>
        <button
          type="button"
          onClick={() => setEditing(true)}
          aria-haspopup="dialog"
          title={summary ? `${name}\nParameters: ${summary}` : `${name}\nSet parameters`}
          className="-mx-1 flex min-w-0 flex-1 items-center gap-1.5 rounded px-1 py-0.5 text-left hover:bg-zinc-100 focus-visible:outline-offset-0"
        >
          <span className="min-w-0 truncate text-sm font-medium text-zinc-900">{name}</span>
          {summary ? (
            <span className="shrink-0 rounded border border-accent-line bg-accent-soft px-1 text-[10px] font-medium text-accent-strong">
              {Object.keys(params).length} set
            </span>
          ) : (
            <SlidersIcon />
          )}
        </button>
        <button
          type="button"
          onClick={onRemove}
          disabled={!canRemove}
          aria-label={`Remove column ${position}`}
          title={canRemove ? `Remove column ${position}` : "A run needs at least one model"}
          className="grid size-6 shrink-0 place-items-center rounded text-zinc-500 opacity-70 group-hover:opacity-100 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:opacity-100 disabled:invisible"
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.8">
            <path d="M4 4l8 8M12 4l-8 8" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <ColumnParamsDialog
        open={editing}
        columnName={name}
        params={params}
        disabledReason={paramsDisabledReason}
        onClose={() => setEditing(false)}
        onSave={(next) => {
          setColumnParams(columnId, next);
          setEditing(false);
        }}
      />
    </th>
  );
}

const NO_PARAMS = {};

function SlidersIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="size-3.5 shrink-0 text-zinc-400 opacity-0 group-hover:opacity-100"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
    >
      <path d="M2.5 4.5h11M2.5 11.5h11" strokeLinecap="round" />
      <circle cx="6" cy="4.5" r="1.6" fill="white" />
      <circle cx="10" cy="11.5" r="1.6" fill="white" />
    </svg>
  );
}
