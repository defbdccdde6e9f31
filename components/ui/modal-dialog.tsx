"use client";

import { useRef } from "react";
import { DialogDescription, DialogShell, DialogTitle } from "./dialog-shell";
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
  /** The control of the footer that gets the focus on opening (the OK button when footer is left out). */
  initialFocus?: React.RefObject<HTMLElement | null>;
  /** Where the focus goes on closing, when not back to whatever opened it. */
  returnFocus?: React.RefObject<HTMLElement | null>;
  /** Extra attributes for tests and styling of the dialog. */
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

/**
 * A message in a modal (DialogShell): a title, text, and OK or the caller's buttons, with a × in
 * the corner. A click outside does not close it: it asks for an answer.
 */
export function ModalDialog({
  open,
  onClose,
  title,
  children,
  size = "sm",
  footer,
  initialFocus,
  returnFocus,
  testId,
  description,
}: ModalDialogProps) {
  const okRef = useRef<HTMLButtonElement>(null);

  return (
    <DialogShell
      open={open}
      onClose={onClose}
      testId={testId}
      described={Boolean(description)}
      initialFocus={initialFocus ?? (footer === undefined ? okRef : undefined)}
      returnFocus={returnFocus}
      closeOnOutsideClick={false}
      className={`max-h-[calc(100vh-48px)] ${WIDTHS[size]}`}
    >
      <div className="flex max-h-[calc(100vh-48px)] flex-col p-5">
        <DialogTitle className="pr-8 text-base font-semibold break-words">{title}</DialogTitle>
        {description && <DialogDescription className="mt-1 text-sm text-zinc-600">{description}</DialogDescription>}
        {children != null && <div className="mt-2 min-h-0 flex-1 overflow-auto text-sm text-zinc-700">{children}</div>}
        {footer === undefined ? (
          <div className="mt-5 flex justify-end">
            <button
              ref={okRef}
              type="button"
              onClick={onClose}
              className="h-8 rounded-lg bg-accent-strong px-4 text-sm font-medium text-white hover:bg-accent-stronger"
            >
              OK
            </button>
          </div>
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
    </DialogShell>
  );
}
