"use client";

import { useId, useRef } from "react";
import type { ModelOption } from "@/lib/client/run-types";

type AddModelButtonProps = {
  models: ModelOption[] | null;
  loadError: string | null;
  disabledReason: string | null;
  onPick(model: ModelOption): void;
};

const PICKER_WIDTH = 288;

/**
 * The "+" that adds a model column, and its picker. The picker is a popover (top layer, light
 * dismiss, Escape) so the grid's scroll box never clips it.
 */
export function AddModelButton({ models, loadError, disabledReason, onPick }: AddModelButtonProps) {
  const pickerId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const pickerRef = useRef<HTMLDivElement>(null);

  function placePicker() {
    const button = buttonRef.current;
    const picker = pickerRef.current;
    if (!button || !picker) return;
    const rect = button.getBoundingClientRect();
    const left = Math.max(8, Math.min(rect.right - PICKER_WIDTH, window.innerWidth - PICKER_WIDTH - 8));
    picker.style.top = `${rect.bottom + 6}px`;
    picker.style.left = `${left}px`;
  }

  function moveFocus(event: React.KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const options = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>("button[data-model-option]"));
    const current = options.indexOf(document.activeElement as HTMLButtonElement);
    const next = event.key === "ArrowDown" ? current + 1 : current - 1;
    options[(next + options.length) % options.length]?.focus();
    event.preventDefault();
  }

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        popoverTarget={pickerId}
        disabled={disabledReason !== null}
        aria-label="Add model"
        title={disabledReason ?? "Add model"}
        className="grid size-8 place-items-center rounded-lg border border-accent-line bg-accent-soft text-accent-strong hover:border-accent hover:bg-white disabled:cursor-not-allowed disabled:border-zinc-200 disabled:bg-zinc-50 disabled:text-zinc-400"
      >
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8">
          <path d="M8 3v10M3 8h10" strokeLinecap="round" />
        </svg>
      </button>
      <div
        ref={pickerRef}
        id={pickerId}
        popover="auto"
        role="dialog"
        aria-label="Choose a model"
        onBeforeToggle={(event) => {
          if (event.newState === "open") placePicker();
        }}
        onToggle={(event) => {
          if (event.newState === "open") pickerRef.current?.querySelector<HTMLButtonElement>("button")?.focus();
        }}
        onKeyDown={moveFocus}
        style={{ width: PICKER_WIDTH }}
        className="model-picker fixed rounded-xl border border-accent-line bg-white p-1.5 text-zinc-900 shadow-lg"
      >
        <p className="px-2 pt-1 pb-1.5 text-xs font-medium text-zinc-500">Add a model column</p>
        {loadError && <p className="px-2 pb-2 text-sm text-red-700">Could not load models: {loadError}</p>}
        {!loadError && !models && <p className="px-2 pb-2 text-sm text-zinc-600">Loading models…</p>}
        {models && models.length === 0 && <p className="px-2 pb-2 text-sm text-zinc-600">No models are available.</p>}
        {models && models.length > 0 && (
          <ul className="max-h-80 overflow-y-auto">
            {models.map((model) => (
              <li key={`${model.provider}/${model.model}`}>
                <button
                  type="button"
                  data-model-option
                  onClick={() => {
                    onPick(model);
                    pickerRef.current?.hidePopover();
                  }}
                  className="flex w-full flex-col items-start rounded-lg px-2 py-1.5 text-left hover:bg-accent-soft focus-visible:bg-accent-soft focus-visible:outline-offset-[-2px]"
                >
                  <span className="text-sm font-medium">
                    {model.provider} / {model.model}
                  </span>
                  {model.description && <span className="line-clamp-1 text-xs text-zinc-600">{model.description}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
