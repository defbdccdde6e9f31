"use client";

import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from "react";
import { errorMessage } from "./error-message";

/** What a page loaded, or why it could not, and a way to load it again. */
export type Load<T> = {
  /** The last data loaded; kept while a reload runs or after it fails, so the page does not blank. */
  data: T | null;
  /** The last load's error message; cleared when the next load starts. */
  error: string | null;
  /** Loads again (Try again, or after a change the page must show). Keeps one identity. */
  reload(): void;
  /** Changes the loaded data in place, for a change the server has already confirmed. */
  setData: Dispatch<SetStateAction<T | null>>;
  dismissError(): void;
};

/** Loads a settings page's data on mount with `load`, keeping the data and the load error. */
export function useLoad<T>(load: () => Promise<T>): Load<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The newest loader, read by a `reload` that never changes: pages pass `reload` to rows as a
  // callback, and a new identity on every render would run the load effect in a loop.
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  const reload = useCallback(() => {
    setError(null);
    loadRef
      .current()
      .then((value) => setData(() => value))
      .catch((caught: unknown) => setError(errorMessage(caught)));
  }, []);

  useEffect(reload, [reload]);

  const dismissError = useCallback(() => setError(null), []);
  return { data, error, reload, setData, dismissError };
}
