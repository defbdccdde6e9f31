"use client";

import { useEffect, useId, useRef } from "react";

type ModalDialogProps = {
  open: boolean;
  onClose(): void;
  title: string;
  children: React.ReactNode;
};

/**
 * A modal on the native <dialog>: showModal() gives the dialog role, a focus trap, Escape to
 * close and an inert page behind it, with no library.
 */
export function ModalDialog({ open, onClose, title, children }: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();

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
      onClose={onClose}
      className="m-auto w-[min(440px,calc(100vw-32px))] rounded-xl border border-accent-line bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-900/30"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        <div className="mt-2 text-sm text-zinc-700">{children}</div>
        <form method="dialog" className="mt-5 flex justify-end">
          <button
            autoFocus
            className="h-8 rounded-lg bg-accent-strong px-4 text-sm font-medium text-white hover:bg-accent-stronger"
          >
            OK
          </button>
        </form>
      </div>
    </dialog>
  );
}
