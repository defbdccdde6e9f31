"use client";

import { useEffect, useId, useRef } from "react";
import { CloseIcon } from "./icons";

type ModalDialogProps = {
  open: boolean;
  onClose(): void;
  title: React.ReactNode;
  children?: React.ReactNode;
  /** sm 440px (default), md 640px, lg 880px, xl 1040px; never wider than the window. */
  size?: "sm" | "md" | "lg" | "xl";
  /**
   * The buttons at the bottom. Left out: one OK button that closes. Give your own (Cancel and
   * Delete, say) or null for none (a dialog with its own close button in the content).
   */
  footer?: React.ReactNode | null;
  /** Extra attributes for tests and styling of the <dialog>. */
  testId?: string;
  /** Text under the title that describes the dialog (aria-describedby). */
  description?: React.ReactNode;
};

const WIDTHS = {
  sm: "w-[min(440px,calc(100vw-32px))]",
  md: "w-[min(640px,calc(100vw-32px))]",
  lg: "w-[min(880px,calc(100vw-32px))]",
  xl: "w-[min(1040px,calc(100vw-32px))]",
};

/** What Tab may land on; keepTabInDialog filters out the hidden and disabled ones. */
const TABBABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex], [contenteditable="true"]';

/**
 * onKeyDown for a modal <dialog>: Tab from its last control goes to its first, Shift+Tab from its
 * first to its last. showModal() makes the page behind inert, but Chrome still lets Tab leave the
 * dialog for the browser's own toolbar, so a keyboard user lost the dialog until the next Tab.
 */
export function keepTabInDialog(event: React.KeyboardEvent<HTMLElement>) {
  if (event.key !== "Tab" || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const dialog = event.currentTarget;
  const tabbable = Array.from(dialog.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.matches(":disabled") &&
      !element.closest("[inert]") &&
      element.checkVisibility({ visibilityProperty: true }),
  );
  const first = tabbable[0];
  const last = tabbable[tabbable.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Shows a <dialog> as a modal while `open` is true and closes it when it turns false. onOpen runs
 * just before it opens (to note who had focus, or to reset a form); it is read at that moment.
 */
export function useModalOpen(dialogRef: React.RefObject<HTMLDialogElement | null>, open: boolean, onOpen?: () => void) {
  const onOpenRef = useRef(onOpen);
  useEffect(() => {
    onOpenRef.current = onOpen;
  });
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      onOpenRef.current?.();
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [dialogRef, open]);
}

/**
 * A modal on the native <dialog>: showModal() gives the dialog role, a focus trap (with
 * keepTabInDialog, Tab cycles inside), Escape to close and an inert page behind it, with no library.
 */
export function ModalDialog({ open, onClose, title, children, size = "sm", footer, testId, description }: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useModalOpen(dialogRef, open);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      // Escape fires `cancel` at once but `close` a frame or more later; answering the first
      // keeps a quick reopen from finding the old state. onClose may so be called twice.
      onCancel={onClose}
      onClose={onClose}
      onKeyDown={keepTabInDialog}
      className={`m-auto max-h-[calc(100vh-48px)] ${WIDTHS[size]} rounded-xl border border-accent-line bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-900/30`}
    >
      {open && (
        <div className="flex max-h-[calc(100vh-48px)] flex-col p-5">
          <h2 id={titleId} className="pr-8 text-base font-semibold break-words">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="mt-1 text-sm text-zinc-600">
              {description}
            </p>
          )}
          {children != null && <div className="mt-2 min-h-0 flex-1 overflow-auto text-sm text-zinc-700">{children}</div>}
          {footer === undefined ? (
            <form method="dialog" className="mt-5 flex justify-end">
              <button autoFocus className="h-8 rounded-lg bg-accent-strong px-4 text-sm font-medium text-white hover:bg-accent-stronger">
                OK
              </button>
            </form>
          ) : (
            footer !== null && <div className="mt-5 flex justify-end gap-2">{footer}</div>
          )}
          <button
            type="button"
            onClick={onClose}
            aria-label="Close"
            className="absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-lg text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800"
          >
            <CloseIcon aria-hidden="true" className="size-4" strokeWidth="1.6" />
          </button>
        </div>
      )}
    </dialog>
  );
}
