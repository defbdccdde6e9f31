"use client";

import { useEffect, useId, useRef } from "react";
import { keepTabInDialog } from "@/components/ui/modal-dialog";

type DeletePromptDialogProps = {
  /** The prompt to delete; null keeps the dialog closed. */
  name: string | null;
  /** Cancel, Escape, and the close after a confirmed delete; should be safe to call twice. */
  onClose(): void;
  onConfirm(): void;
};

/**
 * Asks before a prompt is deleted for good. A native <dialog> like components/ui/modal-dialog.tsx,
 * which has a single OK button; this one needs Cancel and Delete. Cancel has the focus, so an
 * Enter pressed by habit deletes nothing.
 */
export function DeletePromptDialog({ name, onClose, onConfirm }: DeletePromptDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const open = name !== null;

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={keepTabInDialog}
      // Escape fires `cancel` at once but `close` a frame or more later; answering the first keeps
      // a quick reopen from finding the old state. After a Delete the parent closes it: `close`.
      onCancel={onClose}
      onClose={onClose}
      className="m-auto w-[min(440px,calc(100vw-32px))] rounded-xl border border-accent-line bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-900/30"
    >
      {open && (
        <div className="p-5">
          <h2 id={titleId} className="text-base font-semibold break-words">
            Delete “{name}”?
          </h2>
          <p id={bodyId} className="mt-2 text-sm text-zinc-700">
            This is permanent: its text and versions are removed; runs keep their results.
          </p>
          <div className="mt-5 flex justify-end gap-2">
            <button
              type="button"
              autoFocus
              onClick={onClose}
              className="h-8 rounded-lg border border-zinc-300 bg-white px-4 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
            >
              Cancel
            </button>
            <button type="button" onClick={onConfirm} className="h-8 rounded-lg bg-red-700 px-4 text-sm font-medium text-white hover:bg-red-800">
              Delete
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}
