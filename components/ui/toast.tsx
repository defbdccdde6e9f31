"use client";

import { useEffect, useRef, useState } from "react";
import { TOAST_DURATION_MS, useToastStore, type Toast } from "@/lib/client/toast-store";
import { CheckCircleIcon, CloseIcon, ErrorCircleIcon } from "./icons";

/**
 * The stack of notices at the bottom-right; mount once per page. Each leaves after 3 s, and
 * waits while the pointer or keyboard focus is on it, so a long error can be read to the end.
 */
export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const dismissToast = useToastStore((state) => state.dismissToast);
  return (
    <div className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(380px,calc(100vw-32px))] flex-col items-stretch gap-2">
      {toasts.map((toast) => (
        <ToastCard key={toast.id} toast={toast} onDismiss={() => dismissToast(toast.id)} />
      ))}
    </div>
  );
}

function ToastCard({ toast, onDismiss }: { toast: Toast; onDismiss(): void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(TOAST_DURATION_MS);
  const dismissRef = useRef(onDismiss);
  dismissRef.current = onDismiss;

  useEffect(() => {
    if (paused) return;
    const startedAt = Date.now();
    const timer = setTimeout(() => dismissRef.current(), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current = Math.max(0, remaining.current - (Date.now() - startedAt));
    };
  }, [paused]);

  const isError = toast.kind === "error";
  return (
    <div
      role={isError ? "alert" : "status"}
      data-testid="toast"
      data-kind={toast.kind}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setPaused(false);
      }}
      className={`pointer-events-auto flex items-start gap-2.5 rounded-lg border bg-white py-2.5 pr-2 pl-3 text-sm shadow-lg transition-[opacity,translate] duration-150 ease-out motion-reduce:transition-none starting:translate-y-1 starting:opacity-0 ${
        isError ? "border-red-200 text-red-900" : "border-accent-line text-zinc-800"
      }`}
    >
      {isError ? (
        <ErrorCircleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
      ) : (
        <CheckCircleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
      )}
      <p className="min-w-0 flex-1 py-0.5 break-words whitespace-pre-line">{toast.message}</p>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={isError ? "Dismiss error" : "Dismiss notification"}
        className="grid size-6 shrink-0 place-items-center rounded text-zinc-500 hover:bg-zinc-100 hover:text-zinc-800 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-strong"
      >
        <CloseIcon aria-hidden="true" className="size-3.5" />
      </button>
    </div>
  );
}
