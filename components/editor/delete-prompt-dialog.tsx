"use client";

import { useRef } from "react";
import { ModalDialog } from "@/components/ui/modal-dialog";

type DeletePromptDialogProps = {
  /** The prompt to delete; null keeps the dialog closed. */
  name: string | null;
  /** Cancel, Escape, and the close after a confirmed delete. */
  onClose(): void;
  onConfirm(): void;
  /** Gets the focus back on closing (the menu's button: the item that opened the dialog is gone). */
  returnFocus: React.RefObject<HTMLElement | null>;
};

/** Asks before a prompt is deleted for good. Cancel has the focus, so an Enter pressed by habit deletes nothing. */
export function DeletePromptDialog({ name, onClose, onConfirm, returnFocus }: DeletePromptDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      open={name !== null}
      onClose={onClose}
      title={`Delete “${name ?? ""}”?`}
      description="This is permanent: its text and versions are removed; runs keep their results."
      initialFocus={cancelRef}
      returnFocus={returnFocus}
      footer={
        <>
          <button
            ref={cancelRef}
            type="button"
            onClick={onClose}
            className="h-8 rounded-lg border border-zinc-300 bg-white px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
          >
            Cancel
          </button>
          <button
            type="button"
            onClick={onConfirm}
            className="h-8 rounded-lg bg-red-700 px-4 text-sm font-medium text-white hover:bg-red-800"
          >
            Delete
          </button>
        </>
      }
    />
  );
}
