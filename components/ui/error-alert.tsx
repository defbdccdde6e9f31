import { CloseIcon } from "./icons";

type ErrorAlertProps = {
  message: string | null;
  onDismiss(): void;
  /** A way out the error offers, as a button beside the message ("Open that run"). */
  action?: { label: string; onClick(): void };
};

/** An error the person should read now, announced by screen readers, with a way to dismiss it. */
export function ErrorAlert({ message, onDismiss, action }: ErrorAlertProps) {
  if (!message) return null;
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
      <div className="flex min-w-0 flex-1 flex-col items-start gap-2">
        <p className="break-words">{message}</p>
        {action && (
          <button
            type="button"
            onClick={action.onClick}
            className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-xs font-medium text-red-800 hover:bg-red-100"
          >
            {action.label}
          </button>
        )}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss error"
        className="-mr-1 grid size-6 shrink-0 place-items-center rounded text-red-700 hover:bg-red-100"
      >
        <CloseIcon aria-hidden="true" className="size-3.5" />
      </button>
    </div>
  );
}
