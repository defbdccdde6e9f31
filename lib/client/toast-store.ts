// Short notices at the bottom-right of the page (dataset loaded, file could not be parsed).
import { create } from "zustand";

/** success: announced politely (role="status"); error: announced at once (role="alert"). */
export type ToastKind = "success" | "error";

/** One notice on screen. */
export type Toast = { id: number; kind: ToastKind; message: string };

/** How long a toast stays, unless the pointer or focus is on it (the spec's 3 s). */
export const TOAST_DURATION_MS = 3_000;

/** More than this many at once and the oldest goes first, so the stack never covers the grid. */
export const MAX_TOASTS = 4;

type ToastState = {
  toasts: Toast[];
  /** Shows a notice and answers its id. */
  showToast(toast: { kind: ToastKind; message: string }): number;
  dismissToast(id: number): void;
};

let nextToastId = 1;

/** The notices on screen, oldest first. */
export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  showToast({ kind, message }) {
    const id = nextToastId++;
    set((state) => ({ toasts: [...state.toasts, { id, kind, message }].slice(-MAX_TOASTS) }));
    return id;
  },
  dismissToast(id) {
    set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) }));
  },
}));

/** Shows a notice from anywhere (event handlers, effects), without subscribing to the store. */
export function showToast(toast: { kind: ToastKind; message: string }): number {
  return useToastStore.getState().showToast(toast);
}
