type RunButtonProps = { onRun(): void; disabled: boolean; starting: boolean };

/** The Run button; Cmd/Ctrl+Enter in the editor does the same. */
export function RunButton({ onRun, disabled, starting }: RunButtonProps) {
  return (
    <button
      type="button"
      onClick={onRun}
      disabled={disabled}
      aria-keyshortcuts="Control+Enter Meta+Enter"
      className="inline-flex h-9 items-center gap-2 rounded-lg bg-accent-strong pr-2.5 pl-4 text-sm font-semibold text-white shadow-sm hover:bg-accent-stronger disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600 disabled:shadow-none"
    >
      {starting ? "Starting…" : "Run"}
      <kbd aria-hidden="true" className="rounded bg-white/20 px-1.5 py-0.5 font-sans text-[11px] font-medium">
        Ctrl ↵
      </kbd>
    </button>
  );
}
