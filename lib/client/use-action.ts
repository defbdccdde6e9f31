"use client";

import { useCallback, useState } from "react";
import { errorMessage } from "./error-message";

/** A form's or button's async action: whether it is running, and the message of its last failure. */
export type Action = {
  busy: boolean;
  error: string | null;
  /** Shows a message of the caller's own (a field that did not validate), or clears it. */
  setError(message: string | null): void;
  /**
   * Runs `action`: clears the last error, is busy until it settles, and keeps the message if it
   * throws. `keepBusyOnSuccess` is for an action whose success takes the control away (Remove):
   * the button stays disabled until the reload removes it, so a second click cannot send it again.
   */
  run(action: () => Promise<void>, options?: { keepBusyOnSuccess?: boolean }): Promise<void>;
};

/** The busy flag and error message around one async action, as the settings rows use them. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = useCallback(async (action: () => Promise<void>, options?: { keepBusyOnSuccess?: boolean }) => {
    setError(null);
    setBusy(true);
    try {
      await action();
      if (!options?.keepBusyOnSuccess) setBusy(false);
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  }, []);

  return { busy, error, setError, run };
}
