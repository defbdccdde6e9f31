"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { PromptItem, PromptType } from "@/lib/client/workbench-types";
import { ChevronDownIcon } from "@/components/ui/icons";

type PromptMenuProps = {
  prompts: PromptItem[];
  active: PromptItem | null;
  /** Why switching and deleting are blocked right now; null when they are allowed. */
  blockedReason: string | null;
  onSwitch(id: string): void;
  onCreate(type: PromptType): void;
  /** "Delete “name”…" was picked: the caller asks for confirmation. */
  onDeleteRequest(): void;
  /** The chevron button, so the caller can give it focus back after the delete dialog. */
  buttonRef: React.RefObject<HTMLButtonElement | null>;
};

type CreateEntry = { kind: "create"; type: PromptType; label: string };
type DeleteEntry = { kind: "delete"; label: string };
type Entry = { kind: "prompt"; prompt: PromptItem } | CreateEntry | DeleteEntry;

const GROUPS: { type: PromptType; label: string }[] = [
  { type: "generator", label: "Generators" },
  { type: "grader", label: "Graders" },
];

/** The chevron menu beside the prompt's name: switch prompt, create one, delete the active one. */
export function PromptMenu({ prompts, active, blockedReason, onSwitch, onCreate, onDeleteRequest, buttonRef }: PromptMenuProps) {
  const [open, setOpen] = useState(false);
  const [focusIndex, setFocusIndex] = useState(0);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const menuId = useId();

  const grouped = GROUPS.map((group) => ({ ...group, prompts: prompts.filter((prompt) => prompt.type === group.type) }));
  const createEntries: CreateEntry[] = [
    { kind: "create", type: "generator", label: "New generator prompt" },
    { kind: "create", type: "grader", label: "New grader prompt" },
  ];
  const deleteEntry: DeleteEntry | null = active ? { kind: "delete", label: `Delete “${active.name}”…` } : null;
  // In the order they are shown, which is the order the arrow keys walk.
  const entries: Entry[] = [
    ...grouped.flatMap((group) => group.prompts.map((prompt): Entry => ({ kind: "prompt", prompt }))),
    ...createEntries,
    ...(deleteEntry ? [deleteEntry] : []),
  ];

  useEffect(() => {
    if (open) itemRefs.current[focusIndex]?.focus();
  }, [open, focusIndex]);

  useEffect(() => {
    if (!open) return;
    const closeOnOutside = (event: PointerEvent) => {
      if (!wrapperRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutside);
    return () => document.removeEventListener("pointerdown", closeOnOutside);
  }, [open]);

  function openAt(index: number) {
    setFocusIndex((index + entries.length) % entries.length);
    setOpen(true);
  }

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  }

  function pick(entry: Entry) {
    const isActive = entry.kind === "prompt" && entry.prompt.id === active?.id;
    if (entry.kind !== "create" && !isActive && blockedReason) return;
    close(true);
    if (entry.kind === "prompt" && !isActive) onSwitch(entry.prompt.id);
    if (entry.kind === "create") onCreate(entry.type);
    if (entry.kind === "delete") onDeleteRequest();
  }

  function onMenuKeyDown(event: React.KeyboardEvent) {
    const moves: Record<string, number> = {
      ArrowDown: focusIndex + 1,
      ArrowUp: focusIndex - 1,
      Home: 0,
      End: entries.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      setFocusIndex((moves[event.key] + entries.length) % entries.length);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      pick(entries[focusIndex]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === "Tab") {
      close(false);
    }
  }

  const activeIndex = entries.findIndex((entry) => entry.kind === "prompt" && entry.prompt.id === active?.id);
  itemRefs.current = [];
  let index = 0;
  const itemProps = (entry: Entry, disabled: boolean) => {
    const itemIndex = index++;
    return {
      ref: (element: HTMLElement | null) => {
        itemRefs.current[itemIndex] = element;
      },
      tabIndex: -1,
      "aria-disabled": disabled || undefined,
      title: disabled ? (blockedReason ?? undefined) : undefined,
      onClick: () => pick(entry),
      onPointerMove: () => {
        if (focusIndex !== itemIndex) setFocusIndex(itemIndex);
      },
      className: `flex w-full cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-left text-sm focus:bg-accent-line/70 focus:text-zinc-900 ${
        disabled ? "text-zinc-400" : "text-zinc-800"
      }`,
    };
  };

  return (
    // Not positioned itself: the menu hangs from the header's left edge (see PromptHeader), so a
    // narrow panel does not cut it off on the right.
    <div ref={wrapperRef}>
      <button
        ref={buttonRef}
        type="button"
        data-testid="prompt-menu-button"
        aria-label="Prompts"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close(false) : openAt(Math.max(activeIndex, 0)))}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" || event.key === "ArrowUp") {
            event.preventDefault();
            openAt(event.key === "ArrowDown" ? Math.max(activeIndex, 0) : -1);
          }
        }}
        className="grid size-7 shrink-0 place-items-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 aria-expanded:bg-zinc-100"
      >
        <ChevronDownIcon aria-hidden="true" className="size-4" strokeWidth="1.75" />
      </button>

      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label="Prompts"
          onKeyDown={onMenuKeyDown}
          className="absolute top-full left-0 z-50 mt-1 max-h-[min(480px,70vh)] w-72 max-w-full overflow-y-auto rounded-xl border border-accent-line bg-white p-1.5 shadow-lg"
        >
          {grouped.map((group) => {
            const headingId = `${menuId}-${group.type}`;
            return (
              <div key={group.type} role="group" aria-labelledby={headingId} className="mb-1">
                <div
                  id={headingId}
                  role="presentation"
                  className="px-2.5 pt-1.5 pb-1 text-[11px] font-semibold tracking-wide text-zinc-500 uppercase"
                >
                  {group.label}
                </div>
                {group.prompts.length === 0 && (
                  <div role="presentation" className="px-2.5 py-1 text-xs text-zinc-500">
                    None yet
                  </div>
                )}
                {group.prompts.map((prompt) => {
                  const checked = prompt.id === active?.id;
                  return (
                    <div
                      key={prompt.id}
                      role="menuitemradio"
                      aria-checked={checked}
                      {...itemProps({ kind: "prompt", prompt }, blockedReason !== null && !checked)}
                    >
                      <span aria-hidden="true" className="w-3.5 shrink-0 text-accent-strong">
                        {checked ? "✓" : ""}
                      </span>
                      <span className="min-w-0 truncate">{prompt.name}</span>
                      <span className="ml-auto shrink-0 text-xs text-zinc-500">v{prompt.versionCounter}</span>
                    </div>
                  );
                })}
              </div>
            );
          })}
          <div role="separator" className="my-1 border-t border-zinc-100" />
          {createEntries.map((entry) => (
            <div key={entry.type} role="menuitem" {...itemProps(entry, false)}>
              <span aria-hidden="true" className="w-3.5 shrink-0 text-center text-zinc-500">
                +
              </span>
              {entry.label}
            </div>
          ))}
          {deleteEntry && (
            <>
              <div role="separator" className="my-1 border-t border-zinc-100" />
              <div role="menuitem" {...itemProps(deleteEntry, blockedReason !== null)}>
                <span aria-hidden="true" className="w-3.5 shrink-0" />
                <span className={`min-w-0 truncate ${blockedReason ? "" : "text-red-700"}`}>{deleteEntry.label}</span>
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}
