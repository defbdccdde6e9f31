// The workbench's view mode: focus (editor 65%) while the editor has focus, balanced (30%) after
// it loses focus or on Run. A UI preference, so it is the one thing kept in localStorage.
import { useEffect } from "react";
import { create } from "zustand";
import type { ViewMode } from "./workbench-types";

const STORAGE_KEY = "parallaxr.viewMode";

function readStoredMode(): ViewMode {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "focus" ? "focus" : "balanced";
  } catch {
    return "balanced";
  }
}

type ViewModeState = { mode: ViewMode; setMode(mode: ViewMode): void; restore(): void };

export const useViewMode = create<ViewModeState>()((set, get) => ({
  // The server renders balanced; restore() reads the stored mode after hydration.
  mode: "balanced",
  setMode(mode) {
    if (get().mode === mode) return;
    set({ mode });
    try {
      window.localStorage.setItem(STORAGE_KEY, mode);
    } catch {
      // Private windows may refuse storage; the mode then lasts for this page only.
    }
  },
  restore() {
    set({ mode: readStoredMode() });
  },
}));

// A press that takes focus from the editor must not move what it pressed. The editor panel shrinks
// from 65% to 30% on blur, and the press blurs the editor on pointer down: switched at once, the
// panel slides Run (and everything else on the panel's right) away before the button comes up, and
// the click lands on whatever slid under the pointer, so the run never starts. While a pointer is
// held, the switch therefore waits until it is released and its click has been delivered.
let pointerHeld = false;
let tracking = false;

function trackPointer() {
  if (tracking || typeof window === "undefined") return;
  tracking = true;
  window.addEventListener("pointerdown", () => (pointerHeld = true), true);
  const release = () => (pointerHeld = false);
  window.addEventListener("pointerup", release, true);
  window.addEventListener("pointercancel", release, true);
}

/** Calls `then` now, or once a held pointer is released and the click it makes has run. */
export function afterPointerRelease(then: () => void): void {
  if (!pointerHeld) return then();
  const done = () => {
    window.removeEventListener("pointerup", done, true);
    window.removeEventListener("pointercancel", done, true);
    // The click event follows pointerup in the same task; a timeout runs after it.
    setTimeout(then, 0);
  };
  window.addEventListener("pointerup", done, true);
  window.addEventListener("pointercancel", done, true);
}

/** Installs the window listeners that tell afterPointerRelease whether a pointer is held. */
export function useTrackPointer(): void {
  useEffect(trackPointer, []);
}
