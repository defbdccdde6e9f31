"use client";

import { useCallback, useEffect, useRef, useState } from "react";

/**
 * The record a page has open, named by ?id= in its address (path?id=...): back and forward move
 * between the records opened, open() adds a history entry, and dropOpen() forgets the open one
 * without one (a stale link whose record cannot be read).
 */
export function useAddressId(path: string): {
  openId: string | null;
  open: (id: string | null) => void;
  dropOpen: () => void;
} {
  const [openId, setOpenId] = useState<string | null>(null);

  useEffect(() => {
    const fromAddress = () => setOpenId(new URLSearchParams(window.location.search).get("id"));
    fromAddress();
    window.addEventListener("popstate", fromAddress);
    return () => window.removeEventListener("popstate", fromAddress);
  }, []);

  const open = useCallback(
    (id: string | null) => {
      window.history.pushState(null, "", id ? `${path}?id=${encodeURIComponent(id)}` : path);
      setOpenId(id);
    },
    [path],
  );
  const dropOpen = useCallback(() => {
    setOpenId(null);
    window.history.replaceState(null, "", path);
  }, [path]);

  return { openId, open, dropOpen };
}

/** How a page follows the record it has open. */
export interface FollowOptions<T> {
  load(id: string): Promise<T>;
  /** Milliseconds until the next read of this reading, or null once the record has finished. */
  next(reading: T): number | null;
  /** The record finished (after its last reading is shown). */
  onEnd?(reading: T): void;
  /** A read failed: the record is not followed further. */
  onFailure(error: Error): void;
}

/**
 * Reads the record id and again after each delay next() gives, until it has finished, id changes
 * or the page leaves; the latest reading of id, or null until the first has arrived.
 */
export function useFollowedRecord<T>(id: string | null, options: FollowOptions<T>): T | null {
  const [reading, setReading] = useState<{ id: string; value: T } | null>(null);
  // The latest callbacks, without following again each time the page renders new ones.
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  useEffect(() => {
    if (!id) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const value = await latest.current.load(id);
        if (stopped) return;
        setReading({ id, value });
        const delay = latest.current.next(value);
        if (delay === null) latest.current.onEnd?.(value);
        else timer = setTimeout(read, delay);
      } catch (caught) {
        if (!stopped) latest.current.onFailure(caught as Error);
      }
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id]);

  return reading !== null && reading.id === id ? reading.value : null;
}
