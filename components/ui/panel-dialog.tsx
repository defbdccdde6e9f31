"use client";

import { DialogDescription, DialogShell, DialogTitle } from "./dialog-shell";
import { CloseIcon } from "./icons";

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
  /** What gets the focus on opening (a filter box, say); the first control by default. */
  initialFocus?: React.RefObject<HTMLElement | null>;
  testId?: string;
  children: React.ReactNode;
};

/**
 * A modal panel (DialogShell) for content that lays itself out: a header with the title and a ×,
 * then the children, which scroll and pad themselves. A click outside closes it. The cell details,
 * the model picker and the run history use it.
 */
export function PanelDialog({
  open,
  onClose,
  title,
  description,
  closeLabel = "Close",
  widthClassName = "w-[min(440px,calc(100vw-32px))]",
  initialFocus,
  testId,
  children,
}: PanelDialogProps) {
  return (
    <DialogShell
      open={open}
      onClose={onClose}
      testId={testId}
      described={Boolean(description)}
      initialFocus={initialFocus}
      className={`flex max-h-[min(85vh,900px)] flex-col overflow-hidden ${widthClassName}`}
    >
      <div className="flex shrink-0 items-center gap-3 border-b border-zinc-100 px-5 py-3">
        <div className="min-w-0 flex-1">
          <DialogTitle className="truncate text-base font-semibold" title={title}>
            {title}
          </DialogTitle>
          {description && <DialogDescription className="mt-0.5 text-xs text-zinc-600">{description}</DialogDescription>}
        </div>
        <button
          type="button"
          aria-label={closeLabel}
          onClick={onClose}
          className="grid size-7 shrink-0 place-items-center rounded text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900"
        >
          <CloseIcon aria-hidden="true" className="size-3.5" />
        </button>
      </div>
      {children}
    </DialogShell>
  );
}
