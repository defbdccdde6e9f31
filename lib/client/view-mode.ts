// The workbench's view settings: the view mode, focus (editor 65%) while the editor has focus,
// balanced (30%) after it loses focus or on Run; and the grid's density, cards or one line per
// cell. UI preferences, so they are the things kept in localStorage.
import { useEffect } from "react";
import { create } from "zustand";
import type { GridDensity, ViewMode } from "./workbench-types";

const STORAGE_KEY = "parallaxr.viewMode";
const DENSITY_KEY = "parallaxr.gridDensity";

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private windows may refuse storage; the setting then lasts for this page only.
  }
}

type ViewModeState = {
  mode: ViewMode;
  density: GridDensity;
  setMode(mode: ViewMode): void;
  setDensity(density: GridDensity): void;
  restore(): void;
};

export const useViewMode = create<ViewModeState>()((set, get) => ({
  // The server renders balanced cards; restore() reads the stored settings after hydration.
  mode: "balanced",
  density: "comfortable",
  setMode(mode) {
    if (get().mode === mode) return;
    set({ mode });
    store(STORAGE_KEY, mode);
  },
  setDensity(density) {
    if (get().density === density) return;
    set({ density });
    store(DENSITY_KEY, density);
  },
  restore() {
    set({
      mode: readStored(STORAGE_KEY) === "focus" ? "focus" : "balanced",
      density: readStored(DENSITY_KEY) === "compact" ? "compact" : "comfortable",
    });
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
