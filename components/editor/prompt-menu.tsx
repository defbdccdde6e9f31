"use client";

import * as Menu from "@radix-ui/react-dropdown-menu";
import { useCallback, useId, useRef, useState } from "react";
import type { PromptItem, PromptType } from "@/lib/client/workbench-types";
import { ChevronDownIcon } from "@/components/ui/icons";

type PromptMenuProps = {
  prompts: PromptItem[];
  active: PromptItem | null;
  /** Why switching and deleting are blocked right now; null when they are allowed. */
  blockedReason: string | null;
  onSwitch(id: string): void;
  onCreate(type: PromptType): void;
  /** "Delete “name”…" was picked: the caller asks for confirmation (and takes the focus). */
  onDeleteRequest(): void;
  /** The chevron button, so the caller can give it focus back after the delete dialog. */
  buttonRef: React.RefObject<HTMLButtonElement | null>;
  /** The header the menu hangs from: its left edge and width, so a narrow panel does not cut it off. */
  anchorRef: React.RefObject<HTMLElement | null>;
};

const GROUPS: { type: PromptType; label: string }[] = [
  { type: "generator", label: "Generators" },
  { type: "grader", label: "Graders" },
];

const CREATE_ENTRIES: { type: PromptType; label: string }[] = [
  { type: "generator", label: "New generator prompt" },
  { type: "grader", label: "New grader prompt" },
];

/** Where the menu goes, measured as it opens: under the header's left edge, as wide as it allows. */
type Placement = { alignOffset: number; sideOffset: number; maxWidth: number };

const ITEM_CLASS =
  "flex w-full cursor-default items-center gap-2 rounded-md px-2.5 py-1.5 text-left text-sm focus:bg-accent-line/70 focus:text-zinc-900";

/**
 * The chevron menu beside the prompt's name: switch prompt, create one, delete the active one. On
 * @radix-ui/react-dropdown-menu: arrow keys, Home and End, typeahead, Escape and the focus back on
 * the button come from the library. Non-modal, as before: a click elsewhere closes it and lands.
 */
export function PromptMenu({ prompts, active, blockedReason, onSwitch, onCreate, onDeleteRequest, buttonRef, anchorRef }: PromptMenuProps) {
  const [open, setOpen] = useState(false);
  const [placement, setPlacement] = useState<Placement>({ alignOffset: 0, sideOffset: 4, maxWidth: 288 });
  // Which item takes the focus as the menu mounts: the active prompt, or the last item after
  // ArrowUp on the button. Focused from the ref callbacks, before Radix's own autofocus runs
  // (which then leaves a focus inside the menu alone): Radix would take the first item.
  const focusOnOpen = useRef<"active" | "last" | null>(null);
  // Opened with a click, the first item is focused without the keyboard's ring, as a click gives
  // none (Chrome would draw it: Radix keeps the focus off the button while it opens the menu).
  const openedByPointer = useRef(false);
  // Set when the delete dialog takes the focus: the menu must not pull it back to the button.
  const focusHandedOff = useRef(false);
  const menuId = useId();

  const focusActiveItem = useCallback((element: HTMLDivElement | null) => {
    if (!element || focusOnOpen.current !== "active") return;
    focusOnOpen.current = null;
    element.focus({ preventScroll: true, focusVisible: !openedByPointer.current });
  }, []);
  const focusItemOnMount = useCallback((element: HTMLDivElement | null) => {
    if (!element || focusOnOpen.current === null) return;
    const items = element.querySelectorAll<HTMLElement>('[role^="menuitem"]');
    // No active prompt to focus: the first item, as Radix would on a key but not on a click.
    const target = focusOnOpen.current === "last" ? items[items.length - 1] : items[0];
    focusOnOpen.current = null;
    target?.focus({ preventScroll: true, focusVisible: !openedByPointer.current });
  }, []);

  const grouped = GROUPS.map((group) => ({ ...group, prompts: prompts.filter((prompt) => prompt.type === group.type) }));

  function changeOpen(next: boolean, focusLast = false) {
    if (!next) openedByPointer.current = false;
    if (next) {
      focusOnOpen.current = focusLast ? "last" : "active";
      const button = buttonRef.current?.getBoundingClientRect();
      const header = anchorRef.current?.getBoundingClientRect();
      if (button && header) {
        setPlacement({ alignOffset: header.left - button.left, sideOffset: header.bottom - button.bottom + 4, maxWidth: header.width });
      }
    }
    setOpen(next);
  }

  /** Runs an item's action, or keeps the menu open when it is blocked (its title says why). */
  function select(event: Event, blocked: boolean, action: () => void) {
    if (blocked) {
      event.preventDefault();
      return;
    }
    action();
  }

  const blockedProps = (blocked: boolean) => ({
    "aria-disabled": blocked || undefined,
    title: blocked ? (blockedReason ?? undefined) : undefined,
  });

  return (
    <Menu.Root open={open} onOpenChange={changeOpen} modal={false}>
      <Menu.Trigger
        ref={buttonRef}
        data-testid="prompt-menu-button"
        aria-label="Prompts"
        onKeyDown={(event) => {
          // Radix opens on ArrowDown, Enter and Space; ArrowUp opens at the last item, as menus do.
          if (event.key === "ArrowUp" && !open) {
            event.preventDefault();
            changeOpen(true, true);
          }
        }}
        onPointerDown={() => {
          openedByPointer.current = true;
        }}
        className="grid size-7 shrink-0 place-items-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 aria-expanded:bg-zinc-100"
      >
        <ChevronDownIcon aria-hidden="true" className="size-4" strokeWidth="1.75" />
      </Menu.Trigger>

      <Menu.Portal>
        <Menu.Content
          ref={focusItemOnMount}
          aria-label="Prompts"
          side="bottom"
          align="start"
          alignOffset={placement.alignOffset}
          sideOffset={placement.sideOffset}
          avoidCollisions={false}
          loop
          style={{ maxWidth: placement.maxWidth }}
          onCloseAutoFocus={(event) => {
            if (!focusHandedOff.current) return;
            focusHandedOff.current = false;
            event.preventDefault();
          }}
          onKeyDown={(event) => {
            // Radix keeps Tab in the menu; it closes it instead, the focus back on the button.
            if (event.key === "Tab") {
              event.preventDefault();
              changeOpen(false);
            }
          }}
          className="z-50 max-h-[min(480px,70vh)] w-72 overflow-y-auto rounded-xl border border-accent-line bg-white p-1.5 shadow-lg"
        >
          {grouped.map((group) => {
            const headingId = `${menuId}-${group.type}`;
            return (
              <Menu.RadioGroup key={group.type} value={active?.id ?? ""} aria-labelledby={headingId} className="mb-1">
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
                  const blocked = blockedReason !== null && !checked;
                  return (
                    <Menu.RadioItem
                      key={prompt.id}
                      ref={checked ? focusActiveItem : undefined}
                      value={prompt.id}
                      textValue={prompt.name}
                      onSelect={(event) => select(event, blocked, () => !checked && onSwitch(prompt.id))}
                      {...blockedProps(blocked)}
                      className={`${ITEM_CLASS} ${blocked ? "text-zinc-400" : "text-zinc-800"}`}
                    >
                      <span aria-hidden="true" className="w-3.5 shrink-0 text-accent-strong">
                        {checked ? "✓" : ""}
                      </span>
                      <span className="min-w-0 truncate">{prompt.name}</span>
                      <span className="ml-auto shrink-0 text-xs text-zinc-500">v{prompt.versionCounter}</span>
                    </Menu.RadioItem>
                  );
                })}
              </Menu.RadioGroup>
            );
          })}
          <Menu.Separator className="my-1 border-t border-zinc-100" />
          {CREATE_ENTRIES.map((entry) => (
            <Menu.Item
              key={entry.type}
              textValue={entry.label}
              onSelect={() => onCreate(entry.type)}
              className={`${ITEM_CLASS} text-zinc-800`}
            >
              <span aria-hidden="true" className="w-3.5 shrink-0 text-center text-zinc-500">
                +
              </span>
              {entry.label}
            </Menu.Item>
          ))}
          {active && (
            <>
              <Menu.Separator className="my-1 border-t border-zinc-100" />
              <Menu.Item
                textValue={`Delete “${active.name}”…`}
                onSelect={(event) =>
                  select(event, blockedReason !== null, () => {
                    focusHandedOff.current = true;
                    onDeleteRequest();
                  })
                }
                {...blockedProps(blockedReason !== null)}
                className={`${ITEM_CLASS} ${blockedReason ? "text-zinc-400" : "text-zinc-800"}`}
              >
                <span aria-hidden="true" className="w-3.5 shrink-0" />
                <span className={`min-w-0 truncate ${blockedReason ? "" : "text-red-700"}`}>Delete “{active.name}”…</span>
              </Menu.Item>
            </>
          )}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
