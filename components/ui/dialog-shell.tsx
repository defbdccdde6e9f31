"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useLayoutEffect, useRef } from "react";

type DialogShellProps = {
  open: boolean;
  /** Escape, the caller's own buttons and (when allowed) a click outside. Called once per close. */
  onClose(): void;
  /** The box's width, height and layout; the border, background and shadow are the shell's. */
  className: string;
  testId?: string;
  /** Set when the content holds a DialogDescription (the dialog's aria-describedby). */
  described?: boolean;
  /** What gets the focus when it opens; Radix's default is the first control inside. */
  initialFocus?: React.RefObject<HTMLElement | null>;
  /** Where the focus goes when it closes; by default whatever had it when the dialog opened. */
  returnFocus?: React.RefObject<HTMLElement | null>;
  /** False keeps it open on a click outside it: a question that wants an answer. */
  closeOnOutsideClick?: boolean;
  /** The content; it names the dialog with a DialogTitle. */
  children: React.ReactNode;
};

/** The dialog's name: every dialog holds one (Radix's Dialog.Title, an h2). */
export const DialogTitle = Dialog.Title;
/** A line under the title that describes the dialog; tell the shell with `described`. */
export const DialogDescription = Dialog.Description;

/**
 * A modal dialog on @radix-ui/react-dialog: the dialog role named by its title, a focus trap, Escape
 * to close, the page behind hidden from screen readers and its scrolling locked, and the focus back
 * on the opener afterwards. The box is centred in a dimmed overlay, as the native <dialog> was.
 */
export function DialogShell({
  open,
  onClose,
  className,
  testId,
  described = false,
  initialFocus,
  returnFocus,
  closeOnOutsideClick = true,
  children,
}: DialogShellProps) {
  const openerRef = useRef<HTMLElement | null>(null);
  const contentRef = useRef<HTMLDivElement>(null);

  // Noted before the content mounts (Radix's portal renders it one commit later): Radix returns
  // the focus only to a Dialog.Trigger, and our dialogs open from buttons, cells and shortcuts.
  useLayoutEffect(() => {
    if (open) openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  }, [open]);

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        {/* The overlay centres the box, as margin: auto centred the native <dialog>, without a
            half-pixel translate blurring its text. */}
        <Dialog.Overlay className="fixed inset-0 z-50 grid place-items-center overflow-y-auto bg-zinc-900/30">
          <Dialog.Content
            ref={contentRef}
            data-testid={testId}
            // Radix points aria-describedby at a description it expects; without one, none.
            {...(described ? {} : { "aria-describedby": undefined })}
            onOpenAutoFocus={(event) => {
              const target = initialFocus?.current;
              if (!target) return;
              event.preventDefault();
              target.focus();
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              // The opener may have been re-rendered away (a virtualized row); only focus it if it is still there.
              const target = returnFocus?.current ?? openerRef.current;
              openerRef.current = null;
              if (target?.isConnected && document.activeElement !== target) target.focus();
            }}
            onPointerDownOutside={(event) => {
              if (!closeOnOutsideClick) event.preventDefault();
            }}
            // Radix hears Escape on the document before the focused control does, so a field that
            // handles Escape itself (cancelling a rename) would close the dialog too. A key pressed
            // inside is left to bubble up instead: the dialog closes unless a control stopped it.
            // Elsewhere (a menu opened from the dialog is its own layer and gets it first) Radix decides.
            onEscapeKeyDown={(event) => {
              if (event.target instanceof Node && contentRef.current?.contains(event.target)) event.preventDefault();
            }}
            onKeyDown={(event) => {
              // Not defaultPrevented: onEscapeKeyDown above has set it on this very event.
              if (event.key !== "Escape" || !event.currentTarget.contains(event.target as Node)) return;
              event.preventDefault();
              onClose();
            }}
            className={`relative rounded-xl border border-accent-line bg-white text-left font-normal text-zinc-900 shadow-xl focus:outline-none ${className}`}
          >
            {children}
          </Dialog.Content>
        </Dialog.Overlay>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
