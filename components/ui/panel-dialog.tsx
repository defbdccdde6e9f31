"use client";

import { useId, useRef } from "react";
import { CloseIcon } from "./icons";
import { keepTabInDialog, useModalOpen } from "./modal-dialog";

type PanelDialogProps = {
  open: boolean;
  onClose(): void;
  title: string;
  /** A line under the title (aria-describedby). */
  description?: string;
  /** The close button's name; "Close" by default. */
  closeLabel?: string;
  /** Tailwind width classes of the dialog box. */
  widthClassName?: string;
  testId?: string;
  children: React.ReactNode;
};

/**
 * A modal panel on the native <dialog> (as ModalDialog: the dialog role, the focus trap, Escape,
 * an inert page) for content that lays itself out: a header with the title and a ×, then the
 * children, which scroll and pad themselves. Closes on a click on the backdrop and gives focus
 * back to whatever had it. The cell details, the model picker and the run history use it.
 */
export function PanelDialog({
  open,
  onClose,
  title,
  description,
  closeLabel = "Close",
  widthClassName = "w-[min(440px,calc(100vw-32px))]",
  testId,
  children,
}: PanelDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useModalOpen(dialogRef, open, () => {
    returnFocusRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  });

  function handleClose() {
    onClose();
    // The opener may have been re-rendered away (a virtualized row); only focus it if it is still there.
    const opener = returnFocusRef.current;
    returnFocusRef.current = null;
    if (opener?.isConnected && document.activeElement !== opener) opener.focus();
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      onClose={handleClose}
      onKeyDown={keepTabInDialog}
      onClick={(event) => {
        // The dialog element itself is only hit on its backdrop: the content box fills it.
        if (event.target === event.currentTarget) dialogRef.current?.close();
      }}
      className={`m-auto max-h-[min(85vh,900px)] overflow-hidden rounded-xl border border-accent-line bg-white p-0 text-left font-normal text-zinc-900 shadow-xl backdrop:bg-zinc-900/30 open:flex open:flex-col ${widthClassName}`}
    >
      <div className="flex shrink-0 items-center gap-3 border-b border-zinc-100 px-5 py-3">
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-base font-semibold" title={title}>
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-0.5 text-xs text-zinc-600">
              {description}
            </p>
          )}
        </div>
        <button
          type="button"
          aria-label={closeLabel}
          onClick={() => dialogRef.current?.close()}
          className="grid size-7 shrink-0 place-items-center rounded text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <CloseIcon aria-hidden="true" className="size-3.5" />
        </button>
      </div>
      {children}
    </dialog>
  );
}
