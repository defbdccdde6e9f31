"use client";

import { ModalDialog } from "@/components/ui/modal-dialog";

type DeletePromptDialogProps = {
  /** The prompt to delete; null keeps the dialog closed. */
  name: string | null;
  /** Cancel, Escape, and the close after a confirmed delete; should be safe to call twice. */
  onClose(): void;
  onConfirm(): void;
};

/** Asks before a prompt is deleted for good. Cancel has the focus, so an Enter pressed by habit deletes nothing. */
export function DeletePromptDialog({ name, onClose, onConfirm }: DeletePromptDialogProps) {
  return (
    <ModalDialog
      open={name !== null}
      onClose={onClose}
      title={`Delete “${name ?? ""}”?`}
      description="This is permanent: its text and versions are removed; runs keep their results."
      footer={
        <>
          <button
            type="button"
            autoFocus
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
