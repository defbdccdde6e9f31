"use client";

import { useRef, useState } from "react";
import type { PromptItem, PromptType, SaveState } from "@/lib/client/workbench-types";
import { DeletePromptDialog } from "./delete-prompt-dialog";
import { PromptMenu } from "./prompt-menu";
import { PromptNameField } from "./prompt-name-field";

type PromptHeaderProps = {
  prompts: PromptItem[];
  active: PromptItem | null;
  saveState: SaveState;
  /** Blocks switching and deleting (renaming and creating stay allowed), e.g. while a run is active. */
  disabled?: boolean;
  /** Shown on the blocked menu items. */
  disabledReason?: string;
  onSwitch(id: string): void;
  onCreate(type: PromptType): void;
  onRename(name: string): void;
  onDelete(id: string): void;
};

const SAVE_LABELS = { saved: "Saved", saving: "Saving…", unsaved: "Unsaved changes" } as const;

/** Above the editor: the prompt's name (rename inline), its version, the prompts menu and the save state. */
export function PromptHeader({
  prompts,
  active,
  saveState,
  disabled = false,
  disabledReason = "Not while a run is active",
  onSwitch,
  onCreate,
  onRename,
  onDelete,
}: PromptHeaderProps) {
  const [pendingDelete, setPendingDelete] = useState<PromptItem | null>(null);
  // While the name is being edited, the save state steps aside: a 30% panel leaves the field
  // about 150px otherwise, too little to read a name of twenty characters.
  const [renaming, setRenaming] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);

  return (
    // Relative: the prompts menu opens from here, full width available, above the editor (z-50).
    <div ref={headerRef} className="relative flex h-8 min-w-0 items-center gap-1.5">
      {active ? (
        <>
          <PromptNameField key={active.id} name={active.name} onRename={onRename} onEditingChange={setRenaming} />
          <span
            data-testid="prompt-version"
            title={`Version ${active.versionCounter}: goes up on Run when the text changed since the last run; a rename starts again at v1`}
            className="shrink-0 rounded-md bg-zinc-100 px-1.5 py-px font-mono text-[11px] font-medium text-zinc-600"
          >
            v{active.versionCounter}
          </span>
        </>
      ) : (
        <span className="text-sm text-zinc-500">No prompt selected</span>
      )}
      <PromptMenu
        prompts={prompts}
        active={active}
        blockedReason={disabled ? disabledReason : null}
        onSwitch={onSwitch}
        onCreate={onCreate}
        onDeleteRequest={() => setPendingDelete(active)}
        buttonRef={menuButtonRef}
        anchorRef={headerRef}
      />
      <p
        aria-live="polite"
        data-testid="prompt-save-state"
        className={`ml-auto shrink-0 truncate pl-2 text-xs ${renaming ? "sr-only" : ""} ${saveState.status === "error" ? "max-w-[50%] text-red-700" : "text-zinc-500"}`}
        title={saveState.status === "error" ? saveState.message : undefined}
      >
        {saveState.status === "error" ? saveState.message : SAVE_LABELS[saveState.status]}
      </p>
      <DeletePromptDialog
        name={pendingDelete?.name ?? null}
        onClose={() => setPendingDelete(null)}
        onConfirm={() => {
          if (pendingDelete) onDelete(pendingDelete.id);
          setPendingDelete(null);
        }}
        returnFocus={menuButtonRef}
      />
    </div>
  );
}
