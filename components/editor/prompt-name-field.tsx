"use client";

import { useEffect, useId, useRef, useState } from "react";

// The server's limit on a prompt's name (createPromptSchema in lib/api/schemas.ts).
const MAX_NAME_LENGTH = 200;

type PromptNameFieldProps = {
  name: string;
  /** Called with the trimmed new name, only when it differs (a rename restarts the version at v1). */
  onRename(name: string): void;
  /** The inline field opened or closed (the header gives it more room while it is open). */
  onEditingChange?(editing: boolean): void;
};

/** The prompt's name; click it, or press Enter or F2 on it, to rename it inline. */
export function PromptNameField({ name, onRename, onEditingChange }: PromptNameFieldProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const nameButtonRef = useRef<HTMLButtonElement>(null);
  // An input removed while focused may still report a blur; this keeps one edit to one outcome.
  const finished = useRef(false);
  const refocusName = useRef(false);
  const hintId = useId();
  const errorId = useId();

  // Closing the field, or unmounting it while open (another prompt opened), ends the edit.
  useEffect(() => {
    if (!editing) return;
    onEditingChange?.(true);
    return () => onEditingChange?.(false);
    // Only the change of `editing` is news to the header.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing]);

  useEffect(() => {
    if (editing) inputRef.current?.select();
    else if (refocusName.current) {
      refocusName.current = false;
      nameButtonRef.current?.focus();
    }
  }, [editing]);

  function start() {
    finished.current = false;
    setDraft(name);
    setError(null);
    setEditing(true);
  }

  function finish(outcome: "confirm" | "cancel", returnFocus: boolean) {
    if (finished.current) return;
    const trimmed = draft.trim();
    if (outcome === "confirm" && trimmed === "") {
      if (returnFocus) {
        setError("A prompt needs a name.");
        return;
      }
      // Leaving an empty field keeps the old name rather than trapping the user in it.
      outcome = "cancel";
    }
    finished.current = true;
    // Keyboard users continue from the name; a blur has already put focus elsewhere.
    refocusName.current = returnFocus;
    setEditing(false);
    if (outcome === "confirm" && trimmed !== name) onRename(trimmed);
  }

  if (editing) {
    return (
      <div className="relative min-w-0 flex-1">
        <input
          ref={inputRef}
          autoFocus
          data-testid="prompt-rename-input"
          aria-label="Prompt name"
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          maxLength={MAX_NAME_LENGTH}
          value={draft}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(null);
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              finish("confirm", true);
            } else if (event.key === "Escape") {
              event.preventDefault();
              event.stopPropagation();
              finish("cancel", true);
            }
          }}
          onBlur={() => finish("confirm", false)}
          className="h-7 w-full rounded-md border border-accent bg-white px-1.5 text-sm font-semibold text-zinc-900 outline-none focus:ring-2 focus:ring-accent/30 aria-invalid:border-red-600 aria-invalid:ring-red-600/25"
        />
        {error && (
          <p
            id={errorId}
            role="alert"
            className="absolute top-full left-0 z-10 mt-1 rounded bg-white px-1.5 text-xs text-red-700 shadow-sm"
          >
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <>
      <button
        ref={nameButtonRef}
        type="button"
        data-testid="prompt-name"
        title="Rename (click, Enter or F2)"
        aria-describedby={hintId}
        onClick={start}
        onKeyDown={(event) => {
          if (event.key === "F2") {
            event.preventDefault();
            start();
          }
        }}
        className="-mx-1.5 min-w-0 truncate rounded-md px-1.5 py-0.5 text-left text-sm font-semibold text-zinc-900 hover:bg-zinc-100"
      >
        {name}
      </button>
      <span id={hintId} hidden>
        Press Enter or F2 to rename
      </span>
    </>
  );
}
