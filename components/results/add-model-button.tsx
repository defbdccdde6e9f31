"use client";

import { PlusIcon } from "@/components/ui/icons";

type AddModelButtonProps = {
  /** Null when a column may be added; else why not (the button's tooltip). */
  disabledReason: string | null;
  /** Opens the model picker (components/results/model-picker-dialog.tsx) to add a column. */
  onClick(): void;
};

/** The "+" to the right of the header row that adds a model column. */
export function AddModelButton({ disabledReason, onClick }: AddModelButtonProps) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabledReason !== null}
      aria-haspopup="dialog"
      aria-label="Add model"
      title={disabledReason ?? "Add model"}
      className="grid size-8 place-items-center rounded-lg border border-accent-line bg-accent-soft text-accent-strong hover:border-accent hover:bg-white disabled:cursor-not-allowed disabled:border-zinc-200 disabled:bg-zinc-50 disabled:text-zinc-400"
    >
      <PlusIcon aria-hidden="true" className="size-4" />
    </button>
  );
}
