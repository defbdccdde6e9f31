/**
 * Most event streams one user may hold open at once, per server process. Each open stream is a
 * reader of the database: it re-reads at least every 2 s, and up to 10 times a second while its
 * run is busy (run-event-stream.ts), on PGlite in the one thread the worker also needs. 16 is
 * several browser tabs and windows on a run plus a CLI following one, with room to spare (a
 * browser opens at most 6 HTTP/1.1 connections per host anyway); without a bound, one client
 * in a reconnect loop, or a leaked token, could open thousands and starve every other user.
 */
export const maxStreamsPerUser = 16;

/** Counts of open streams per user, each taken with acquire and given back by its release. */
export interface StreamSlots {
  /** Takes one of userId's slots; the function returned gives it back (once). Null when all are taken. */
  acquire(userId: string): (() => void) | null;
  /** How many streams userId has open. */
  open(userId: string): number;
}

/** Slots of at most limit streams per user. */
export function createStreamSlots(limit: number): StreamSlots {
  const counts = new Map<string, number>();
  return {
    acquire(userId) {
      const count = counts.get(userId) ?? 0;
      if (count >= limit) return null;
      counts.set(userId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(userId) ?? 1) - 1;
        if (left > 0) counts.set(userId, left);
        else counts.delete(userId);
      };
    },
    open: (userId) => counts.get(userId) ?? 0,
  };
}

// Next.js may load this module once per route bundle; the count must be one per process.
const store = globalThis as typeof globalThis & { __parallaxrRunEventSlots?: StreamSlots };

/** The process's slots for GET /api/v1/runs/{id}/events. */
export const runEventStreamSlots: StreamSlots = (store.__parallaxrRunEventSlots ??= createStreamSlots(maxStreamsPerUser));
