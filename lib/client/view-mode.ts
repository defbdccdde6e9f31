// The workbench's view mode: focus (editor 65%) while the editor has focus, balanced (30%) after
// it loses focus or on Run. A UI preference, so it is the one thing kept in localStorage.
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
