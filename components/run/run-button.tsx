import { PauseIcon, SpinnerIcon } from "@/components/ui/icons";

type RunButtonProps = {
  onRun(): void;
  disabled: boolean;
  /** A run is starting or active: the button shows a spinner and cannot start another. */
  running: boolean;
  /** The active run is paused: the button says so, without a spinner (nothing is running). */
  paused?: boolean;
  /** Why the button is disabled, for its title (no model, a run already going, a history view). */
  disabledReason?: string | null;
};

/** The Run button over the editor's bottom-right corner; Cmd/Ctrl+Enter in the editor does the same. */
export function RunButton({ onRun, disabled, running, paused = false, disabledReason }: RunButtonProps) {
  const spinning = running && !paused;
  return (
    <button
      type="button"
      onClick={onRun}
      disabled={disabled || running || paused}
      aria-busy={spinning}
      aria-keyshortcuts="Control+Enter Meta+Enter"
      title={disabledReason ?? undefined}
      data-testid="run-button"
      className="inline-flex h-9 items-center gap-2 rounded-lg bg-accent-strong pr-2.5 pl-4 text-sm font-semibold text-white shadow-sm hover:bg-accent-stronger disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600 disabled:shadow-none"
    >
      {spinning && <SpinnerIcon aria-hidden="true" className="size-4 animate-spin" data-testid="run-spinner" trackOpacity={0.3} />}
      {paused && <PauseIcon aria-hidden="true" className="size-3.5" />}
      {paused ? "Paused" : spinning ? "Running" : "Run"}
      <kbd aria-hidden="true" className="rounded bg-black/20 px-1.5 py-0.5 font-sans text-[11px] font-medium">
        Ctrl ↵
      </kbd>
    </button>
  );
}
