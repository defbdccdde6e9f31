"use client";

import { useState } from "react";
import { useDraftStore } from "@/lib/client/draft-store";
import { ColumnParamsDialog, describeParams } from "@/components/run/column-params-dialog";
import { CaretDownIcon, CloseIcon, SlidersIcon } from "@/components/ui/icons";

type ModelColumnHeaderProps = {
  /** The draft column's id: its parameters are read from and saved to the draft store. */
  columnId: string;
  position: number;
  /** "provider / model". */
  name: string;
  /** Null while the column may be changed or removed; else why not, as a sentence ("A run is active."). */
  editDisabledReason: string | null;
  /** False for the last column: a run needs one model. */
  removable: boolean;
  /** Opens the model picker to change this column's model. */
  onEdit(): void;
  onRemove(): void;
};

/**
 * A model column's header: its number, "provider / model" (a button that opens the model picker
 * to change it), the column's parameters, and an × (shown on hover or focus) to remove it.
 */
export function ModelColumnHeader({ columnId, position, name, editDisabledReason, removable, onEdit, onRemove }: ModelColumnHeaderProps) {
  const [editingParams, setEditingParams] = useState(false);
  const params = useDraftStore((state) => state.columns.find((column) => column.id === columnId)?.params ?? NO_PARAMS);
  const setColumnParams = useDraftStore((state) => state.setColumnParams);
  const summary = describeParams(params);
  const setCount = Object.keys(params).length;
  const canEdit = editDisabledReason === null;

  return (
    <th
      scope="col"
      // Named for the model alone: from its content it would be every button's name, read again
      // with each cell a screen reader moves to.
      aria-label={`Column ${position}: ${name}`}
      className="group sticky top-0 z-10 w-[310px] min-w-[310px] border-y border-r border-zinc-200 bg-white px-3 py-0 text-left font-normal"
    >
      <div className="flex h-10 items-center gap-1.5">
        <span
          aria-hidden="true"
          className="grid size-5 shrink-0 place-items-center rounded bg-accent-soft text-[11px] font-semibold text-accent-strong ring-1 ring-accent-line"
        >
          {position}
        </span>
        <button
          type="button"
          onClick={onEdit}
          disabled={!canEdit}
          aria-haspopup="dialog"
          aria-label={`Column ${position}: ${name}, change model`}
          title={
            canEdit
              ? `${name}\nChange the model of column ${position}`
              : `${name}\nThe model can't change now: ${lowerFirst(editDisabledReason)}`
          }
          data-testid="column-header-button"
          className="-mx-0.5 flex min-w-0 flex-1 items-center gap-1 rounded px-1 py-0.5 text-left enabled:hover:bg-zinc-100 disabled:cursor-default"
        >
          <span className="min-w-0 truncate text-sm font-medium text-zinc-900">{name}</span>
          {canEdit && <CaretDownIcon aria-hidden="true" className="size-3 shrink-0 text-zinc-400" />}
        </button>
        <button
          type="button"
          onClick={() => setEditingParams(true)}
          aria-haspopup="dialog"
          aria-label={`Parameters of column ${position}${setCount > 0 ? `: ${setCount} set` : ""}`}
          title={summary ? `Parameters: ${summary}` : "Set parameters"}
          className={`flex h-6 shrink-0 items-center gap-1 rounded px-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:opacity-100 ${
            setCount > 0 ? "" : "opacity-0 group-focus-within:opacity-100 group-hover:opacity-100"
          }`}
        >
          {setCount > 0 ? (
            <span className="rounded border border-accent-line bg-accent-soft px-1 text-[10px] font-medium text-accent-strong">
              {setCount} set
            </span>
          ) : (
            <SlidersIcon aria-hidden="true" className="size-3.5 shrink-0" />
          )}
        </button>
        {removable && canEdit && (
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Remove column ${position}: ${name}`}
            title={`Remove column ${position}`}
            data-testid="remove-column-button"
            className="grid size-6 shrink-0 place-items-center rounded text-zinc-500 opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:opacity-100"
          >
            <CloseIcon aria-hidden="true" className="size-3.5" />
          </button>
        )}
      </div>
      <ColumnParamsDialog
        open={editingParams}
        columnName={name}
        params={params}
        disabledReason={canEdit ? null : `Parameters can't change now: ${lowerFirst(editDisabledReason)}`}
        onClose={() => setEditingParams(false)}
        onSave={(next) => {
          setColumnParams(columnId, next);
          setEditingParams(false);
        }}
      />
    </th>
  );
}

const NO_PARAMS = {};

function lowerFirst(text: string | null): string {
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : "";
}
